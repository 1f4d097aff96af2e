import { createRequire } from 'node:module';
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import type Pg from 'pg';
import { cachedStatements } from './statement-cache.js';
import * as initial from './migrations/20261122000000_initial.js';
import * as responseSearch from './migrations/20261122120000_response_search.js';
import * as deferredSearchIndex from './migrations/20261124000000_deferred_search_index.js';
import * as datasetOptionsPrefix from './migrations/20261123000000_dataset_options_prefix.js';
import * as responseCounts from './migrations/20261125000000_response_counts.js';
import * as surveyIndexMember from './migrations/20261125120000_survey_index_member.js';
import * as rateCounters from './migrations/20261126300000_rate_counters.js';
import * as appSettings from './migrations/20261126600000_app_settings.js';
import * as fileStore from './migrations/20261126610000_file_store.js';
import * as leases from './migrations/20261127500000_leases.js';
import * as deviceStatus from './migrations/20261127510000_device_status.js';
import * as syncDigest from './migrations/20261128400000_sync_digest.js';
import * as photoQuality from './migrations/20261128500000_photo_quality.js';
import * as qualityFlags from './migrations/20261128200000_quality_flags.js';
import * as pendingPhotos from './migrations/20261128300000_pending_photos.js';
import * as searchGrams from './migrations/20261126500000_search_grams.js';
import * as reviewPayouts from './migrations/20261126400000_review_payouts.js';
import * as memberWithdrawn from './migrations/20261126310000_member_withdrawn.js';
import * as responseRevisions from './migrations/20261127200000_response_revisions.js';
import * as surveyVersions from './migrations/20261127400000_survey_versions.js';
import * as payoutItems from './migrations/20261128000000_payout_items.js';
import * as resumableUploads from './migrations/20261128510000_resumable_uploads.js';
import * as resumableClaims from './migrations/20261129100000_resumable_claims.js';
import * as searchGramsPostgres from './migrations/20261128600000_search_grams_postgres.js';
import * as dormantSupervisor from './migrations/20261129110000_dormant_supervisor.js';
import * as datasetOptionHistory from './migrations/20261129400000_dataset_option_history.js';
import * as revisedCaptureTime from './migrations/20261129410000_revised_capture_time.js';
import * as payoutRequestHash from './migrations/20261129420000_payout_request_hash.js';
import * as phoneSearchText from './migrations/20261129430000_phone_search_text.js';
import * as officeUsers from './migrations/20261130100000_office_users.js';
import * as auditEvents from './migrations/20261130200000_audit_events.js';
import * as memberEdits from './migrations/20261130210000_member_edits.js';
import * as bankChangeRequests from './migrations/20261130220000_bank_change_requests.js';
import * as surveyFormSettings from './migrations/20261130400000_survey_form_settings.js';
import * as responseChangeSeq from './migrations/20261130500000_response_change_seq.js';
import * as webhooks from './migrations/20261130510000_webhooks.js';
import * as maps from './migrations/20261130600000_maps.js';
import * as flagJobsQueueOrder from './migrations/20261130900000_flag_jobs_queue_order.js';
import * as backchecks from './migrations/20261201200000_backchecks.js';
import * as audioAudits from './migrations/20261201300000_audio_audits.js';
import * as personalData from './migrations/20261201400000_personal_data.js';
import * as apiTokens from './migrations/20261201700000_api_tokens.js';
import * as mailQueue from './migrations/20261201800000_mail_queue.js';
import * as userLanguage from './migrations/20261202010000_user_language.js';
import * as endToEnd from './migrations/20261202020000_end_to_end.js';
import type { Database } from './schema.js';
import { WriteWatch } from './write-watch.js';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  /** The raw better-sqlite3 handle, for hot paths that keep prepared statements (SQLite only). */
  sqlite: SQLite.Database | undefined;
  /** PostgreSQL schema in use when not the default one. */
  pgSchema: string | undefined;
  /** This process's writes per table, for caches of rows (write-watch.ts). */
  writes: WriteWatch;
  close(): Promise<void>;
}

export interface DbOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (tests give each file its own). */
  pgSchema?: string;
  sqliteFile?: string;
  sqliteSynchronous?: 'NORMAL' | 'FULL';
  onPoolError?: (err: Error) => void;
}

/** pg, loaded only for a PostgreSQL database: a SQLite server saves its ~6 MB of RSS. */
function loadPg(): typeof Pg {
  const pg = createRequire(import.meta.url)('pg') as typeof Pg;
  // COUNT(*) and bigint columns come back from pg as strings; every bigint here is an epoch-ms or a count.
  pg.types.setTypeParser(20, (v) => Number(v));
  return pg;
}

