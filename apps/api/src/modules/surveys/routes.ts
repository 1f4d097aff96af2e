import type { FastifyInstance } from 'fastify';
import { ApiMsg, Msg } from '@survey-bird/contracts';
import { pageOf, pagingReply } from '../../http/paging.js';
import { route } from '../../http/route.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { Caller } from './repository.js';
import { importXlsform } from './xlsform-thread.js';
import { receiveXlsform } from './xlsform-upload.js';

export function callerOf({ user, organizationId }: AuthContext): Caller {
  return { role: user.role, userId: user.id, email: user.email, organizationId };
}

export async function surveyRoutes(app: FastifyInstance): Promise<void> {
  const { surveys } = app.services;

  route(app, 'createSurvey', async (req) => ({ msg: Msg.surveyPublished, survey: await surveys.create(req.auth.organizationId, req.body) }));

  for (const name of ['organizationSurveys', 'fieldUserSurveys', 'supervisorSurveys'] as const) {
    route(app, name, async (req) => {
      const page = pageOf(req.query.page);
      const { rows, total } = await surveys.list(callerOf(req.auth), page, req.query.searchQuery);
      return { survey: rows, ...pagingReply(page, total) };
    });
  }

  route(app, 'updateSurvey', async (req) => ({ msg: ApiMsg.newVersionPublished, survey: await surveys.update(req.params.id, req.auth.organizationId, req.body) }));

  route(app, 'surveyVersions', async (req) => {
    const page = pageOf(req.query.page);
    const { rows, total } = await surveys.versions(req.params.id, req.auth.organizationId, page);
    return { versions: rows, ...pagingReply(page, total) };
  });

  route(app, 'surveySettings', async (req) => ({ msg: 'Settings saved', ...(await surveys.setSettings(req.params.id, req.auth.organizationId, req.body)) }));

  // The workbook is read in a thread of its own (xlsform-thread.ts): the zip reader and XML parser never load here.
  // Its JSON comes ready made and schema-checked from the thread: Fastify sends a JSON string as it is.
  route(app, 'importXlsform', async (req, reply) => {
    const [bytes, fileName] = await receiveXlsform(req);
    const json = await importXlsform(bytes, fileName, (message) => req.log.warn(message));
    return reply.type('application/json; charset=utf-8').send(json);
  });

  route(app, 'largeDataset', async (req) => ({ options: await surveys.searchDataset(callerOf(req.auth), req.query) }));

  route(app, 'datasetExport', async (req) => surveys.exportDataset(callerOf(req.auth), req.query.survey_id, req.query.question));
}
