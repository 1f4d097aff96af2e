/**
 * Data sets made by scripts/seed-scale.ts for the read and export benchmarks.
 * SQLite: a directory under the temp dir, removed when the run ends unless BENCH_KEEP_DATA=1 (then a
 * later run with the same shape reuses it: handy while tuning, never in CI).
 * PostgreSQL (BENCH_PG_URL, e.g. postgres://postgres@127.0.0.1:5432): a fresh database per data set,
 * dropped when the run ends; with BENCH_KEEP_DATA=1 it is kept under a fixed name and reused likewise.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { seedScale, type ScaleInfo } from '../seed-scale.js';

export interface ScaleData {
  engine: 'sqlite' | 'postgres';
  dataDir: string;
  /** Set on PostgreSQL. */
  databaseUrl?: string;
  sqliteFile?: string;
  info: ScaleInfo;
  seconds: number;
  /** Environment for startApi. */
  env: Record<string, string>;
}

const keep = process.env.BENCH_KEEP_DATA === '1';
const cache = new Map<string, Promise<ScaleData>>();
const cleanups: (() => Promise<void>)[] = [];

export function pgServerUrl(): string | undefined {
  return process.env.BENCH_PG_URL || undefined;
}

/** One data set per (engine, orgs, perOrg) per run; seeded on first use. */
export function scaleData(engine: 'sqlite' | 'postgres', orgs: number, perOrg: number): Promise<ScaleData> {
  const key = `${engine}-${orgs}x${perOrg}`;
  let p = cache.get(key);
  if (!p) {
    p = engine === 'sqlite' ? sqliteData(key, orgs, perOrg) : postgresData(key, orgs, perOrg);
    cache.set(key, p);
  }
  return p;
}

async function sqliteData(key: string, orgs: number, perOrg: number): Promise<ScaleData> {
  const dataDir = join(tmpdir(), `sb-bench-scale-${key}`);
  const infoFile = join(dataDir, 'scale-info.json');
  const file = join(dataDir, 'survey-bird.sqlite');
  if (!keep) cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (keep && existsSync(infoFile)) {
    const { info, seconds } = JSON.parse(readFileSync(infoFile, 'utf8')) as { info: ScaleInfo; seconds: number };
    return { engine: 'sqlite', dataDir, sqliteFile: file, info, seconds, env: { DATA_DIR: dataDir } };
  }
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const started = Date.now();
  const info = await seedScale({ dataDir, orgs, perOrg });
  const seconds = (Date.now() - started) / 1000;
  writeFileSync(infoFile, JSON.stringify({ info, seconds }));
  return { engine: 'sqlite', dataDir, sqliteFile: file, info, seconds, env: { DATA_DIR: dataDir } };
}

async function postgresData(key: string, orgs: number, perOrg: number): Promise<ScaleData> {
  const server = pgServerUrl();
  if (!server) throw new Error('BENCH_PG_URL is not set');
  const suffix = keep ? 'kept' : String(process.pid);
  const name = `sb_bench_${key.replace(/\W/g, '_')}_${suffix}`;
  const databaseUrl = `${server}/${name}`;
  const dataDir = join(tmpdir(), `sb-bench-scale-${key}-${suffix}`);
  const infoFile = join(dataDir, 'scale-info.json');
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    if (keep && existsSync(infoFile) && (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount) {
      const { info, seconds } = JSON.parse(readFileSync(infoFile, 'utf8')) as { info: ScaleInfo; seconds: number };
      return { engine: 'postgres', dataDir, databaseUrl, info, seconds, env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl } };
    }
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  if (!keep) {
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: `${server}/postgres` });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    });
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  }
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const started = Date.now();
  const info = await seedScale({ dataDir, databaseUrl, orgs, perOrg });
  const seconds = (Date.now() - started) / 1000;
  writeFileSync(infoFile, JSON.stringify({ info, seconds }));
  return { engine: 'postgres', dataDir, databaseUrl, info, seconds, env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl } };
}

/** Drops every data set this run made (run.ts calls it once at the end, also after a failure). */
export async function dropScaleData(): Promise<void> {
  while (cleanups.length) await cleanups.pop()!().catch((err: unknown) => console.error('cleanup failed:', err));
  cache.clear();
}
