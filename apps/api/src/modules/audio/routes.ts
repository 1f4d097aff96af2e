import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';
import { auditActor } from '../audit/record.js';
import { AudioMsg } from './service.js';

export async function audioRoutes(app: FastifyInstance): Promise<void> {
  const { audio } = app.services;

  route(app, 'responseAudio', async (req, reply) => {
    const clip = await audio.clip(req.auth.actor, req.params.id);
    return reply.type(clip.mime).header('content-length', clip.size).header('cache-control', 'private, no-store').header('x-content-type-options', 'nosniff').send(clip.stream);
  });

  route(app, 'reviewAudio', async (req) => {
    const audioAudit = await audio.verdict(req.auth.actor, req.params.id, req.body, auditActor(req));
    return { msg: AudioMsg.saved[req.body.verdict], audioAudit };
  });
}
