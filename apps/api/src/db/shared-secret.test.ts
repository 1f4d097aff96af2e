import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { Role } from '@survey-bird/contracts';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createUser, login } from '../../test/helpers.js';
import { openDb } from './database.js';

const url = process.env.TEST_DATABASE_URL || undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Instances with their own DATA_DIR on one database, none given JWT_SECRET (as loadConfig leaves it with DATABASE_URL). */
async function instances(n: number, prepare: (dataDir: string, i: number) => void = () => undefined): Promise<FastifyInstance[]> {
  const shared = mkdtempSync(join(tmpdir(), 'sb-secret-'));
  cleanups.push(() => rmSync(shared, { recursive: true, force: true }));
  let schema: string | undefined;
  if (url) {
    schema = `t_secret_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    });
  }
  const apps: FastifyInstance[] = [];
  for (let i = 0; i < n; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-secret-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    prepare(dataDir, i);
    const db = openDb({ dataDir, databaseUrl: url, pgSchema: schema, sqliteFile: join(shared, 'shared.sqlite') });
    const config = loadConfig({}, { dataDir, databaseUrl: url, jwtSecret: '', scryptN: 2 ** 10, seedDemo: false, logLevel: 'silent', pwaDir: undefined });
    const app = await buildApp(config, { db, logger: false });
    cleanups.push(() => app.close());
    apps.push(app);
  }
  return apps;
}

describe('one JWT secret for every instance on one database', () => {
  it('loadConfig with DATABASE_URL and no JWT_SECRET writes no secret into DATA_DIR', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-secret-'));
    const config = loadConfig({ DATABASE_URL: 'postgres://nowhere/db' }, { dataDir });
    expect(config.jwtSecret).toBe('');
    expect(existsSync(join(dataDir, 'jwt-secret'))).toBe(false);
    expect(loadConfig({}, { dataDir }).jwtSecret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a token signed by one instance is accepted by the other', async () => {
    const [a, b] = await instances(2);
    await createUser(a!, 'owner@shared.ng', Role.organization);
    const token = await login(a!, 'owner@shared.ng');
    const res = await b!.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(a!.config.jwtSecret).toBe(b!.config.jwtSecret);
    expect(a!.config.jwtSecret.length).toBeGreaterThanOrEqual(64);
  });

  it("keeps the secret an earlier start generated into the first instance's DATA_DIR, so its sessions stay valid", async () => {
    const earlier = 'earlier-secret-'.padEnd(64, 'e');
    const [a, b] = await instances(2, (dataDir, i) => {
      if (i === 0) writeFileSync(join(dataDir, 'jwt-secret'), earlier);
    });
    expect(a!.config.jwtSecret).toBe(earlier);
    expect(b!.config.jwtSecret).toBe(earlier);
  });
});
