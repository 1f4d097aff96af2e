import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SERVER_JS, freePort, spawnServer, stopProcess, waitUntilUp } from '../../tests/support/server-process.ts';

export { ROOT } from '../../tests/support/server-process.ts';
export const QUICK = process.env.BENCH_MODE !== 'full';

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

export { freePort, rssMb } from '../../tests/support/server-process.ts';

export interface Server {
  url: string;
  pid: number;
  proc: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts a node script as a child with its own port; resolves once `probe` answers. */
export async function startProcess(script: string, env: Record<string, string>, probe: string): Promise<Server> {
  const port = await freePort();
  const ownDir = env.DATA_DIR === undefined;
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'sb-bench-'));
  // BENCH_NODE_ARGS: flags for the servers' node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a run's time goes.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const proc = spawnServer({ port, script, nodeArgs, env: { DATA_DIR: dataDir, RATE_LIMIT_MAX: '100000000', ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url + probe, { child: proc });
  return {
    url,
    pid: proc.pid!,
    proc,
    dataDir,
    stop: async () => {
      await stopProcess(proc);
      // A data directory made here goes with its server (a bench run made dozens).
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function startApi(env: Record<string, string> = {}): Promise<Server> {
  return startProcess(SERVER_JS, { PWA_DIR: '/nonexistent', ...env }, '/api/v1/user');
}

export interface LoadResult {
  rps: number;
  p99: number;
  p50: number;
  errors: number;
  non2xx: number;
  /** Requests answered 2xx. */
  ok: number;
}

export async function load(opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon({ connections: 32, duration: QUICK ? 2 : 10, ...opts });
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, errors: r.errors + r.timeouts, non2xx: r.non2xx, ok: r['2xx'] };
}

/** A B A B ... for `rounds`, so drift on a noisy machine hits both sides alike. */
export async function alternate<T>(rounds: number, a: () => Promise<T>, b: () => Promise<T>): Promise<{ a: T[]; b: T[] }> {
  const out = { a: [] as T[], b: [] as T[] };
  for (let i = 0; i < rounds; i++) {
    out.a.push(await a());
    out.b.push(await b());
  }
  return out;
}

export async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export async function loginToken(base: string, email: string, password: string): Promise<string> {
  const r = await json<{ token: string }>(`${base}/api/v1/user/login`, { method: 'POST', body: JSON.stringify({ email, password }) });
  return r.token;
}

/** Times `fn` n times; returns the durations in ms. */
export async function timeMany(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

export interface Finding {
  target: string;
  measured: string;
  holds: boolean | null;
}

/** The answers every ingest-style suite posts to the demo's retail survey. */
export const DEMO_ANSWERS = {
  'Outlet name': 'Mama Nkechi Provisions',
  'Outlet type': 'Kiosk',
  Ward: 'Ikeja - Ward B',
  'Products in stock': ['Rice', 'Garri'],
  'Outlet location': '6.60123, 3.35123 (±8 m)',
  Remarks: 'Owner was cooperative',
};

/** A demo field user's token and the demo's retail survey, from the logins the seed wrote to `dataDir`. */
export async function demoFieldUser(url: string, dataDir: string): Promise<{ token: string; surveyId: string; organizationId: string }> {
  const logins = JSON.parse(readFileSync(join(dataDir, 'demo-logins.json'), 'utf8')) as { role: string; email: string; password: string }[];
  const fu = logins.find((l) => l.role === 'field_user')!;
  const token = await loginToken(url, fu.email, fu.password);
  const surveys = await json<{ survey: { _id: string; organization_id: string; title: string }[] }>(`${url}/api/v1/survey/field-user`, { headers: { authorization: `Bearer ${token}` } });
  const survey = surveys.survey.find((s) => s.title.startsWith('Retail'))!;
  return { token, surveyId: survey._id, organizationId: survey.organization_id };
}
