import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';

/** API tokens: list, make (shown once), revoke (office users). */
export async function tokenRoutes(app: FastifyInstance): Promise<void> {
  const { tokens } = app.services;
  route(app, 'tokens', async (req) => tokens.list(req.auth.actor, req.query.page));
  route(app, 'createToken', async (req) => tokens.create(req.auth.actor, auditActor(req), req.body));
  route(app, 'revokeToken', async (req) => tokens.revoke(req.params.id, req.auth.actor, auditActor(req)));
}
