/**
 * Benchmark target 8, the offline queue in Chromium. In a page of the real app (the built PWA
 * served by the real API behind a counting proxy, signed in as a seeded field user, on
 * /survey-bird/field-user, offline):
 *   1. saving N responses with two 1 MB photos each through the app's enqueueResponse against a
 *      hand-written plain-IndexedDB baseline (offline-queue.page.ts), alternating baseline, app, baseline, app;
 *   2. going back online and letting the app's own sync (its scheduler, and the service worker's
 *      Background Sync if it fires) deliver the last run's N responses: requests counted by the
 *      proxy, arrival checked in the server's database.
 * The page module is built here with Vite from offline-queue.page.ts (importing apps/pwa/src/offline)
 * into a copy of the PWA, so the app's production build exposes nothing for the benchmark.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startProxy } from '../../tests/e2e/harness/proxy.js';
import { buildPageModule, demoFieldUser, openBrowser, openForm, signIn, snapshotPwa, startAppServer, waitForServiceWorker } from './browser.js';
import { DEMO_ANSWERS, QUICK, alternate, median, type Finding } from './lib.js';
import type { SaveJob, SaveResult } from './offline-queue.page.js';

const MODULE = '/bench/offline-queue.js';

/** Calls an export of the page module (a string, so no bundler helper leaks into the page). */
function call<T>(page: Page, fn: string, arg?: unknown): Promise<T> {
  return page.evaluate(`import(${JSON.stringify(MODULE)}).then((m) => m.${fn}(${arg === undefined ? '' : JSON.stringify(arg)}))`) as Promise<T>;
}


