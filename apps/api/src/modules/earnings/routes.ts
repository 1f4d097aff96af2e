import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';

export async function earningsRoutes(app: FastifyInstance): Promise<void> {
  const { earnings } = app.services;

  route(app, 'myResponseChanges', async (req) => earnings.changes(req.auth.user.id, req.query.since));

  route(app, 'myEarnings', async (req) => earnings.earnings(req.auth.user.id));
}
