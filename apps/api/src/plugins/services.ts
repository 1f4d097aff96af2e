import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AccountsService } from '../modules/accounts/service.js';
import { DevicesService } from '../modules/devices/service.js';
import { EarningsService } from '../modules/earnings/service.js';
import { FileStores } from '../modules/files/store/index.js';
import { FlagsService } from '../modules/flags/service.js';
import { ResumableUploads } from '../modules/files/resumable.js';
import { UploadService } from '../modules/files/upload-service.js';
import { InsightService } from '../modules/insight/service.js';
import { OrganizationsService } from '../modules/organizations/service.js';
import { PayoutsService } from '../modules/payouts/service.js';
import { IngestService } from '../modules/responses/ingest-service.js';
import { ReviewService } from '../modules/review/service.js';
import { SurveysService } from '../modules/surveys/service.js';
import { TeamsService } from '../modules/teams/service.js';

export interface Services {
  accounts: AccountsService;
  devices: DevicesService;
  earnings: EarningsService;
  flags: FlagsService;
  ingest: IngestService;
  insight: InsightService;
  organizations: OrganizationsService;
  payouts: PayoutsService;
  review: ReviewService;
  surveys: SurveysService;
  teams: TeamsService;
  uploads: UploadService;
  resumable: ResumableUploads;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every domain's service, built once: handlers call these, never a repository. */
    services: Services;
  }
}

/**
 * Builds each service once, after the context and auth plugins, so every route module and every
 * service shares one instance and its caches (the ingest service's member and survey caches were
 * once built twice, by the ingest and the upload routes).
 */
export default fp(
  async function services(app: FastifyInstance) {
    const ingest = new IngestService(app.db, app.config.maxOfflineAgeMs);
    const stores = new FileStores(app.config, app.db);
    app.addHook('onClose', async () => stores.close());
    const flags = new FlagsService(app);
    const uploads = new UploadService(app.config, app.db, ingest, stores);
    const insight = new InsightService(app, flags);
    const resumable = new ResumableUploads(app.config, app.db, uploads, app.log);
    app.addHook('onClose', async () => resumable.stop());
    app.decorate('services', {
      accounts: new AccountsService(app),
      devices: new DevicesService(app),
      earnings: new EarningsService(app),
      flags,
      ingest,
      insight,
      organizations: new OrganizationsService(app),
      payouts: new PayoutsService(app),
      review: new ReviewService(app, flags, insight),
      surveys: new SurveysService(app),
      teams: new TeamsService(app, flags),
      uploads,
      resumable,
    });
  },
  { name: 'services', dependencies: ['context'] },
);
