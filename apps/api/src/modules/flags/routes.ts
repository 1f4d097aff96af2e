import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';

/** Quality flags: the dismiss route (the worker that computes them runs from plugins/jobs.ts). */
export async function flagRoutes(app: FastifyInstance): Promise<void> {
  const { flags } = app.services;

  route(app, 'dismissFlag', async (req) => flags.dismiss(req.auth.actor, req.params.id, req.params.flag, req.body.note, auditActor(req)));
}
