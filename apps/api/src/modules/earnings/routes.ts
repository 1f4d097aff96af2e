import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';

export async function earningsRoutes(app: FastifyInstance): Promise<void> {
  const { earnings } = app.services;
  // Server time of each reply, for the changes feed's benchmark (scripts/bench/changes-feed.ts).
  app.addHook('onSend', async (_req, reply) => {
    reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(1)}`);
  });

  route(app, 'myResponseChanges', async (req) => earnings.changes(req.auth.user.id, req.query.since));

  route(app, 'myEarnings', async (req) => earnings.earnings(req.auth.user.id));

  route(app, 'myResponses', async (req) => earnings.mine(req.auth.user.id, req.query.page));
}
