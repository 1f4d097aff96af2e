import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';

export async function reviewRoutes(app: FastifyInstance): Promise<void> {
  const { review } = app.services;

  route(app, 'reviewResponses', async (req) => ({ results: await review.review(req.auth.actor, req.body, auditActor(req)) }));

  route(app, 'responseDetail', async (req) => review.detail(req.auth.actor, req.params.id));
}
