import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';
import { XLSX_MIME } from '../../lib/spreadsheet.js';
import { auditActor } from './record.js';

export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const { audit } = app.services;

  route(app, 'audit', async (req) => audit.list(req.auth.actor.organizationId, req.query));

  route(app, 'auditExport', async (req, reply) => {
    const file = await audit.xlsx(req.auth.actor.organizationId, req.query, auditActor(req));
    return reply.type(XLSX_MIME).header('content-disposition', `attachment; filename="audit_${new Date().toISOString().slice(0, 10)}.xlsx"`).send(file);
  });
}
