import type { FastifyInstance } from 'fastify';
import { PayoutMsg } from '@survey-bird/contracts';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';
import { XLSX_MIME } from '../../lib/spreadsheet.js';
import { CSV_MIME, payoutFileName, transfersCsv } from './download.js';

export async function payoutRoutes(app: FastifyInstance): Promise<void> {
  const { payouts } = app.services;

  route(app, 'createPayout', async (req) => payouts.create(req.auth.actor, req.body, auditActor(req)));

  route(app, 'markPayoutPaid', async (req) => ({ msg: PayoutMsg.paid, payout: await payouts.markPaid(req.auth.actor, req.params.id, req.body.reference, auditActor(req)) }));

  route(app, 'cancelPayout', async (req) => ({ msg: PayoutMsg.cancelled, payout: await payouts.cancel(req.auth.actor, req.params.id, auditActor(req)) }));

  route(app, 'payouts', async (req) => payouts.list(req.auth.actor, req.query.survey_id, req.query.page));

  route(app, 'payoutHolds', async (req) => payouts.holds(req.auth.actor, req.query.survey_id));

  route(app, 'payout', async (req) => payouts.detail(req.auth.actor, req.params.id));

  route(app, 'payoutDownload', async (req, reply) => {
    const { format, part } = req.query;
    const { detail, title } = await payouts.forDownload(req.auth.actor, req.params.id, part === 'responses' ? `${format}:responses` : format, auditActor(req));
    if (format === 'csv') {
      const body = part === 'responses' ? payouts.responsesCsv(detail._id) : transfersCsv(title, detail);
      return reply.type(CSV_MIME).header('content-disposition', payoutFileName(title, detail, part === 'responses' ? 'responses.csv' : 'csv')).send(body);
    }
    return reply.type(XLSX_MIME).header('content-disposition', payoutFileName(title, detail, 'xlsx')).send(payouts.xlsx(title, detail));
  });
}
