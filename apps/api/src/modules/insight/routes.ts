import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuditAction, type ExportQuery } from '@survey-bird/contracts';
import { route } from '../../http/route.js';
import { auditActor, recordAudit } from '../audit/record.js';
import { CSV_TABLES_DOWNLOAD, DOWNLOADS, attachmentHeader } from './download.js';
import type { ScopedSurvey } from './repository.js';
import { hidesPersonal } from '../privacy/personal-keys.js';
import { filtered, type Hidden } from './service.js';

/** The dashboards, the responses table and the exports (xlsx, csv, Stata, SPSS, GeoJSON, KML), for organizations and supervisors. */
export async function insightRoutes(app: FastifyInstance): Promise<void> {
  const { insight } = app.services;
  const exports = app.jobs.exportQueue;
  /** The personal answer keys this reader gets masked: an analyst's always, anyone's when they ask for it. */
  const hiddenFor = async (req: FastifyRequest, survey: ScopedSurvey, withoutPersonal = false): Promise<Hidden> =>
    withoutPersonal || (req.auth?.actor !== null && req.auth?.actor !== undefined && hidesPersonal(req.auth.actor)) ? insight.personalKeys(survey) : null;
  // Server time of each reply (routing to serialized body), for the benchmarks and the browser's dev tools.
  app.addHook('onSend', async (_req, reply) => {
    reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(1)}`);
  });

  route(app, 'organizationResponses', async (req) => {
    const survey = await insight.survey(req.auth.actor, req.params.surveyId);
    return insight.responses(survey.scope, req.query, await hiddenFor(req, survey));
  });

  route(app, 'supervisorResponses', async (req) => {
    const survey = await insight.survey(req.auth.actor, req.params.surveyId);
    return insight.responses(survey.scope, req.query);
  });

  route(app, 'organizationTopPerformer', async (req) => {
    const survey = await insight.survey(req.auth.actor, req.params.surveyId);
    return insight.cards(survey.scope);
  });

  route(app, 'supervisorTopPerformer', async (req) => {
    const survey = await insight.survey(req.auth.actor, req.params.surveyId);
    return insight.cards(survey.scope);
  });

  route(app, 'organizationByWeeks', async (req) => {
    const survey = await insight.survey(req.auth.actor, req.params.surveyId);
    return insight.week(survey.scope, req.query.startDate, req.query.endDate);
  });

  route(app, 'surveyChanges', async (req) => {
    const survey = await insight.survey(req.auth.actor, req.params.id);
    return insight.changes(survey.id, req.query, await hiddenFor(req, survey, req.query.withoutPersonal));
  });

  // An export waits for its turn (export-queue.ts) with the request open, then streams.
  const queued = async (req: FastifyRequest, reply: FastifyReply, survey: ScopedSurvey, query: ExportQuery) => {
    const release = await exports.acquire(req.auth!.user.id, (listener) => req.raw.socket?.once('close', listener));
    let stream;
    let repeats = 0;
    try {
      const filters = { searchQuery: query.searchQuery || undefined, status: query.status, flagged: query.flagged };
      const hidden = await hiddenFor(req, survey, query.withoutPersonal);
      await recordAudit(app.db.kysely, auditActor(req), { organizationId: survey.organization_id, action: AuditAction.exportResponses, surveyId: survey.id, target: { type: 'survey', id: survey.id, label: survey.title }, after: { ...filters, format: query.format, ...(hidden ? { withoutPersonal: true } : {}) } });
      ({ stream, repeats } = await insight.export({ ...survey, scope: filtered(survey.scope, query) }, query.searchQuery, { format: query.format, choices: query.choices, splitMultiple: query.splitMultiple }, hidden));

    } catch (err) {
      release();
      throw err;
    }
    stream.once('close', release);
    // A CSV of a survey with repeats is a zip of one CSV per table.
    const download = query.format === 'csv' && repeats > 0 ? CSV_TABLES_DOWNLOAD : DOWNLOADS[query.format];
    return reply.type(download.mime).header('content-disposition', attachmentHeader(survey.title, download.extension)).send(stream);
  };

  route(app, 'exportQueue', async (req) => exports.placeOf(req.auth.user.id));

  route(app, 'organizationExport', async (req, reply) => {
    const survey = await insight.survey(req.auth.actor, req.params.surveyId);
    return queued(req, reply, survey, req.query);
  });

  route(app, 'supervisorExport', async (req, reply) => {
    const survey = await insight.survey(req.auth.actor, req.params.surveyId);
    return queued(req, reply, survey, req.query);
  });
}
