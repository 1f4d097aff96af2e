import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';
import { ReviewService } from './service.js';

export async function reviewRoutes(app: FastifyInstance): Promise<void> {
  const review = new ReviewService(app);

  route(app, 'reviewResponses', async (req) => ({ results: await review.review(await review.reviewer(req.auth), req.body) }));

  route(app, 'responseDetail', async (req) => review.detail(await review.reviewer(req.auth), req.params.id));
}
