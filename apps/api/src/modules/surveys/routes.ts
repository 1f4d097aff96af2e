import type { FastifyInstance } from 'fastify';
import { ApiMsg, Msg } from '@survey-bird/contracts';
import { pageOf, pagingReply } from '../../http/paging.js';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';
import { attachmentName, XLSX_MIME } from './xlsform-export.js';
import { importXlsform, writeXlsform } from './xlsform-thread.js';
import { receiveXlsform } from './xlsform-upload.js';

export async function surveyRoutes(app: FastifyInstance): Promise<void> {
  const { surveys } = app.services;

  route(app, 'createSurvey', async (req) => ({ msg: Msg.surveyPublished, survey: await surveys.create(req.auth.actor, req.body, auditActor(req)) }));

  for (const name of ['organizationSurveys', 'fieldUserSurveys', 'supervisorSurveys'] as const) {
    route(app, name, async (req) => {
      const page = pageOf(req.query.page);
      const { rows, total } = await surveys.list(req.auth.actor, page, req.query.searchQuery);
      return { survey: rows, ...pagingReply(page, total) };
    });
  }

  route(app, 'updateSurvey', async (req) => ({ msg: ApiMsg.newVersionPublished, survey: await surveys.update(req.params.id, req.auth.actor, req.body, auditActor(req)) }));

  route(app, 'surveyVersions', async (req) => {
    const page = pageOf(req.query.page);
    const { rows, total, expectedResponseCount } = await surveys.versions(req.params.id, req.auth.actor, page);
    return { versions: rows, expectedResponseCount, ...pagingReply(page, total) };
  });

  route(app, 'surveySettings', async (req) => ({ msg: 'Settings saved', ...(await surveys.setSettings(req.params.id, req.auth.actor, req.body, auditActor(req))) }));

  // The workbook is read in a thread of its own (xlsform-thread.ts): the zip reader and XML parser never load here.
  // Its JSON comes ready made and schema-checked from the thread: Fastify sends a JSON string as it is.
  route(app, 'importXlsform', async (req, reply) => {
    const { bytes, fileName, attachments } = await receiveXlsform(req);
    const json = await importXlsform(bytes, fileName, attachments, (message) => req.log.warn(message));
    return reply.type('application/json; charset=utf-8').send(json);
  });

  // Written in the XLSForm thread: a 100,000-choice list is seconds of exceljs.
  route(app, 'surveyXlsform', async (req, reply) => {
    const { title, sheets } = await surveys.xlsform(req.params.id, req.auth.actor);
    const bytes = await writeXlsform(sheets, (message) => req.log.warn(message));
    return reply.type(XLSX_MIME).header('content-disposition', attachmentName(title)).send(bytes);
  });

  route(app, 'largeDataset', async (req) => ({ options: await surveys.searchDataset(req.auth.actor, req.query) }));

  route(app, 'datasetExport', async (req) => surveys.exportDataset(req.auth.actor, req.query.survey_id, req.query.question));
}
