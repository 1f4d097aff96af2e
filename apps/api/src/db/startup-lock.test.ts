import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { runStartupTasks } from '../startup.js';
import { migrateToLatest, migrationNames, openDb, type Db } from './database.js';
import { withStartupLock } from './startup-lock.js';

const url = process.env.TEST_DATABASE_URL;
const INSTANCES = 3;

describe.skipIf(!url)('several instances starting together on one PostgreSQL', () => {
  const schema = `t_start_${Date.now().toString(36)}`;
  const dirs = Array.from({ length: INSTANCES }, () => mkdtempSync(join(tmpdir(), 'sb-start-')));
  const dbs: Db[] = [];
  const admin = () => new pg.Client({ connectionString: url });

  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('run each migration once, and seed the demo once', async () => {
    const client = admin();
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    for (const dir of dirs) dbs.push(openDb({ dataDir: dir, databaseUrl: url, pgSchema: schema }));

    const ran = await Promise.all(dbs.map((db) => withStartupLock(db, () => migrateToLatest(db))));
    expect(ran.reduce((a, b) => a + b, 0)).toBe(migrationNames().length);
    expect(ran.filter((n) => n > 0)).toHaveLength(1);

    const apps = await Promise.all(dbs.map((db, i) => buildApp(loadConfig({}, {
      dataDir: dirs[i]!, databaseUrl: url, jwtSecret: 'x'.repeat(48), scryptN: 2 ** 10, seedDemo: true, logLevel: 'silent', pwaDir: undefined,
    }), { db, logger: false })));
    const logins = await Promise.all(apps.map((app) => runStartupTasks(app)));
    expect(logins.filter((l) => l !== null)).toHaveLength(1);
    const orgs = await dbs[0]!.kysely.selectFrom('organizations').select('id').execute();
    expect(orgs).toHaveLength(1);
    const applied = await dbs[0]!.kysely.selectFrom('kysely_migration' as never).select('name' as never).execute();
    expect(applied).toHaveLength(migrationNames().length);
    await Promise.all(apps.map((app) => app.close()));
  });
});

describe('the start-up lock on SQLite', () => {
  it('just runs the work: one process owns the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-start-'));
    const db = openDb({ dataDir: dir, databaseUrl: undefined });
    expect(await withStartupLock(db, () => migrateToLatest(db))).toBe(migrationNames().length);
    expect(await withStartupLock(db, () => migrateToLatest(db))).toBe(0);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('an older instance beside a database a newer release has migrated (rolling deploy)', () => {
  it('starts: it runs nothing and does not trip over the migration it does not know', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-start-'));
    const db = openDb({ dataDir: dir, databaseUrl: undefined });
    await migrateToLatest(db);
    await db.kysely.insertInto('kysely_migration' as never).values({ name: '29991231000000_from_a_newer_release', timestamp: new Date().toISOString() }).execute();
    expect(await migrateToLatest(db)).toBe(0);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