export function openDb(opts: DbOptions): Db {
  if (opts.databaseUrl?.startsWith('postgres')) {
    const pg = loadPg();
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    // Without a listener an idle client's dropped connection would crash the process.
    pool.on('error', (err) => opts.onPoolError?.(err));
    // The pool's listener covers idle clients only: a checked-out client whose backend dies between
    // two queries (pg_terminate_backend, a PostgreSQL restart) would emit an unhandled 'error' and
    // take the process down. Its next query fails instead (-> 503) and the pool discards it on release.
    pool.on('connect', (client) => client.on('error', (err) => opts.onPoolError?.(err)));
    const writes = new WriteWatch();
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [writes] });
    return { kysely, engine: 'postgres', sqlite: undefined, pgSchema: opts.pgSchema, writes, close: () => kysely.destroy() };
  }
  const file = opts.sqliteFile ?? join(opts.dataDir, 'survey-bird.sqlite');
  ownerOnly(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // SQLite gives the -wal and -shm files the database file's mode; older files are narrowed here.
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) chmodSync(file + suffix, 0o600);
  sqlite.pragma(`synchronous = ${opts.sqliteSynchronous ?? 'NORMAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const writes = new WriteWatch();
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(sqlite) }), plugins: [writes] });
  return { kysely, engine: 'sqlite', sqlite, pgSchema: undefined, writes, close: () => kysely.destroy() };
}

/** The database holds password hashes and personal data: readable by the server's user only. */
function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

const migrations: Record<string, Migration> = {
  '20261122000000_initial': initial,
  '20261122120000_response_search': responseSearch,
  '20261124000000_deferred_search_index': deferredSearchIndex,
  '20261123000000_dataset_options_prefix': datasetOptionsPrefix,
  '20261125000000_response_counts': responseCounts,
  '20261125120000_survey_index_member': surveyIndexMember,
  '20261126300000_rate_counters': rateCounters,
  '20261126310000_member_withdrawn': memberWithdrawn,
  '20261126600000_app_settings': appSettings,
  '20261126610000_file_store': fileStore,
  '20261126500000_search_grams': searchGrams,
  '20261126400000_review_payouts': reviewPayouts,
  '20261127500000_leases': leases,
  '20261127510000_device_status': deviceStatus,
  '20261128200000_quality_flags': qualityFlags,
  '20261128300000_pending_photos': pendingPhotos,
  '20261127200000_response_revisions': responseRevisions,
  '20261127400000_survey_versions': surveyVersions,
  '20261128000000_payout_items': payoutItems,
  '20261128400000_sync_digest': syncDigest,
  '20261128500000_photo_quality': photoQuality,
  '20261128510000_resumable_uploads': resumableUploads,
  '20261128600000_search_grams_postgres': searchGramsPostgres,
  '20261129100000_resumable_claims': resumableClaims,
  '20261129110000_dormant_supervisor': dormantSupervisor,
  '20261129400000_dataset_option_history': datasetOptionHistory,
  '20261129410000_revised_capture_time': revisedCaptureTime,
  '20261129420000_payout_request_hash': payoutRequestHash,
  '20261129430000_phone_search_text': phoneSearchText,
  '20261130100000_office_users': officeUsers,
  '20261130200000_audit_events': auditEvents,
  '20261130210000_member_edits': memberEdits,
  '20261130220000_bank_change_requests': bankChangeRequests,
  '20261130400000_survey_form_settings': surveyFormSettings,
  '20261130500000_response_change_seq': responseChangeSeq,
  '20261130510000_webhooks': webhooks,
  '20261130600000_maps': maps,
  '20261130900000_flag_jobs_queue_order': flagJobsQueueOrder,
  '20261201200000_backchecks': backchecks,
  '20261201300000_audio_audits': audioAudits,
  '20261201400000_personal_data': personalData,
  '20261201700000_api_tokens': apiTokens,
  '20261201800000_mail_queue': mailQueue,
  '20261202010000_user_language': userLanguage,
  '20261202020000_end_to_end': endToEnd,
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => migrations };

/** Every migration this build knows: /readyz is 503 until all of them have run. */
export const migrationNames = (): string[] => Object.keys(migrations);

/**
 * For the request path, once migrations have run: SQLite keeps statement journals and transient
 * indexes in memory (temp_store = MEMORY). An insert that fires a trigger (response_counts) inside
 * a multi-row transaction, as every batch and group commit is, opens a statement journal; in a temp
 * file that cost 7-9 of 34-40 µs per row in-process, and the batch endpoint gained 12-24% rows/s.
 * Migrations run before this, so a one-off statement over a whole table can still spill to disk.
 */
export function tuneForRequests(db: Db): void {
  db.sqlite?.pragma('temp_store = MEMORY');
}

/**
 * Runs the migrations not yet run; answers how many this call ran. Instances starting together
 * call it under `withStartupLock`, and Kysely's Migrator also takes an advisory lock and reads
 * what has run only once it holds it, so each migration runs exactly once.
 */
export async function migrateToLatest(db: Db): Promise<number> {
  // Kysely looks for its lock table across every schema unless told which one is ours.
  const migrator = new Migrator({ db: db.kysely, provider: migrationProvider, ...(db.pgSchema ? { migrationTableSchema: db.pgSchema } : {}) });
  // A rolling deploy restarts an older instance beside a database a newer one has migrated: every
  // migration it knows has run, and Kysely would refuse to start over the ones it does not know.
  if ((await migrator.getMigrations()).every((m) => m.executedAt)) return 0;
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    // Kysely's introspection reads every schema's tables before any migration runs; a schema
    // another client drops meanwhile fails that read with 3F000 (seen when test runs share a
    // database). Nothing has run then, so trying again is safe.
    if (!failed && attempt < 3 && (error as { code?: unknown } | undefined)?.code === '3F000') continue;
    if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
    return results?.filter((r) => r.status === 'Success').length ?? 0;
  }
}
