import type { FastifyInstance } from 'fastify';
import { OfficeMsg } from '@survey-bird/contracts';
import { pageOf, pagingReply } from '../../http/paging.js';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';

/** Office users of the caller's organization (owners only: the route table's `office`). */
export async function officeRoutes(app: FastifyInstance): Promise<void> {
  const { office } = app.services;

  route(app, 'officeUsers', async (req) => {
    const page = pageOf(req.query.page);
    const { officeUsers, total } = await office.list(req.auth.actor, page, req.query.searchQuery);
    return { officeUsers, ...pagingReply(page, total) };
  });

  route(app, 'inviteOfficeUser', async (req) => ({ msg: OfficeMsg.invited, officeUser: await office.invite(req.auth.actor, req.body, auditActor(req)) }));

  route(app, 'updateOfficeUser', async (req) => ({ msg: OfficeMsg.updated, officeUser: await office.update(req.auth.actor, req.params.id, req.body, auditActor(req)) }));

  route(app, 'removeOfficeUser', async (req) => {
    await office.remove(req.auth.actor, req.params.id, auditActor(req));
    return { msg: OfficeMsg.removed };
  });
}
