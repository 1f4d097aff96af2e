import type { FastifyInstance } from 'fastify';
import { DeviceMsg } from '@survey-bird/contracts';
import { route } from '../../http/route.js';

export async function deviceRoutes(app: FastifyInstance): Promise<void> {
  const { devices } = app.services;

  route(app, 'reportDevice', async (req) => {
    await devices.report(req.auth.user.id, req.body);
    return { msg: DeviceMsg.saved };
  });

  route(app, 'supervisorSettings', async (req) => devices.supervisorSettings(req.auth.user.id));

  route(app, 'updateSupervisorSettings', async (req) => devices.updateSupervisorSettings(req.auth.user.id, req.body));
}
