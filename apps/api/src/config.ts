import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './http/slow-clients.js';
import { BACKCHECK_SAMPLE_EVERY_MS } from './modules/backchecks/sampling.js';
import { DEFAULT_EXPORT_LIMITS, type ExportLimits } from './modules/insight/export-queue.js';
import { FLAG_POLL_MS } from './modules/flags/flag-worker.js';
import { DEFAULT_MAX_OFFLINE_AGE_DAYS } from './modules/responses/capture-window.js';
import { defaultPasswordPoolLimits, type PasswordPoolLimits } from './modules/accounts/password-pool.js';
import { MapLimits, MAX_UPLOAD_BYTES } from '@survey-bird/contracts';
import { DEFAULT_FILE_LINK_TTL_DAYS } from './modules/files/file-links.js';

/**
 * Unfinished resumable photo uploads are kept this long from their creation: a 10 MB photo takes
 * about 10 minutes at 2G's 16 KB/s, so 6 hours covers a long loss of signal in the field, and a
 * phone away longer resends that one photo from its first byte.
 */
export const RESUMABLE_EXPIRY_HOURS = 6;
/** Ten full-size photos (Limits.maxImageBytes, 10 MB) in unfinished uploads per user; the phone has two open at most. */
export const RESUMABLE_USER_MAX_MB = 100;

export interface S3Config {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

export type FileStoreKind = 'disk' | 'postgres' | 's3';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** unset: SQLite file in dataDir; postgres://...: PostgreSQL */
  databaseUrl: string | undefined;
  /** Empty until the app is built when it is kept in the database (DATABASE_URL without JWT_SECRET). */
  jwtSecret: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  /** scrypt cost; tests lower it explicitly, production keeps the OWASP figure. */
  scryptN: number;
  tokenTtlSeconds: number;
  seedDemo: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** Folder of the built PWA to serve, or undefined to serve none. */
  pwaDir: string | undefined;
  logLevel: string;
  rateLimit: { max: number; windowMs: number };
  /** Where the rate counters live when several processes must share them without the database. */
  redisUrl: string | undefined;
  /** Prefix of this deployment's Redis keys. */
  redisPrefix: string;
  /** false, true, or the proxy's addresses/CIDRs (comma-separated), as Fastify's trustProxy takes them. */
  trustProxy: boolean | string;
  /** SQLite `synchronous`: NORMAL survives a process crash in WAL mode, FULL also a power loss. */
  sqliteSynchronous: 'NORMAL' | 'FULL';
  /** On SIGTERM, how long in-flight requests may run before the process exits anyway. */
  shutdownGraceMs: number;
  /** How often the quality-flag worker looks at its queue (modules/flags/flag-worker.ts); FLAG_POLL_MS. */
  flagPollMs: number;
  /** How often the back-check sampler runs (modules/backchecks): BACKCHECK_SAMPLE_MS, default 5 minutes. */
  backcheckSampleMs: number;
  /** Where new photos' bytes go (modules/files/store). */
  fileStore: FileStoreKind;
  s3: S3Config | undefined;
  /**
   * The maps' raster tiles (MAP_TILE_URL, an XYZ template with {z}, {x} and {y}) and their credit
   * (MAP_ATTRIBUTION). Unset: no tiles are fetched from anywhere; the maps draw a plain grid.
   */
  mapTiles: { url: string; attribution: string } | undefined;
  /** The largest basemap upload in bytes (MapLimits.maxBasemapBytes; the tests lower it). */
  maxBasemapBytes: number;
  /** Password hashing's own threads and queue (PASSWORD_HASH_THREADS, PASSWORD_HASH_QUEUE). */
  passwordPool: PasswordPoolLimits;
  /** Slow-client limits (http/slow-clients.ts; docs/reliability.md lists the variables). */
  connections: ConnectionLimits;
  /** WEBHOOK_ALLOW_PRIVATE=true: webhooks may reach private, loopback and link-local addresses (tests, a closed network). */
  webhookAllowPrivate: boolean;
  /** Exports running at once and waiting (EXPORT_CONCURRENCY, EXPORT_QUEUE). */
  exports: ExportLimits;
  /** How long an unfinished resumable photo upload is kept (RESUMABLE_UPLOAD_EXPIRY_HOURS, default 6). */
  resumableExpiryMs: number;
  /** Bytes one user may hold in unfinished resumable uploads (RESUMABLE_UPLOAD_USER_MAX_MB, default 100; never under one photo). */
  resumableUserMaxBytes: number;
  /** How long a response may wait on a phone and still be taken by a closed survey (MAX_OFFLINE_AGE_DAYS, default 60; modules/responses/capture-window.ts). */
  maxOfflineAgeMs: number;
  /** How long a signed photo link in an export stays valid (FILE_LINK_TTL_DAYS, default 30; modules/files/file-links.ts). */
  fileLinkTtlDays: number;
  /** The key of signed photo links (FILE_LINK_SECRET); unset: derived from jwtSecret. */
  fileLinkSecret: string | undefined;
}

