import type { FastifyInstance } from 'fastify';
import { SYNC_DIGEST_EVERY_MS, SyncDigest } from '../modules/devices/sync-digest.js';
import { DIGEST_EVERY_MS, ReturnDigest } from '../modules/earnings/return-digest.js';
import { CLEAN_UP_EVERY_MS } from '../modules/files/resumable.js';
import { FLAG_POLL_MS } from '../modules/flags/flag-worker.js';
import { MAIL_QUEUE_POLL_MS } from '../modules/mail/mail-queue.js';
import { SearchIndexer } from '../modules/insight/search-indexer.js';
import { WEBHOOK_POLL_MS } from '../modules/webhooks/service.js';
import { RETENTION_EVERY_MS } from '../modules/privacy/service.js';
import type { PeriodicJob } from './periodic.js';

/** A worker that paces itself (its next tick depends on the backlog): started and stopped as is. */
export interface PacedJob {
  name: string;
  /** Its period when idle. */
  everyMs: number;
  start(): void;
  stop(): Promise<void> | void;
}

/** Work at start (awaited, or in the background) and at close. */
export interface OnceJob {
  name: string;
  atStart?: () => Promise<unknown>;
  inBackground?: () => Promise<unknown>;
  atClose?: () => Promise<unknown>;
}

export type Job = ({ kind: 'periodic' } & PeriodicJob) | ({ kind: 'paced' } & PacedJob) | ({ kind: 'once' } & OnceJob);

/** The search index's idle period (search-indexer.ts start). */
const SEARCH_INDEX_EVERY_MS = 250;

/**
 * Every background job of the server, in start order; plugins/jobs.ts starts them and stops them
 * on close (in reverse order). None of the periodic jobs takes a lock: each digest claims its rows
 * insert-or-nothing, the flag worker's jobs are rows taken one by one, the expiry sweep is safe to
 * run twice.
 */
export function jobTable(app: FastifyInstance, searchIndexer: SearchIndexer | null): Job[] {
  const { flags, uploads, resumable, webhooks, mailQueue, privacy, backchecks } = app.services;
  const returnDigest = new ReturnDigest(app.db.kysely, app.mailer);
  const syncDigest = new SyncDigest(app.db.kysely, app.mailer, app.config.publicUrl);
  const jobs: Job[] = [];
  if (searchIndexer) jobs.push({ kind: 'paced', name: 'search index', everyMs: SEARCH_INDEX_EVERY_MS, start: () => searchIndexer.start(SEARCH_INDEX_EVERY_MS), stop: () => searchIndexer.stop() });
  jobs.push(
    // On shutdown no upload is live: a temp file left by a connection cut mid-body can go at once.
    { kind: 'once', name: 'temp file sweep', atStart: () => uploads.sweepTemps(), atClose: () => uploads.sweepTemps(Number.POSITIVE_INFINITY) },
    // In the background: a large uploads folder must not delay the start.
    { kind: 'once', name: 'orphan photo sweep', inBackground: () => uploads.sweepOrphans() },
    { kind: 'periodic', name: 'resumable upload expiry', everyMs: CLEAN_UP_EVERY_MS, atStart: true, run: () => resumable.cleanUp() },
    { kind: 'paced', name: 'flag check', everyMs: FLAG_POLL_MS, start: () => flags.worker.start(), stop: () => flags.worker.stop() },
    { kind: 'periodic', name: 'return digest', everyMs: DIGEST_EVERY_MS, run: () => returnDigest.run() },
    { kind: 'periodic', name: 'sync digest', everyMs: SYNC_DIGEST_EVERY_MS, run: () => syncDigest.run() },
    // Each delivery is claimed row by row (webhooks/service.ts deliverDue): no lock needed.
    { kind: 'periodic', name: 'webhook deliveries', everyMs: WEBHOOK_POLL_MS, run: () => webhooks.deliverDue() },
    // Each queued mail is claimed row by row too; at start, so mails a stopped server left go out.
    { kind: 'periodic', name: 'mail queue', everyMs: MAIL_QUEUE_POLL_MS, atStart: true, run: () => mailQueue.sendDue() },
    // Daily; each survey's warning is claimed by a conditional update and erasure is idempotent, so two instances may both run it.
    { kind: 'periodic', name: 'personal data retention', everyMs: RETENTION_EVERY_MS, run: () => privacy.retention() },
    // A selection is one row per response (unique response_id) and an assignment a conditional UPDATE: two instances never pick twice.
    { kind: 'periodic', name: 'back-check sampling', everyMs: app.config.backcheckSampleMs, run: () => backchecks.sampleAll() },
  );
  return jobs;
}
