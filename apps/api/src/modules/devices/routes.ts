import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.js';

export async function deviceRoutes(app: FastifyInstance): Promise<void> {
  const { devices } = app.services;

  route(app, 'reportDevice', async (req) => {
    await devices.report(req.auth.user.id, req.body);
    return { msg: 'Device status saved' };
  });
}