export const OWASP_SCRYPT_N = 2 ** 17;

export const newJwtSecret = (): string => randomBytes(48).toString('base64url');

/** The secret an earlier start generated into DATA_DIR, if any. */
export function fileJwtSecret(dataDir: string): string | undefined {
  const file = join(dataDir, 'jwt-secret');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

function loadOrCreateSecret(dataDir: string): string {
  const existing = fileJwtSecret(dataDir);
  if (existing) return existing;
  const secret = newJwtSecret();
  writeFileSync(join(dataDir, 'jwt-secret'), secret, { mode: 0o600 });
  return secret;
}

function parseS3(env: NodeJS.ProcessEnv): S3Config | undefined {
  if (!env.S3_BUCKET) return undefined;
  return {
    endpoint: env.S3_ENDPOINT || undefined,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
  };
}

/** FILE_STORE if set; else s3 when a bucket is configured, postgres with DATABASE_URL, disk otherwise. */
function parseFileStore(env: NodeJS.ProcessEnv, databaseUrl: string | undefined): FileStoreKind {
  const named = env.FILE_STORE;
  if (named === 'disk' || named === 'postgres' || named === 's3') return named;
  if (named) throw new Error(`FILE_STORE must be disk, postgres or s3, not "${named}"`);
  if (env.S3_BUCKET) return 's3';
  return databaseUrl ? 'postgres' : 'disk';
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (!value || value === 'false') return false;
  return value === 'true' ? true : value;
}

function passwordPoolFrom(env: NodeJS.ProcessEnv): PasswordPoolLimits {
  const defaults = defaultPasswordPoolLimits();
  const threads = Number(env.PASSWORD_HASH_THREADS) || defaults.threads;
  const queue = env.PASSWORD_HASH_QUEUE !== undefined && env.PASSWORD_HASH_QUEUE !== '' ? Number(env.PASSWORD_HASH_QUEUE) : 8 * threads;
  return { threads, queue: Number.isFinite(queue) ? queue : defaults.queue };
}

function connectionsFrom(env: NodeJS.ProcessEnv, behindProxy: boolean): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS;
  const num = (value: string | undefined, fallback: number) => (value !== undefined && value !== '' && Number.isFinite(Number(value)) ? Number(value) : fallback);
  return {
    headersMs: num(env.HEADERS_TIMEOUT_MS, d.headersMs),
    requestMs: num(env.REQUEST_TIMEOUT_MS, d.requestMs),
    uploadIdleMs: num(env.UPLOAD_IDLE_TIMEOUT_MS, d.uploadIdleMs),
    keepAliveMs: num(env.KEEP_ALIVE_TIMEOUT_MS, d.keepAliveMs),
    // Behind a proxy every connection comes from the proxy's address: the proxy caps per client.
    perIp: num(env.MAX_CONNECTIONS_PER_IP, behindProxy ? 0 : d.perIp),
  };
}

