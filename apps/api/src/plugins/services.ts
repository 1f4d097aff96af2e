import { BackchecksService } from '../modules/backchecks/service.js';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from './deps.js';
import { AccountsService } from '../modules/accounts/service.js';
import { AuditService } from '../modules/audit/service.js';
import { DevicesService } from '../modules/devices/service.js';
import { EarningsService } from '../modules/earnings/service.js';
import { FileStores } from '../modules/files/store/index.js';
import { FlagsService } from '../modules/flags/service.js';
import { ResumableUploads } from '../modules/files/resumable.js';
import { AudioService } from '../modules/audio/service.js';
import { UploadService } from '../modules/files/upload-service.js';
import { InsightService } from '../modules/insight/service.js';
import { OfficeService } from '../modules/office/service.js';
import { MailQueue } from '../modules/mail/mail-queue.js';
import { MapsService } from '../modules/maps/service.js';
import { OrganizationsService } from '../modules/organizations/service.js';
import { PayoutsService } from '../modules/payouts/service.js';
import { PrivacyService } from '../modules/privacy/service.js';
import { IngestService } from '../modules/responses/ingest-service.js';
import { ReviewRepository } from '../modules/review/index.js';
import { ReviewService } from '../modules/review/service.js';
import { SurveysService } from '../modules/surveys/service.js';
import { BankChanges } from '../modules/teams/bank-changes.js';
import { BulkInvitations } from '../modules/teams/bulk.js';
import { PeopleService } from '../modules/teams/people.js';
import { TeamCopy } from '../modules/teams/team-copy.js';
import { TeamsService } from '../modules/teams/service.js';
import { registerTeamMails } from '../modules/teams/team-mails.js';
import { WebhooksService } from '../modules/webhooks/service.js';
import { TokensService } from '../modules/tokens/service.js';
import { ODataService } from '../modules/odata/service.js';

export interface Services {
  backchecks: BackchecksService;
  accounts: AccountsService;
  audit: AuditService;
  bankChanges: BankChanges;
  bulk: BulkInvitations;
  devices: DevicesService;
  earnings: EarningsService;
  flags: FlagsService;
  ingest: IngestService;
  insight: InsightService;
  /** Mails written with the change that makes them due, sent by the mail-queue job. */
  mailQueue: MailQueue;
  office: OfficeService;
  maps: MapsService;
  organizations: OrganizationsService;
  payouts: PayoutsService;
  privacy: PrivacyService;
  people: PeopleService;
  review: ReviewService;
  audio: AudioService;
  surveys: SurveysService;
  teams: TeamsService;
  teamCopy: TeamCopy;
  webhooks: WebhooksService;
  tokens: TokensService;
  odata: ODataService;
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
    const deps: Deps = { config: app.config, db: app.db, mailer: app.mailer, log: app.log, counters: app.counters };
    const ingest = new IngestService(app.db, app.config.maxOfflineAgeMs);
    const stores = new FileStores(app.config, app.db);
    app.addHook('onClose', async () => stores.close());
    const reviewLookup = new ReviewRepository(app.db.kysely);
    const flags = new FlagsService(deps, reviewLookup);
    const uploads = new UploadService(app.config, app.db, ingest, stores);
    const insight = new InsightService(deps, flags);
    const review = new ReviewService(deps, flags, insight);
    const audio = new AudioService(deps, ingest, stores, review);
    const resumable = new ResumableUploads(app.config, app.db, uploads, app.log, audio);
    app.addHook('onClose', async () => resumable.stop());
    const backchecks = new BackchecksService(deps, reviewLookup, (surveyId) => insight.personalKeysById(surveyId));
    const mailQueue = new MailQueue(deps);
    const teams = new TeamsService(deps, flags, backchecks);
    const people = new PeopleService(deps, mailQueue);
    registerTeamMails(deps, mailQueue);
    app.decorate('services', {
      accounts: new AccountsService(deps, (claims) => app.signToken(claims)),
      backchecks,
      audit: new AuditService(deps),
      devices: new DevicesService(deps),
      earnings: new EarningsService(deps),
      flags,
      ingest,
      insight,
      mailQueue,
      office: new OfficeService(deps),
      maps: new MapsService(app, stores),
      organizations: new OrganizationsService(deps),
      payouts: new PayoutsService(deps),
      privacy: new PrivacyService(deps, stores),
      people,
      bankChanges: new BankChanges(deps, people, mailQueue),
      review,
      audio,
      surveys: new SurveysService(deps, backchecks),
      teams,
      bulk: new BulkInvitations(deps, teams, mailQueue),
      teamCopy: new TeamCopy(deps, teams, mailQueue),
      webhooks: new WebhooksService(deps, insight),
      tokens: new TokensService(deps),
      odata: new ODataService(deps),
      uploads,
      resumable,
    });
  },
  { name: 'services', dependencies: ['context'] },
);
