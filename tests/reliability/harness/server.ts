import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

import { freePort, rssMb, spawnServer, stopProcess, waitUntilUp } from '../../support/server-process.ts';

export { ROOT, SERVER_JS, freePort, rssMb } from '../../support/server-process.ts';

/** RELIABILITY_FULL=1: the long local profile; otherwise the quick one CI runs. */
export const FULL = process.env.RELIABILITY_FULL === '1';
export const PG_BASE = (process.env.RELIABILITY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');

export type Engine = 'sqlite' | 'postgres';
export const ENGINES: Engine[] = process.env.RELIABILITY_ENGINES ? (process.env.RELIABILITY_ENGINES.split(',') as Engine[]) : ['sqlite', 'postgres'];

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Prints a figure line the report and docs/reliability.md quote. */
export function figure(item: string, text: string): void {
  console.log(`[reliability] ${item}: ${text}`);
}

export function tempDataDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `sb-rel-${tag}-`));
}

/** A fresh PostgreSQL database for one run; the API runs its migrations into it on start. */
export interface PgDatabase {
  name: string;
  url: string;
  /** A connection to the maintenance database (for pg_terminate_backend and the like). */
  admin(): pg.Client;
  drop(): Promise<void>;
}

export async function createPgDatabase(): Promise<PgDatabase> {
  const name = `sb_rel_${randomBytes(6).toString('hex')}`;
  const adminUrl = `${PG_BASE}/test`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`create database ${name}`);
  } finally {
    await c.end();
  }
  return {
    name,
    url: `${PG_BASE}/${name}`,
    admin: () => new pg.Client({ connectionString: adminUrl }),
    drop: async () => {
      const d = new pg.Client({ connectionString: adminUrl });
      await d.connect();
      try {
        await d.query(`drop database if exists ${name} with (force)`);
      } finally {
        await d.end();
      }
    },
  };
}

export interface ApiOptions {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
}

/**
 * The real server (`node apps/api/dist/server.js`) as a child process on 127.0.0.1. The port is
 * kept across restarts so a restarted server answers at the same address.
 */
export class ApiProcess {
  proc: ChildProcess | undefined;
  port = 0;
  stderr = '';
  exits: { code: number | null; signal: NodeJS.Signals | null }[] = [];

  constructor(readonly opts: ApiOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.proc!.pid!;
  }

  get alive(): boolean {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  async start(timeoutMs = 60_000): Promise<void> {
    if (!this.port) this.port = await freePort();
    this.stderr = '';
    const proc = spawnServer({
      port: this.port,
      env: { DATA_DIR: this.opts.dataDir, DATABASE_URL: this.opts.databaseUrl ?? '', SEED_DEMO: 'true', RATE_LIMIT_MAX: '100000000', PWA_DIR: '/nonexistent', SMTP_URL: '', ...this.opts.env },
    });
    this.proc = proc;
    // The log (pino, on stdout) and stderr, kept for the failure messages.
    const keep = (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-50_000);
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    proc.once('exit', (code, signal) => this.exits.push({ code, signal }));
    await waitUntilUp(`${this.url}/api/v1/user`, { child: proc, timeoutMs, log: () => this.stderr });
  }

  /** SIGKILL: no shutdown hooks, no flush; what a power cut is to the process (not to the disk). */
  async kill9(): Promise<void> {
    if (!this.alive) return;
    const proc = this.proc!;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    if (this.proc) await stopProcess(this.proc);
  }

  /** The error lines of the API's log (pino level 50+), for failure messages. */
  errorLog(): string {
    return this.stderr
      .split('\n')
      .filter((l) => /"level":(5|6)\d/.test(l) || (l.trim() && !l.startsWith('{') && !l.startsWith(' ')))
      .slice(-20)
      .join('\n');
  }

  rss(): number {
    return rssMb(this.pid);
  }
}

export interface DemoLogin {
  role: string;
  email: string;
  password: string;
}

export function demoLogins(dataDir: string): DemoLogin[] {
  return JSON.parse(readFileSync(join(dataDir, 'demo-logins.json'), 'utf8')) as DemoLogin[];
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
