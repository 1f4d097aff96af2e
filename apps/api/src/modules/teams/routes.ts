import type { FastifyInstance } from 'fastify';
import { ApiMsg, Role } from '@survey-bird/contracts';
import { pageOf, pagingReply } from '../../http/paging.js';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';
import { readBulkFile, receiveBulkFile } from './bulk-file.js';
import { bulkTemplate } from './bulk.js';

export async function teamRoutes(app: FastifyInstance): Promise<void> {
  const { teams, people, bulk, bankChanges, teamCopy } = app.services;

  route(app, 'inviteFieldUser', async (req) => ({ msg: ApiMsg.fieldUserInvited, fieldsUser: await teams.inviteFieldUser(req.auth.actor, req.body, auditActor(req)) }));

  route(app, 'inviteSupervisor', async (req) => ({ msg: ApiMsg.supervisorInvited, fieldsUser: await teams.inviteSupervisor(req.auth.actor, req.body, auditActor(req)) }));

  route(app, 'fieldUsers', async (req) => {
    const page = pageOf(req.query.page);
    const { fieldUsers, total, totalDue, staleSyncDays } = await teams.listFieldUsers(req.params.surveyId, req.auth.actor, page, req.query.searchQuery);
    return { fieldUsers, totalDue, staleSyncDays, ...pagingReply(page, total) };
  });

  route(app, 'supervisors', async (req) => {
    const page = pageOf(req.query.page);
    const { supervisors, total } = await teams.listSupervisors(req.params.surveyId, req.auth.actor, page, req.query.searchQuery);
    return { supervisors, ...pagingReply(page, total) };
  });

  route(app, 'withdrawMember', async (req) => {
    await teams.withdraw(req.auth.actor, req.params.surveyId, req.params.memberId, auditActor(req));
    return { msg: ApiMsg.memberWithdrawn };
  });

  for (const [name, role] of [['bulkInviteFieldUsers', Role.fieldUser], ['bulkInviteSupervisors', Role.supervisor]] as const) {
    route(app, name, async (req) => {
      const { bytes, surveyId } = await receiveBulkFile(req);
      return bulk.run(req.auth.actor, role, surveyId, await readBulkFile(bytes), req.query.dryRun, auditActor(req));
    });
  }

  route(app, 'inviteToSurveys', async (req) => ({ msg: ApiMsg.invitedToSurveys, ...(await teamCopy.inviteToSurveys(req.auth.actor, req.body, auditActor(req))) }));

  route(app, 'copyTeam', async (req) => ({ msg: ApiMsg.teamCopied, ...(await teamCopy.copyTeam(req.auth.actor, req.body, auditActor(req))) }));

  route(app, 'bulkTemplate', async (req, reply) => {
    const name = req.query.role === Role.fieldUser ? 'field-users' : 'supervisors';
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}-template.csv"`).send(bulkTemplate(req.query.role));
  });

  route(app, 'myBank', async (req) => {
    const page = pageOf(req.query.page);
    const { banks, total } = await bankChanges.mine(req.auth.user.id, page);
    return { banks, ...pagingReply(page, total) };
  });

  route(app, 'requestBankChange', async (req) => {
    await bankChanges.request(req.auth.user.id, req.body, auditActor(req));
    return { msg: ApiMsg.bankChangeRequested };
  });

  route(app, 'bankChangeRequests', async (req) => {
    const page = pageOf(req.query.page);
    const { requests, total } = await bankChanges.pending(req.auth.actor.organizationId, page);
    return { requests, ...pagingReply(page, total) };
  });

  route(app, 'approveBankChange', async (req) => {
    await bankChanges.approve(req.auth.actor, req.params.id, auditActor(req));
    return { msg: ApiMsg.bankChangeApproved };
  });

  route(app, 'rejectBankChange', async (req) => {
    await bankChanges.reject(req.auth.actor, req.params.id, req.body?.reason ?? '', auditActor(req));
    return { msg: ApiMsg.bankChangeRejected };
  });

  route(app, 'updateMember', async (req) => ({ msg: ApiMsg.memberUpdated, member: await people.update(req.auth.actor, req.params.surveyId, req.params.memberId, req.body, auditActor(req)) }));

  route(app, 'bulkAssignSupervisor', async (req) => ({ msg: ApiMsg.fieldUsersReassigned, assigned: await people.assignMany(req.auth.actor, req.body, auditActor(req)) }));

  route(app, 'deactivatePerson', async (req) => ({ msg: ApiMsg.personDeactivated, surveys: await people.deactivate(req.auth.actor, req.body.email, auditActor(req)) }));

  route(app, 'reactivatePerson', async (req) => ({ msg: ApiMsg.personReactivated, surveys: await people.reactivate(req.auth.actor, req.body.email, auditActor(req)) }));

  route(app, 'deactivatedPeople', async (req) => {
    const page = pageOf(req.query.page);
    const { people: list, total } = await people.deactivated(req.auth.actor.organizationId, page);
    return { people: list, ...pagingReply(page, total) };
  });

  route(app, 'assignSupervisor', async (req) => ({ msg: ApiMsg.supervisorAssigned, data: await teams.assign(req.auth.actor, req.body, auditActor(req)) }));

  route(app, 'supervisorFieldUsers', async (req) => {
    const page = pageOf(req.query.page);
    const { actor } = req.auth;
    const { fieldUsers, total, totalDue, staleSyncDays } = await teams.supervisorFieldUsers(req.params.surveyId, actor.userId, actor.email, page, req.query.searchQuery);
    return { fieldUsers, totalDue, staleSyncDays, ...pagingReply(page, total) };
  });

  route(app, 'currentSupervisorName', async (req) => ({ supervisor: await teams.supervisorName(req.auth.actor.userId, req.auth.actor.email) }));

  route(app, 'allFieldUsers', async (req) => {
    const page = pageOf(req.query.page);
    const { fieldUsers, total } = await teams.allFieldUsers(page, req.query.searchQuery);
    return { fieldUsers, ...pagingReply(page, total) };
  });
}
