import type { FastifyInstance } from 'fastify';
import { ApiMsg, Limits } from '@survey-bird/contracts';
import { badRequest } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { hasMoreKeysThan } from './ingest-service.js';

/** Receiving responses from field users: one at a time, or a queued batch from an offline phone. */
export async function responseIngestRoutes(app: FastifyInstance): Promise<void> {
  const { ingest, backchecks } = app.services;

  route(app, 'respond', async (req) => (req.body.backcheckOf !== undefined ? backchecks.respond(req.auth.user.id, req.body) : ingest.respond(req.auth.user.id, req.body)), {
    // Before the schema walks every answer: no survey has more than Limits.maxQuestions questions.
    beforeValidation: (req) => {
      if (hasMoreKeysThan((req.body as { answers?: unknown } | null)?.answers, Limits.maxQuestions)) throw badRequest(ApiMsg.tooManyAnswers);
    },
  });

  // A back-check (`backcheckOf`) is answered by its own module; the queue's order is kept in the results.
  route(app, 'syncResponses', async (req) => {
    const items = req.body.responses;
    const isBackcheck = (item: unknown) => typeof item === 'object' && item !== null && (item as { backcheckOf?: unknown }).backcheckOf !== undefined;
    const checks = items.filter(isBackcheck);
    if (checks.length === 0) return { results: await ingest.sync(req.auth.user.id, items) };
    const rest = items.filter((item) => !isBackcheck(item));
    const [checked, others] = await Promise.all([backchecks.sync(req.auth.user.id, checks), rest.length > 0 ? ingest.sync(req.auth.user.id, rest) : Promise.resolve([])]);
    return { results: items.map((item) => (isBackcheck(item) ? checked.shift()! : others.shift()!)) };
  });
}
