import type { FastifyInstance } from 'fastify';
import { pageOf } from '../../http/paging.js';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';
import { XLSX_MIME } from '../../lib/spreadsheet.js';

/** Erasure, the respondent search and the subject-access exports. */
export async function privacyRoutes(app: FastifyInstance): Promise<void> {
  const { privacy } = app.services;

  route(app, 'eraseResponse', async (req) => privacy.erase(req.auth.actor, req.params.id, req.body.reason, auditActor(req)));

  route(app, 'respondents', async (req) => privacy.respondents(req.auth.actor, req.query.search, pageOf(req.query.page).page));

  route(app, 'respondentExport', async (req, reply) => {
    const file = await privacy.respondentXlsx(req.auth.actor, req.query.search, auditActor(req));
    return reply.type(XLSX_MIME).header('content-disposition', `attachment; filename="respondent_${new Date().toISOString().slice(0, 10)}.xlsx"`).send(file);
  });

  route(app, 'myData', async (req) => privacy.myData(req.auth.user.id));
}
