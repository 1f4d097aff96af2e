import type { FastifyInstance } from 'fastify';
import { ApiMsg } from '@survey-bird/contracts';
import { pageOf, pagingReply } from '../../http/paging.js';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';

export async function organizationRoutes(app: FastifyInstance): Promise<void> {
  const { organizations } = app.services;

  route(app, 'currentOrganization', async (req) => ({ organization: await organizations.current(req.auth.actor) }));

  route(app, 'organizationSettings', async (req) => ({ organization: await organizations.updateSettings(req.auth.actor, req.body, auditActor(req)) }));

  route(app, 'allOrganizations', async (req) => {
    const page = pageOf(req.query.page);
    const { organizations: list, total } = await organizations.list(page, req.query.searchQuery);
    return { organizations: list, ...pagingReply(page, total) };
  });

  route(app, 'createOrganization', async (req) => ({ msg: ApiMsg.organizationCreated, organization: await organizations.create(req.body) }));

  route(app, 'sendMail', async (req) => ({ msg: ApiMsg.mailSent, recipients: await organizations.sendMail(req.body) }));
}
