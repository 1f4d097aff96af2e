import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';

/** Quality flags: the in-process worker that computes them, and the dismiss route. */
export async function flagRoutes(app: FastifyInstance): Promise<void> {
  const { flags, review } = app.services;
  // Every request the server takes tells the worker to keep to its small budget (flag-worker.ts).
  app.server.on('request', () => flags.worker.noteRequest());
  flags.worker.start();
  app.addHook('onClose', async () => flags.worker.stop());

  route(app, 'dismissFlag', async (req) => flags.dismiss(await review.reviewer(req.auth), req.params.id, req.params.flag, req.body.note));
}
