import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';
import { IngestService } from './ingest-service.js';

/** Receiving responses from field users: one at a time, or a queued batch from an offline phone. */
export async function responseIngestRoutes(app: FastifyInstance): Promise<void> {
  const ingest = new IngestService(app.db);

  route(app, 'respond', async (req) => ingest.respond(req.auth.user.id, req.body));

  route(app, 'syncResponses', async (req) => ({ results: await ingest.sync(req.auth.user.id, req.body.responses) }));
}
