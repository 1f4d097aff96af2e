import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ResponseStatus } from '@survey-bird/contracts';
import { route } from '../../http/route.js';
import { XLSX_MIME, attachmentHeader } from './download.js';
import type { ScopedSurvey } from './repository.js';
import { filtered } from './service.js';

/** The dashboards, the responses table and the xlsx export, for organizations and supervisors. */
export async function insightRoutes(app: FastifyInstance): Promise<void> {
  const { insight } = app.services;
  const exports = app.jobs.exportQueue;
  // Server time of each reply (routing to serialized body), for the benchmarks and the browser's dev tools.
  app.addHook('onSend', async (_req, reply) => {
    reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(1)}`);
  });
  const ofOrganization = (surveyId: string, organizationId: string | null) => insight.organizationSurvey(surveyId, organizationId);
  const ofSupervisor = (surveyId: string, userId: string) => insight.supervisorSurvey(surveyId, userId);

  route(app, 'organizationResponses', async (req) => {
    const survey = await ofOrganization(req.params.surveyId, req.auth.organizationId);
    return insight.responses(survey.scope, req.query);
  });

  route(app, 'supervisorResponses', async (req) => {
    const survey = await ofSupervisor(req.params.surveyId, req.auth.user.id);
    return insight.responses(survey.scope, req.query);
  });

  route(app, 'organizationTopPerformer', async (req) => {
    const survey = await ofOrganization(req.params.surveyId, req.auth.organizationId);
    return insight.cards(survey.scope);
  });

  route(app, 'supervisorTopPerformer', async (req) => {
    const survey = await ofSupervisor(req.params.surveyId, req.auth.user.id);
    return insight.cards(survey.scope);
  });

  route(app, 'organizationByWeeks', async (req) => {
    const survey = await ofOrganization(req.params.surveyId, req.auth.organizationId);
    return insight.week(survey.scope, req.query.startDate, req.query.endDate);
  });

  // An export waits for its turn (export-queue.ts) with the request open, then streams.
  const queued = async (req: FastifyRequest, reply: FastifyReply, survey: ScopedSurvey, query: { searchQuery: string; status?: ResponseStatus; flagged?: boolean }) => {
    const release = await exports.acquire(req.auth!.user.id, (listener) => req.raw.socket?.once('close', listener));
    let stream;
    try {
      stream = await insight.export({ ...survey, scope: filtered(survey.scope, query) }, query.searchQuery);
    } catch (err) {
      release();
      throw err;
    }
    stream.once('close', release);
    return reply.type(XLSX_MIME).header('content-disposition', attachmentHeader(survey.title)).send(stream);
  };

  route(app, 'exportQueue', async (req) => exports.placeOf(req.auth.user.id));

  route(app, 'organizationExport', async (req, reply) => {
    const survey = await ofOrganization(req.params.surveyId, req.auth.organizationId);
    return queued(req, reply, survey, req.query);
  });

  route(app, 'supervisorExport', async (req, reply) => {
    const survey = await ofSupervisor(req.params.surveyId, req.auth.user.id);
    return queued(req, reply, survey, req.query);
  });
}
