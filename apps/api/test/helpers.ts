import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDb } from '../src/db/database.js';
import { AccountsRepository } from '../src/modules/accounts/repository.js';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  engine: 'sqlite' | 'postgres';
  close(): Promise<void>;
}

/**
 * Boots the real app on a fresh database: a new SQLite file, or a new PostgreSQL schema when
 * TEST_DATABASE_URL is set. Only the scrypt cost and the rate limit are lowered, explicitly.
 */
export async function buildTestApp(overrides: Partial<Config> = {}, buildOptions: Omit<BuildOptions, 'db'> = {}): Promise<TestApp> {
  const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
  const schema = databaseUrl ? await pgSchema(databaseUrl, 'create') : undefined;
  const t = await bootApp(databaseUrl, schema, overrides, buildOptions);
  return {
    ...t,
    async close() {
      await t.close();
      if (schema && databaseUrl) await pgSchema(databaseUrl, 'drop', schema);
    },
  };
}

/**
 * `count` instances of the app on one fresh PostgreSQL schema (TEST_DATABASE_URL), each with its
 * own DATA_DIR, as several API processes behind a load balancer. PostgreSQL only.
 */
export async function buildTestInstances(count: number, overrides: Partial<Config> = {}): Promise<{ instances: TestApp[]; close(): Promise<void> }> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('several instances share a PostgreSQL database: set TEST_DATABASE_URL');
  const schema = await pgSchema(databaseUrl, 'create');
  const instances: TestApp[] = [];
  for (let i = 0; i < count; i++) instances.push(await bootApp(databaseUrl, schema, overrides, {}));
  return {
    instances,
    async close() {
      for (const t of instances) await t.close();
      await pgSchema(databaseUrl, 'drop', schema);
    },
  };
}

async function pgSchema(databaseUrl: string, action: 'create' | 'drop', name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(action === 'create' ? `create schema ${name}` : `drop schema ${name} cascade`);
  await client.end();
  return name;
}

/** One app on its own DATA_DIR; close() removes the folder, not the database. */
async function bootApp(databaseUrl: string | undefined, schema: string | undefined, overrides: Partial<Config>, buildOptions: Omit<BuildOptions, 'db'>): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-test-'));
  const config = loadConfig({}, {
    dataDir,
    databaseUrl,
    jwtSecret: 'test-secret-'.padEnd(48, 'x'),
    publicUrl: 'http://sb.test',
    scryptN: 2 ** 10,
    seedDemo: false,
    logLevel: 'silent',
    pwaDir: undefined,
    rateLimit: { max: 1000, windowMs: 60_000 },
    ...overrides,
  });
  const db = openDb({ dataDir, databaseUrl, pgSchema: schema });
  const app = await buildApp(config, { db, logger: false, ...buildOptions });
  await app.ready();
  return {
    app,
    config,
    engine: db.engine,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const PASSWORD = 'correct horse battery';

/** A verified account of any role, created the way an admin tool would, and signed in for real. */
export async function createUser(app: FastifyInstance, email: string, role: string, opts: { verified?: boolean; password?: string; fullName?: string } = {}) {
  const { hashPassword } = await import('../src/modules/accounts/passwords.js');
  const user = await new AccountsRepository(app.db.kysely).createUser({ email, role, verified: opts.verified ?? true, passwordHash: await hashPassword(opts.password ?? PASSWORD, app.config.scryptN), fullName: opts.fullName ?? null });
  return user;
}

export async function login(app: FastifyInstance, email: string, password = PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed for ${email}: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

/** app.inject with a bearer token. */
export function call(app: FastifyInstance, token: string | null, opts: InjectOptions) {
  return app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
}

export async function lastMail(app: FastifyInstance, to: string) {
  // Some mails are sent after the reply (Mailer.later).
  await app.mailer.idle();
  return app.db.kysely.selectFrom('mail_outbox').selectAll().where('to_email', '=', to).orderBy('created_at', 'desc').orderBy('id').executeTakeFirst();
}

export function tokenFromLink(link: string | null | undefined): string {
  if (!link) throw new Error('no link in mail');
  const url = new URL(link);
  return url.searchParams.get('token') ?? url.pathname.split('/').pop()!;
}
