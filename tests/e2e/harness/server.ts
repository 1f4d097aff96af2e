import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT as repoRoot, SERVER_JS, freePort, spawnServer, stopProcess, waitUntilUp } from '../../support/server-process';

export { ROOT as repoRoot } from '../../support/server-process';

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  stop(): Promise<void>;
}

/** Starts the built API (which also serves the built PWA) on a free port with a fresh data folder; `env` adds to its environment (SEED_DEMO: 'true' seeds the demo). */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  // E2E_PWA_DIR: a PWA built elsewhere (`vite build --outDir`), so a parallel rebuild of apps/pwa/dist cannot swap files mid-run.
  const pwaDir = process.env.E2E_PWA_DIR ? resolve(process.env.E2E_PWA_DIR) : join(repoRoot, 'apps/pwa/dist');
  for (const f of [SERVER_JS, join(pwaDir, 'index.html')]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`npm run build\` first (scripts/e2e.mjs does).`);
  }
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'survey-bird-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminEmail = 'admin@e2e.test';
  const adminPassword = 'admin-password-e2e';
  const child = spawnServer({ port, env: { DATA_DIR: dataDir, ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: adminPassword, PWA_DIR: pwaDir, RATE_LIMIT_MAX: '1000', ...env } });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));

  try {
    await waitUntilUp(`${baseUrl}/api/v1/user`, { child, log: () => log });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }

  return {
    baseUrl,
    dataDir,
    adminEmail,
    adminPassword,
    async stop() {
      await stopProcess(child, 5000);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
