import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';

export async function reviewRoutes(app: FastifyInstance): Promise<void> {
  const { review } = app.services;

  route(app, 'reviewResponses', async (req) => ({ results: await review.review(await review.reviewer(req.auth), req.body) }));

  route(app, 'responseDetail', async (req) => review.detail(await review.reviewer(req.auth), req.params.id));
}
