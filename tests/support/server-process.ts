import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

/**
 * Starting the real built server as a child process, shared by the benchmarks (scripts/bench),
 * the reliability battery (tests/reliability) and the browser suite (tests/e2e).
 */
export const ROOT = resolve(import.meta.dirname, '../..');
export const SERVER_JS = join(ROOT, 'apps/api/dist/server.js');

/**
 * The node flags the server is launched with (package.json "start", deploy/survey-bird.service):
 * the benchmarks and batteries run it as deployed. V8's young generation is capped at 2 x 2 MB
 * (docs/decisions.md, Deployment).
 */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=2'];

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
  });
}

/** Resident set size of a process in MB, from /proc/<pid>/status VmRSS. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export interface SpawnOptions {
  port: number;
  /** Added to (and overriding) the base environment below. */
  env?: Record<string, string>;
  script?: string;
  nodeArgs?: string[];
  stdio?: StdioOptions;
}

/** The server on 127.0.0.1:`port`, quiet, without the demo seed, its public URL its own address. */
export function spawnServer({ port, env = {}, script = SERVER_JS, nodeArgs = [], stdio = ['ignore', 'pipe', 'pipe'] }: SpawnOptions): ChildProcess {
  return spawn(process.execPath, [...(script === SERVER_JS ? SERVER_NODE_ARGS : []), ...nodeArgs, script], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...env },
    stdio,
  });
}

/**
 * Resolves once `url` answers below 500; fails at once when `child` exits first, with `log()` in
 * the message, and after `timeoutMs`.
 */
export async function waitUntilUp(url: string, { child, timeoutMs = 30_000, log = () => '' }: { child?: ChildProcess; timeoutMs?: number; log?: () => string } = {}): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`server exited during start (${child.exitCode ?? child.signalCode}):\n${log()}`);
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server at ${url} did not start within ${timeoutMs} ms:\n${log()}`);
}

/** SIGTERM, then SIGKILL after `graceMs` if it has not exited. */
export async function stopProcess(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
