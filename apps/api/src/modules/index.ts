import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './accounts/routes.js';
import { audioRoutes } from './audio/routes.js';
import { auditRoutes } from './audit/routes.js';
import { backcheckRoutes } from './backchecks/routes.js';
import { deviceRoutes } from './devices/routes.js';
import { earningsRoutes } from './earnings/routes.js';
import { flagRoutes } from './flags/routes.js';
import { insightRoutes } from './insight/routes.js';
import { fileRoutes } from './files/routes.js';
import { healthRoutes } from './health/routes.js';
import { mapRoutes } from './maps/routes.js';
import { responseIngestRoutes } from './responses/ingest-routes.js';
import { officeRoutes } from './office/routes.js';
import { organizationRoutes } from './organizations/routes.js';
import { payoutRoutes } from './payouts/routes.js';
import { privacyRoutes } from './privacy/routes.js';
import { reviewRoutes } from './review/routes.js';
import { surveyRoutes } from './surveys/routes.js';
import { teamRoutes } from './teams/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { tokenRoutes } from './tokens/routes.js';
import { odataRoutes } from './odata/routes.js';

/** Every domain registers its routes here; each route comes from the contracts table. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(insightRoutes);
  await app.register(responseIngestRoutes);
  await app.register(fileRoutes);
  await app.register(organizationRoutes);
  await app.register(officeRoutes);
  await app.register(surveyRoutes);
  await app.register(reviewRoutes);
  await app.register(audioRoutes);
  await app.register(flagRoutes);
  await app.register(payoutRoutes);
  await app.register(earningsRoutes);
  await app.register(deviceRoutes);
  await app.register(teamRoutes);
  await app.register(webhookRoutes);
  await app.register(tokenRoutes);
  await app.register(odataRoutes);
  await app.register(auditRoutes);
  await app.register(mapRoutes);
  await app.register(privacyRoutes);
  await app.register(backcheckRoutes);
}
