import type { FastifyInstance } from 'fastify';
import { ApiMsg, Limits } from '@survey-bird/contracts';
import { badRequest } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { hasMoreKeysThan } from './ingest-service.js';

/** Receiving responses from field users: one at a time, or a queued batch from an offline phone. */
export async function responseIngestRoutes(app: FastifyInstance): Promise<void> {
  const { ingest } = app.services;

  route(app, 'respond', async (req) => ingest.respond(req.auth.user.id, req.body), {
    // Before the schema walks every answer: no survey has more than Limits.maxQuestions questions.
    beforeValidation: (req) => {
      if (hasMoreKeysThan((req.body as { answers?: unknown } | null)?.answers, Limits.maxQuestions)) throw badRequest(ApiMsg.tooManyAnswers);
    },
  });

  route(app, 'syncResponses', async (req) => ({ results: await ingest.sync(req.auth.user.id, req.body.responses) }));
}