/** MAP_TILE_URL must be an http(s) template naming {z}, {x} and {y}: a typo fails at start, not as blank maps. */
function parseMapTiles(env: NodeJS.ProcessEnv): Config['mapTiles'] {
  const url = env.MAP_TILE_URL?.trim();
  if (!url) return undefined;
  if (!/^https?:\/\//.test(url) || !['{z}', '{x}', '{y}'].every((p) => url.includes(p))) {
    throw new Error('MAP_TILE_URL must be an http(s) URL with {z}, {x} and {y}, e.g. https://tile.example.org/{z}/{x}/{y}.png');
  }
  return { url, attribution: env.MAP_ATTRIBUTION?.trim() ?? '' };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const port = Number(env.PORT ?? 3000);
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    // Several instances share one PostgreSQL but not a DATA_DIR: there the secret lives in the database (app.ts).
    jwtSecret: env.JWT_SECRET || (databaseUrl ? '' : loadOrCreateSecret(dataDir)),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    scryptN: OWASP_SCRYPT_N,
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 60 * 60 * 24 * 30),
    seedDemo: env.SEED_DEMO !== 'false',
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    pwaDir: env.PWA_DIR,
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimit: { max: Number(env.RATE_LIMIT_MAX ?? 10), windowMs: 60_000 },
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || 'sb:',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS === 'FULL' ? 'FULL' : 'NORMAL',
    shutdownGraceMs: Number(env.SHUTDOWN_GRACE_MS ?? 30_000),
    flagPollMs: Number(env.FLAG_POLL_MS) > 0 ? Number(env.FLAG_POLL_MS) : FLAG_POLL_MS,
    backcheckSampleMs: Number(env.BACKCHECK_SAMPLE_MS) > 0 ? Number(env.BACKCHECK_SAMPLE_MS) : BACKCHECK_SAMPLE_EVERY_MS,
    fileStore: parseFileStore(env, databaseUrl),
    mapTiles: parseMapTiles(env),
    maxBasemapBytes: MapLimits.maxBasemapBytes,
    s3: parseS3(env),
    passwordPool: passwordPoolFrom(env),
    connections: connectionsFrom(env, parseTrustProxy(env.TRUST_PROXY) !== false),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
    exports: {
      concurrency: Math.max(1, Number(env.EXPORT_CONCURRENCY) || DEFAULT_EXPORT_LIMITS.concurrency),
      queue: Math.max(0, Number(env.EXPORT_QUEUE ?? DEFAULT_EXPORT_LIMITS.queue) || 0),
      clusterConcurrency: Number(env.EXPORT_CLUSTER_CONCURRENCY) > 0 ? Math.floor(Number(env.EXPORT_CLUSTER_CONCURRENCY)) : undefined,
    },
    resumableExpiryMs: (Number(env.RESUMABLE_UPLOAD_EXPIRY_HOURS) > 0 ? Number(env.RESUMABLE_UPLOAD_EXPIRY_HOURS) : RESUMABLE_EXPIRY_HOURS) * 3_600_000,
    resumableUserMaxBytes: Math.max(MAX_UPLOAD_BYTES, (Number(env.RESUMABLE_UPLOAD_USER_MAX_MB) > 0 ? Number(env.RESUMABLE_UPLOAD_USER_MAX_MB) : RESUMABLE_USER_MAX_MB) * 1024 * 1024),
    maxOfflineAgeMs: (Number(env.MAX_OFFLINE_AGE_DAYS) > 0 ? Number(env.MAX_OFFLINE_AGE_DAYS) : DEFAULT_MAX_OFFLINE_AGE_DAYS) * 86_400_000,
    fileLinkTtlDays: Number(env.FILE_LINK_TTL_DAYS) > 0 ? Number(env.FILE_LINK_TTL_DAYS) : DEFAULT_FILE_LINK_TTL_DAYS,
    fileLinkSecret: env.FILE_LINK_SECRET || undefined,
    ...overrides,
  };
}
