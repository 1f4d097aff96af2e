/**
 * Helpers of the browser benchmarks (offline-queue.ts, lighthouse.ts): the built PWA served by the
 * real API, a Chromium launched like the e2e harness (tests/e2e/harness/browser.ts) and the seeded
 * demo field user.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { PHONE, launchChromium, type Browser } from '../../tests/support/chromium.ts';
import { json, loginToken, ROOT, startApi, type Server } from './lib.js';

export { CHROMIUM, CHROMIUM_ARGS, PHONE, type Browser } from '../../tests/support/chromium.ts';

/**
 * A copy of apps/pwa/dist (built by `npm run build`) in a temporary folder, so a parallel rebuild
 * cannot swap files under a run. Add files before the server starts: it serves those present then.
 */
export function snapshotPwa(): string {
  // BENCH_PWA_DIST: another build of the PWA, for an A/B of two builds in alternating runs.
  const dist = process.env.BENCH_PWA_DIST ?? join(ROOT, 'apps/pwa/dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist}/index.html is missing: run \`npm run build\` first`);
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-pwa-'));
  cpSync(dist, dir, { recursive: true });
  return dir;
}

/**
 * Builds scripts/bench/<name>.page.ts (importing the app's own modules from apps/pwa/src) with Vite
 * into `pwaDir`/bench/<name>.js, so the app's production build exposes nothing for a benchmark.
 * Call it before the server starts: it serves the files present at start.
 */
export async function buildPageModule(pwaDir: string, name: string): Promise<void> {
  // The app's `virtual:route-table`: the contracts' routes without zod.
  const { routes } = await import('@survey-bird/contracts');
  const { routeTable } = await import('../../apps/pwa/route-table-plugin.js');
  await build({
    configFile: false,
    root: join(ROOT, 'apps/pwa'),
    logLevel: 'warn',
    mode: 'production',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [routeTable(routes)],
    build: {
      outDir: join(pwaDir, 'bench'),
      emptyOutDir: false,
      copyPublicDir: false,
      target: 'es2022',
      lib: { entry: join(ROOT, `scripts/bench/${name}.page.ts`), formats: ['es'], fileName: () => `${name}.js` },
    },
  });
}

export interface AppServer {
  api: Server;
  pwaDir: string;
  stop(): Promise<void>;
}

/** The real API with the demo data, serving the PWA copy in `pwaDir` (removed on stop). */
export async function startAppServer(pwaDir: string): Promise<AppServer> {
  const api = await startApi({ SEED_DEMO: 'true', PWA_DIR: pwaDir });
  return {
    api,
    pwaDir,
    async stop() {
      await api.stop();
      rmSync(pwaDir, { recursive: true, force: true });
    },
  };
}

export interface FieldUser {
  email: string;
  password: string;
  token: string;
  surveyId: string;
  organizationId: string;
  title: string;
}

/** The first seeded field user and the survey the field-user form shows them (the retail audit). */
export async function demoFieldUser(api: Server): Promise<FieldUser> {
  const logins = JSON.parse(readFileSync(join(api.dataDir, 'demo-logins.json'), 'utf8')) as { role: string; email: string; password: string }[];
  const fu = logins.find((l) => l.role === 'field_user')!;
  const token = await loginToken(api.url, fu.email, fu.password);
  const reply = await json<{ survey: { _id: string; organization_id: string; title: string }[] }>(`${api.url}/api/v1/survey/field-user`, { headers: { authorization: `Bearer ${token}` } });
  const survey = reply.survey.find((s) => s.title.startsWith('Retail'))!;
  return { email: fu.email, password: fu.password, token, surveyId: survey._id, organizationId: survey.organization_id, title: survey.title };
}

/**
 * Chromium with a fresh profile and a phone viewport; for Lighthouse, a DevTools port and no
 * Playwright emulation (Lighthouse emulates the phone itself).
 */
export function openBrowser(opts: { debuggingPort?: number } = {}): Promise<Browser> {
  const phone = opts.debuggingPort === undefined;
  return launchChromium({ viewport: phone ? PHONE : null, args: phone ? [] : [`--remote-debugging-port=${opts.debuggingPort}`], timeoutMs: 30_000 });
}


/** Signs the field user in the way the app does (the account list in localStorage 'accounts'). */
export async function signIn(page: Page, baseUrl: string, user: FieldUser): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('heading', { name: 'Sign In' }).waitFor();
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** Opens the field-user form and waits for the survey's title. */
export async function openForm(page: Page, baseUrl: string, title: string): Promise<void> {
  await page.goto(`${baseUrl}/survey-bird/field-user`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

/**
 * Until the page is controlled by the app's service worker. An install whose precache fetch failed
 * is not retried until the next navigation (as on a phone), so a page still uncontrolled after 30 s
 * is reloaded once before the benchmark gives up.
 */
export async function waitForServiceWorker(page: Page): Promise<void> {
  const controlled = () => page.waitForFunction(() => navigator.serviceWorker.controller?.scriptURL.endsWith('/sw.js') ?? false, undefined, { timeout: 30_000 });
  try {
    await controlled();
  } catch {
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return reg ? `installing ${reg.installing?.state ?? '-'}, waiting ${reg.waiting?.state ?? '-'}, active ${reg.active?.state ?? '-'}` : 'no registration';
    });
    console.warn(`service worker not in control after 30 s (${state}); reloading once`);
    await page.reload();
    await controlled();
  }
}
