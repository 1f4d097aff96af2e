import type { FastifyInstance } from 'fastify';
import { ApiMsg } from '@survey-bird/contracts';
import { pageOf, pagingReply } from '../../http/paging.js';
import { route } from '../../http/route.js';

export async function teamRoutes(app: FastifyInstance): Promise<void> {
  const { teams } = app.services;

  route(app, 'inviteFieldUser', async (req) => ({ msg: ApiMsg.fieldUserInvited, fieldsUser: await teams.inviteFieldUser(req.auth.organizationId, req.body) }));

  route(app, 'inviteSupervisor', async (req) => ({ msg: ApiMsg.supervisorInvited, fieldsUser: await teams.inviteSupervisor(req.auth.organizationId, req.body) }));

  route(app, 'fieldUsers', async (req) => {
    const page = pageOf(req.query.page);
    const { fieldUsers, total, totalDue, staleSyncDays } = await teams.listFieldUsers(req.params.surveyId, req.auth.organizationId, page, req.query.searchQuery);
    return { fieldUsers, totalDue, staleSyncDays, ...pagingReply(page, total) };
  });

  route(app, 'supervisors', async (req) => {
    const page = pageOf(req.query.page);
    const { supervisors, total } = await teams.listSupervisors(req.params.surveyId, req.auth.organizationId, page, req.query.searchQuery);
    return { supervisors, ...pagingReply(page, total) };
  });

  route(app, 'withdrawMember', async (req) => {
    await teams.withdraw(req.auth.organizationId, req.params.surveyId, req.params.memberId);
    return { msg: ApiMsg.memberWithdrawn };
  });

  route(app, 'assignSupervisor', async (req) => ({ msg: ApiMsg.supervisorAssigned, data: await teams.assign(req.auth.organizationId, req.body) }));

  route(app, 'supervisorFieldUsers', async (req) => {
    const page = pageOf(req.query.page);
    const { user } = req.auth;
    const { fieldUsers, total, totalDue, staleSyncDays } = await teams.supervisorFieldUsers(req.params.surveyId, user.id, user.email, page, req.query.searchQuery);
    return { fieldUsers, totalDue, staleSyncDays, ...pagingReply(page, total) };
  });

  route(app, 'currentSupervisorName', async (req) => ({ supervisor: await teams.supervisorName(req.auth.user.id, req.auth.user.email) }));

  route(app, 'allFieldUsers', async (req) => {
    const page = pageOf(req.query.page);
    const { fieldUsers, total } = await teams.allFieldUsers(page, req.query.searchQuery);
    return { fieldUsers, ...pagingReply(page, total) };
  });
}
