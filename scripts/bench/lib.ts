import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

export const ROOT = resolve(import.meta.dirname, '../..');
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

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export interface Server {
  url: string;
  pid: number;
  proc: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not start`);
}

/** Starts a node script as a child with its own port; resolves once `probe` answers. */
export async function startProcess(script: string, env: Record<string, string>, probe: string): Promise<Server> {
  const port = await freePort();
  const ownDir = env.DATA_DIR === undefined;
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'sb-bench-'));
  // BENCH_NODE_ARGS: flags for the servers' node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a run's time goes.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const proc = spawn(process.execPath, [...nodeArgs, script], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: 'false', RATE_LIMIT_MAX: '100000000', PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url + probe);
  return {
    url,
    pid: proc.pid!,
    proc,
    dataDir,
    stop: async () => {
      if (proc.exitCode === null) {
        await new Promise((res) => {
          proc.once('exit', res);
          proc.kill('SIGTERM');
        });
      }
      // A data directory made here goes with its server (a bench run made dozens).
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function startApi(env: Record<string, string> = {}): Promise<Server> {
  return startProcess(join(ROOT, 'apps/api/dist/server.js'), { PWA_DIR: '/nonexistent', ...env }, '/api/v1/user');
}

export interface LoadResult {
  rps: number;
  p99: number;
  p50: number;
  errors: number;
  non2xx: number;
}

export async function load(opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon({ connections: 32, duration: QUICK ? 2 : 10, ...opts });
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, errors: r.errors + r.timeouts, non2xx: r.non2xx };
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
