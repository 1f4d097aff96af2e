import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './accounts/routes.js';
import { deviceRoutes } from './devices/routes.js';
import { earningsRoutes } from './earnings/routes.js';
import { flagRoutes } from './flags/routes.js';
import { insightRoutes } from './insight/routes.js';
import { fileRoutes } from './files/routes.js';
import { healthRoutes } from './health/routes.js';
import { responseIngestRoutes } from './responses/ingest-routes.js';
import { organizationRoutes } from './organizations/routes.js';
import { payoutRoutes } from './payouts/routes.js';
import { reviewRoutes } from './review/routes.js';
import { surveyRoutes } from './surveys/routes.js';
import { teamRoutes } from './teams/routes.js';

/** Every domain registers its routes here; each route comes from the contracts table. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(insightRoutes);
  await app.register(responseIngestRoutes);
  await app.register(fileRoutes);
  await app.register(organizationRoutes);
  await app.register(surveyRoutes);
  await app.register(reviewRoutes);
  await app.register(flagRoutes);
  await app.register(payoutRoutes);
  await app.register(earningsRoutes);
  await app.register(deviceRoutes);
  await app.register(teamRoutes);
}
