import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Msg, QuestionType } from '@survey-bird/contracts';
import { launchChromium, PHONE, type Browser } from '../support/chromium.ts';
import { FieldUserFormPage } from '../e2e/pages/FieldUserFormPage.ts';
import { LoginPage } from '../e2e/pages/LoginPage.ts';
import { call } from './harness/http.ts';
import { RoundRobinProxy } from './harness/proxy.ts';
import { ApiProcess, FULL, ROOT, createPgDatabase, figure, removeDir, tempDataDir, type PgDatabase } from './harness/server.ts';
import { fileIdOf, World } from './harness/world.ts';

/**
 * Issue 21, the browser half of the proof: the phone's offline flow (offline -> responses with
 * photos -> online) through the round-robin proxy in front of two instances on one PostgreSQL
 * database, with instance A restarted (SIGTERM, then started again) while the phone syncs. Every
 * response must arrive exactly once, each photo with the phone's bytes, readable through both.
 * Needs the built PWA (`npm run build`; CI builds before this battery) and Chromium.
 */
const RESPONSES = Number(process.env.MULTI_BROWSER_RESPONSES ?? (FULL ? 8 : 4));
const PWA_DIR = process.env.E2E_PWA_DIR ? resolve(process.env.E2E_PWA_DIR) : join(ROOT, 'apps/pwa/dist');
const TITLE = 'Borehole audit (two instances)';
const Q = { name: 'Respondent name', pump: 'Is the pump working?', photo: 'Pump photo' } as const;
const PASSWORD = 'Reliable-field-1';
// Photos now follow their responses over tus (issue 19): its creation, offset checks and appends are sync writes too.
const SYNC_WRITES = /^(POST \/api\/v1\/(files\/image|files\/tus|sync\/responses|survey\/respond)|(PATCH|HEAD) \/api\/v1\/files\/tus\/)/;

/** The harness World, reached through the proxy. */
class ProxiedWorld extends World {
  proxyUrl = '';
  override get url(): string {
    return this.proxyUrl;
  }
}

/** SHA-256 of every photo the phone holds, by the clientId of its response (IndexedDB, read in the page). */
const PHONE_PHOTOS = `(async () => {
  const idb = await new Promise((resolve, reject) => {
    const open = indexedDB.open('survey-bird');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const all = (store) => new Promise((resolve) => {
    const req = idb.transaction(store).objectStore(store).getAll();
    req.onsuccess = () => resolve(req.result);
  });
  const rows = await all('photos');
  // Photos are sealed under the account's key (apps/pwa/src/offline/vault.ts), which page script may use.
  const keys = new Map((await all('keys')).map((k) => [k.account, k.key]));
  idb.close();
  const out = [];
  for (const row of rows) {
    const bytes = row.sealed ? await crypto.subtle.decrypt({ name: 'AES-GCM', iv: row.sealed.iv }, keys.get(row.account), row.sealed.data ?? (await row.blob.arrayBuffer())) : row.blob ? await row.blob.arrayBuffer() : row.buffer;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    out.push({ owner: row.owner, sha256: [...digest].map((x) => x.toString(16).padStart(2, '0')).join('') });
  }
  return out;
})()`;

