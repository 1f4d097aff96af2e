import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';

/** Quality flags: the dismiss route (the worker that computes them runs from plugins/jobs.ts). */
export async function flagRoutes(app: FastifyInstance): Promise<void> {
  const { flags, review } = app.services;

  route(app, 'dismissFlag', async (req) => flags.dismiss(await review.reviewer(req.auth), req.params.id, req.params.flag, req.body.note));
}