async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function benchOfflineQueue(): Promise<{ findings: Finding[]; lines: string[] }> {
  const n = Number(process.env.BENCH_OFFLINE_N ?? (QUICK ? 20 : 500));
  const rounds = QUICK ? 1 : 3;
  const pwaDir = snapshotPwa();
  const app = await buildPageModule(pwaDir, 'offline-queue').then(() => startAppServer(pwaDir)).catch((err: unknown) => {
    rmSync(pwaDir, { recursive: true, force: true });
    throw err;
  });
  const proxy = await startProxy(app.api.url);
  const b = await openBrowser();
  try {
    const { page, context } = b;
    const user = await demoFieldUser(app.api);
    await signIn(page, proxy.baseUrl, user);
    await openForm(page, proxy.baseUrl, user.title);
    await waitForServiceWorker(page);
    // Loaded while online (the worker does not precache it); later imports reuse the instance.
    await call(page, 'outboxState');

    const job = (tag: string, count = n): SaveJob => ({
      n: count, account: user.email, surveyId: user.surveyId, organizationId: user.organizationId, answers: DEMO_ANSWERS,
      photoQuestions: ['Shelf photo', 'Storefront photo'], tag, photoBytes: 1024 * 1024,
    });
    // Offline, as in the field: the app's scheduler does not start sending while we save.
    await context.setOffline(true);
    await call(page, 'clearAll');
    await call(page, 'saveWithBaseline', job('warm-b', 3));
    await call(page, 'saveWithApp', job('warm-a', 3));

    let round = 0;
    const side = (fn: 'saveWithBaseline' | 'saveWithApp') => async () => {
      await call(page, 'clearAll');
      await new Promise((r) => setTimeout(r, 500));
      return call<SaveResult>(page, fn, job(`${fn}-${round++}`));
    };
    const r = await alternate(rounds, side('saveWithBaseline'), side('saveWithApp'));
    const baseMs = median(r.a.map((x) => x.ms));
    const appMs = median(r.b.map((x) => x.ms));
    const ratio = appMs / baseMs;
    const hashMs = await call<number[]>(page, 'hashCost', 20);
    // Printed now: the sync below can outlast its timeout on a loaded machine, and the save figure stands alone.
    console.log(`     offline queue save: ${n} responses, app ${r.b.map((x) => (x.ms / 1000).toFixed(2)).join(', ')} s, baseline ${r.a.map((x) => (x.ms / 1000).toFixed(2)).join(', ')} s = ${ratio.toFixed(2)}x`);

    // The last app run's responses are in the outbox: back online, the app sends them.
    const ids = r.b.at(-1)!.ids;
    const before = await call<{ byStatus: Record<string, number> }>(page, 'outboxState');
    if (before.byStatus.queued !== n) throw new Error(`expected ${n} queued responses, found ${JSON.stringify(before.byStatus)}`);
    proxy.seen.length = 0;
    const syncStarted = Date.now();
    await context.setOffline(false);
    // Responses are synced first and their photos follow: done when no photo is left to send.
    const state = await until('the outbox to be synced', Math.max(QUICK ? 120_000 : 900_000, n * 1_000), async () => {
      const s = await call<{ byStatus: Record<string, number>; photosPending: number; photos: number }>(page, 'outboxState');
      return (s.byStatus.synced ?? 0) + (s.byStatus.failed ?? 0) >= n && s.photosPending === 0 ? s : undefined;
    });
    const syncSeconds = (Date.now() - syncStarted) / 1000;
    const seen = [...proxy.seen];
    const responseRequests = seen.filter((s) => s === 'POST /api/v1/sync/responses' || s === 'POST /api/v1/survey/respond').length;
    const batchRequests = seen.filter((s) => s === 'POST /api/v1/sync/responses').length;
    const photoUploads = seen.filter((s) => s === 'POST /api/v1/files/image').length;
    const other = seen.filter((s) => !/^POST \/api\/v1\/(sync\/responses|survey\/respond|files\/image)$/.test(s)).map((s) => s.replace(/\/files\/tus\/[0-9a-f]+/, '/files/tus/:id'));

    const db = new Database(join(app.api.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
    let perId: Map<string, number>;
    let fileRows: number;
    try {
      const rows = db.prepare('select client_id as id, count(*) as n from responses where client_id in (select value from json_each(?)) group by client_id').all(JSON.stringify(ids)) as { id: string; n: number }[];
      perId = new Map(rows.map((x) => [x.id, x.n]));
      fileRows = (db.prepare('select count(*) as n from files where client_id in (select value from json_each(?))').get(JSON.stringify(ids)) as { n: number }).n;
    } finally {
      db.close();
    }
    const once = ids.filter((id) => perId.get(id) === 1).length;
    const missing = ids.filter((id) => !perId.has(id)).length;
    const dupes = ids.filter((id) => (perId.get(id) ?? 0) > 1).length;
    // The target is 15 requests for 500 responses (10 batches of 50 and some slack); quick mode scales it.
    const allowed = Math.max(1, Math.ceil((15 * n) / 500));

    return {
      findings: [
        {
          target: '8. Queue 500 responses with two 1 MB photos each <= 1.5x a plain IndexedDB transaction per response (Chromium)',
          measured: `${n} responses: ${(appMs / 1000).toFixed(2)} s vs ${(baseMs / 1000).toFixed(2)} s = ${ratio.toFixed(2)}x (${(appMs / n).toFixed(1)} vs ${(baseMs / n).toFixed(1)} ms each)`,
          holds: ratio <= 1.5,
        },
        {
          target: `8. Syncing them takes <= 15 requests to /sync/responses + /survey/respond per 500 responses${QUICK ? ` (${allowed} for ${n})` : ''}`,
          measured: `${responseRequests} (${batchRequests} batches) for ${n} responses in ${syncSeconds.toFixed(1)} s; photos apart: ${photoUploads} uploads to /files/image, one per photo by design`,
          holds: responseRequests <= allowed,
        },
        {
          target: 'Flags. The perceptual hash of a 2000 px photo on the phone < 50 ms (Chromium)',
          measured: `median ${median(hashMs).toFixed(2)} ms, max ${Math.max(...hashMs).toFixed(2)} ms over ${hashMs.length} runs`,
          holds: median(hashMs) < 50,
        },
        {
          target: '8. Every synced response arrives exactly once (server DB)',
          measured: `${once}/${n} exactly once, ${missing} missing, ${dupes} duplicated; ${fileRows}/${2 * n} photo rows; outbox ${JSON.stringify(state.byStatus)}`,
          holds: once === n && fileRows === 2 * n && (state.byStatus.synced ?? 0) === n,
        },
      ],
      lines: [
        `offline queue: ${rounds} round(s) baseline/app alternating, ${n} responses x 2 photos of 1 MiB each, saved offline in a signed-in /survey-bird/field-user page; app runs ${r.b.map((x) => (x.ms / 1000).toFixed(2)).join(', ')} s, baseline ${r.a.map((x) => (x.ms / 1000).toFixed(2)).join(', ')} s`,
        `offline queue sync: other requests while syncing: ${other.length ? [...new Set(other)].map((s) => `${s} x${other.filter((o) => o === s).length}`).join(', ') : 'none'}`,
      ],
    };
  } finally {
    await b.close();
    await proxy.close();
    await app.stop();
  }
}