describe('the phone offline, then syncing through two instances while one restarts', () => {
  let pgdb: PgDatabase | undefined;
  const apis: ApiProcess[] = [];
  let proxy: RoundRobinProxy | undefined;
  let browser: Browser | undefined;
  const dirs = [tempDataDir('multi-browser-a'), tempDataDir('multi-browser-b')];
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    for (const api of apis) await api.stop();
    await pgdb?.drop();
    for (const d of dirs) removeDir(d);
  });

  it(`delivers ${RESPONSES} offline responses with photos exactly once while instance A restarts mid-sync`, async () => {
    if (!existsSync(join(PWA_DIR, 'index.html'))) throw new Error(`${PWA_DIR}/index.html is missing: run \`npm run build\` first`);
    pgdb = await createPgDatabase();
    for (const dataDir of dirs) apis.push(new ApiProcess({ dataDir, databaseUrl: pgdb.url, env: { JWT_SECRET: '', FILE_STORE: '', PWA_DIR, SHUTDOWN_GRACE_MS: '20000', RATE_LIMIT_MAX: '1000' } }));
    await Promise.all(apis.map((a) => a.start()));
    proxy = new RoundRobinProxy(apis.map((a) => a.url));
    await proxy.start();

    const seeded = dirs.find((d) => existsSync(join(d, 'demo-logins.json')))!;
    const world = new ProxiedWorld('postgres', seeded);
    world.proxyUrl = proxy.url;
    world.pg = pgdb;
    world.api = apis[0]!;
    await world.signIn();
    const created = await call<{ survey: { _id: string } }>(proxy.url, {
      path: '/api/v1/survey/create',
      token: world.orgToken,
      body: {
        title: TITLE,
        description: 'One visit per borehole, with a photo of the pump.',
        questions: [
          { text: Q.name, type: QuestionType.text, compulsory: true, options: [] },
          { text: Q.pump, type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] },
          { text: Q.photo, type: QuestionType.liveImages, compulsory: true, options: [] },
        ],
      },
    });
    world.surveyId = created.survey._id;
    const [fieldUser] = await world.inviteFieldUsers(1, 'browser');

    // The phone: signs in and opens the form online (survey, app shell and worker cached), then loses signal.
    browser = await launchChromium({ viewport: PHONE, args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'], timeoutMs: 20_000 });
    const { page, context } = browser;
    await context.grantPermissions(['camera'], { origin: proxy.url });
    await new LoginPage(page, proxy.url).signIn(fieldUser!.email, PASSWORD);
    const form = new FieldUserFormPage(page, proxy.url);
    await form.open(TITLE);
    await expect.poll(() => page.evaluate('navigator.serviceWorker.controller ? navigator.serviceWorker.controller.scriptURL : null'), { timeout: 20_000 }).toMatch(/\/sw\.js$/);

    await context.setOffline(true);
    await page.reload();
    await form.title(TITLE).waitFor();
    await page.locator('.sync-strip__net', { hasText: 'Offline' }).waitFor();
    for (let i = 1; i <= RESPONSES; i++) {
      await form.fillText(Q.name, `Two instances ${i}`);
      await form.choose(Q.pump, i % 2 ? 'Yes' : 'No');
      await form.takePicture(Q.photo);
      await form.submit();
      await expect.poll(() => form.waiting().textContent()).toBe(`${i} ${Msg.savedOnPhone}`);
    }
    const photos = await page.evaluate<{ owner: string; sha256: string }[]>(PHONE_PHOTOS);
    expect(photos).toHaveLength(RESPONSES);

    // The restart: the first write of the sync triggers SIGTERM to A, and every later request is
    // held until A has exited, so the sync goes on through B while A is down. A starts again only
    // once B has served a sync write (or after 60 s): the phone's retry backoff after a write cut by
    // the SIGTERM can outlast a quick restart, and the proof is that the sync went on without A.
    const b = apis[1]!.url;
    const marks = { stopAsked: 0, exited: 0, upAgain: 0 };
    const syncWritesThroughB = () => proxy!.log.filter((r) => r.upstream === b && SYNC_WRITES.test(`${r.method} ${r.path}`) && r.at > marks.exited).length;
    let restart: Promise<void> | undefined;
    let stopped: Promise<void> | undefined;
    proxy.beforeForward = async (method, path) => {
      if (!restart && SYNC_WRITES.test(`${method} ${path}`)) {
        marks.stopAsked = performance.now();
        stopped = apis[0]!.stop().then(() => {
          marks.exited = performance.now();
        });
        restart = stopped
          .then(async () => {
            for (const until = performance.now() + 60_000; syncWritesThroughB() === 0 && performance.now() < until; ) await new Promise((r) => setTimeout(r, 100));
          })
          .then(() => apis[0]!.start())
          .then(() => {
            marks.upAgain = performance.now();
          });
        return;
      }
      if (stopped) await stopped;
    };

    await context.setOffline(false);
    await form.openResponses();
    // The phone retries on its own (backoff); Sync now shortens the wait if a retry is parked.
    await expect.poll(async () => {
      const n = await form.recordsWith('received by the server').count();
      if (n < RESPONSES && (await page.getByRole('button', { name: 'Sync now' }).isEnabled().catch(() => false))) await page.getByRole('button', { name: 'Sync now' }).click().catch(() => undefined);
      return n;
    }, { timeout: 90_000, interval: 1_500 }).toBe(RESPONSES);
    expect(restart, 'instance A was restarted during the sync').toBeDefined();
    await restart;
    expect(apis[0]!.exits.at(-1), 'SIGTERM ends the process cleanly').toEqual({ code: 0, signal: null });
    expect(await form.records().count()).toBe(RESPONSES);
    // Photos follow their responses (issue 19): wait until the phone has nothing left to send.
    await expect.poll(async () => {
      const text = await form.waiting().textContent();
      if (text !== 'Nothing waiting to send' && (await page.getByRole('button', { name: 'Sync now' }).isEnabled().catch(() => false))) await page.getByRole('button', { name: 'Sync now' }).click().catch(() => undefined);
      return text;
    }, { timeout: 90_000, interval: 1_500 }).toBe('Nothing waiting to send');

    // Writes of the sync that B served while A was down or starting.
    const throughB = proxy.log.filter((r) => r.upstream === b && SYNC_WRITES.test(`${r.method} ${r.path}`) && r.at > marks.stopAsked && r.at < marks.upAgain);
    expect(throughB.length, 'the sync went through B during the restart').toBeGreaterThan(0);

    const db = await world.inspector();
    try {
      const rows = await db.all<{ client_id: string; answers: string }>('select client_id, answers from responses where survey_id = ?', [world.surveyId]);
      const names = rows.map((r) => (JSON.parse(r.answers) as Record<string, string>)[Q.name]).sort();
      expect(names).toEqual(Array.from({ length: RESPONSES }, (_, i) => `Two instances ${i + 1}`).sort());
      expect(rows.map((r) => r.client_id).sort()).toEqual(photos.map((p) => p.owner).sort());
      const files = await db.all<{ id: string; client_id: string; sha256: string; store: string }>('select id, client_id, sha256, store from files where survey_id = ?', [world.surveyId]);
      expect(files.map((f) => `${f.client_id}/${f.sha256}`).sort()).toEqual(photos.map((p) => `${p.owner}/${p.sha256}`).sort());
      expect(files.every((f) => f.store === 'postgres')).toBe(true);
      // Each answer is its photo's address, and both instances serve the phone's bytes there.
      const unreadable: string[] = [];
      for (const r of rows) {
        const id = fileIdOf(String((JSON.parse(r.answers) as Record<string, string>)[Q.photo]));
        const expected = photos.find((p) => p.owner === r.client_id)!.sha256;
        for (const api of apis) {
          const got = await fetch(`${api.url}/api/v1/files/image/${id}`, { headers: { authorization: `Bearer ${world.orgToken}` } });
          const sha = createHash('sha256').update(Buffer.from(await got.arrayBuffer())).digest('hex');
          if (got.status !== 200 || sha !== expected) unreadable.push(`${id} via ${api.url}: ${got.status}`);
        }
      }
      expect(unreadable).toEqual([]);
    } finally {
      await db.close();
    }
    figure('multi-instance browser', `${RESPONSES} offline responses with photos delivered once; A's SIGTERM to exit ${(marks.exited - marks.stopAsked).toFixed(0)} ms, back up after ${((marks.upAgain - marks.stopAsked) / 1000).toFixed(1)} s; ${throughB.length} sync writes through B meanwhile; proxy ${[...proxy.served.values()].join('/')}`);
  });
});
