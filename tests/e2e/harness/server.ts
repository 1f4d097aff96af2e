import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

/** Starts the built API (which also serves the built PWA) on a free port with a fresh data folder. */
export async function startServer(): Promise<RunningServer> {
  const serverJs = join(repoRoot, 'apps/api/dist/server.js');
  // E2E_PWA_DIR: a PWA built elsewhere (`vite build --outDir`), so a parallel rebuild of apps/pwa/dist cannot swap files mid-run.
  const pwaDir = process.env.E2E_PWA_DIR ? resolve(process.env.E2E_PWA_DIR) : join(repoRoot, 'apps/pwa/dist');
  for (const f of [serverJs, join(pwaDir, 'index.html')]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`npm run build\` first (scripts/e2e.mjs does).`);
  }
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'survey-bird-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminEmail = 'admin@e2e.test';
  const adminPassword = 'admin-password-e2e';
  const child: ChildProcess = spawn(process.execPath, [serverJs], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      PWA_DIR: pwaDir,
      PUBLIC_URL: baseUrl,
      RATE_LIMIT_MAX: '1000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API server exited (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${baseUrl}/api/v1/user`);
      if (res.status === 401) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`API server did not start within 30 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  return {
    baseUrl,
    dataDir,
    adminEmail,
    adminPassword,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
