import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';
import { XLSX_MIME } from '../../lib/spreadsheet.js';

export async function backcheckRoutes(app: FastifyInstance): Promise<void> {
  const { backchecks } = app.services;

  route(app, 'backcheckForm', async (req) => ({ msg: 'Back-check form published', form: await backchecks.publishForm(req.params.id, req.auth.actor, req.body, auditActor(req)) }));

  route(app, 'surveyBackchecks', async (req) => backchecks.overview(req.params.id, req.auth.actor, req.query.page));

  route(app, 'backcheckExport', async (req, reply) => {
    const { file } = await backchecks.xlsx(req.params.id, req.auth.actor, auditActor(req));
    return reply.type(XLSX_MIME).header('content-disposition', `attachment; filename="backchecks_${new Date().toISOString().slice(0, 10)}.xlsx"`).send(file);
  });

  route(app, 'responseBackcheck', async (req) => backchecks.ofResponse(req.auth.actor, req.params.id));

  route(app, 'myBackchecks', async (req) => backchecks.mine(req.auth.user.id, req.query.page));
}
