/**
 * Benchmark targets 11-13: syncing over a slow, patchy link, in Chromium, in the real
 * app (the built PWA served by the real API, signed in as a seeded field user on
 * /survey-bird/field-user), with DevTools network emulation (`Network.emulateNetworkConditions` on
 * the page) and the streaming proxy of link-proxy.ts in front of the API, which counts the bytes
 * that left the phone and ends the baseline's upload.
 *
 * Link profiles: "2G" 250 kbps down / 200 kbps up / 800 ms, "slow 3G" 500 / 400 kbps / 400 ms.
 *   11. Responses with two photos each are queued offline; the link comes up at the profile; the
 *       time until the last photo is stored, against one fetch POST of the same bytes (the photos
 *       and the responses' batch bodies) to the proxy's bare endpoint over the same link.
 *   12. The same on slow 3G, but the link drops (offline) when half of each photo has reached the
 *       proxy and comes back 5 s later: the photo bytes sent against the photos' size, and every
 *       response and photo on the server exactly once, the stored files hashed against the originals.
 *   13. 20 responses with two photos queued, the link comes up at 2G: the time until the
 *       organization's response list (GET .../organization/response/:surveyId, polled from here
 *       over an unthrottled connection) shows the first of them.
 *
 * Background Sync is denied to the origin: DevTools emulation on the page does not reach the
 * service worker's own requests, so a worker run would send over an unthrottled link. The page's
 * scheduler, which syncs while the app is open, sends everything.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { buildPageModule, demoFieldUser, openBrowser, openForm, signIn, snapshotPwa, startAppServer, waitForServiceWorker, type FieldUser } from './browser.js';
import { BASELINE_PATH, startLinkProxy, type LinkProxy } from './link-proxy.js';
import { QUICK, json, loginToken, median, type Finding, type Server } from './lib.js';
import type { PhotoInfo, PhotoJob, QueueJob, Queued } from './slow-link.page.js';

const MODULE = '/bench/slow-link.js';

interface Profile {
  name: string;
  downKbps: number;
  upKbps: number;
  rttMs: number;
}

const G2: Profile = { name: '2G', downKbps: 250, upKbps: 200, rttMs: 800 };
const SLOW_3G: Profile = { name: 'slow 3G', downKbps: 500, upKbps: 400, rttMs: 400 };
const describe = (p: Profile) => `${p.name} (${p.downKbps}/${p.upKbps} kbps, ${p.rttMs} ms)`;

const num = (name: string, quick: number, full: number) => Number(process.env[name] ?? (QUICK ? quick : full));
/**
 * Full mode: the target's 50 responses, photos as the standard quality makes them (1600 px, JPEG
 * 0.8, a few hundred KB). Quick mode (CI, about two minutes): one response per profile, smaller photos.
 */
const SIZES = {
  t11: num('BENCH_LINK_T11_N', 1, 50),
  t12: num('BENCH_LINK_T12_N', 1, 10),
  t13: num('BENCH_LINK_T13_N', 20, 20),
  photo: QUICK ? { width: 1200, height: 900, targetBytes: 160_000 } : { width: 1600, height: 1200, targetBytes: 300_000 },
};
const DROP_OFFLINE_MS = 5_000;

const answers = {
  'Outlet type': 'Kiosk',
  Ward: 'Ikeja - Ward B',
  'Products in stock': ['Rice', 'Garri'],
  'Outlet location': '6.60123, 3.35123 (±8 m)',
  Remarks: 'Owner was cooperative',
};
const NAME = 'Outlet name';
const PHOTO_QUESTIONS = ['Shelf photo', 'Storefront photo'];

/** Calls an export of the page module (a string, so no bundler helper leaks into the page). */
function call<T>(page: Page, fn: string, arg?: unknown): Promise<T> {
  return page.evaluate(`import(${JSON.stringify(MODULE)}).then((m) => m.${fn}(${arg === undefined ? '' : JSON.stringify(arg)}))`) as Promise<T>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined | Promise<T | undefined>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The page's link, by DevTools emulation. */
class Emulation {
  constructor(private readonly cdp: CDPSession) {}

  async to(p: Profile): Promise<void> {
    await this.cdp.send('Network.emulateNetworkConditions', { offline: false, latency: p.rttMs, downloadThroughput: (p.downKbps * 1000) / 8, uploadThroughput: (p.upKbps * 1000) / 8 });
  }

    /** Offline for the page (navigator.onLine, new requests); the throttle stays as `p`'s, or a body in flight would burst out at full speed. */
  async offline(p: Profile): Promise<void> {
    await this.cdp.send('Network.emulateNetworkConditions', { offline: true, latency: p.rttMs, downloadThroughput: (p.downKbps * 1000) / 8, uploadThroughput: (p.upKbps * 1000) / 8 });
  }

  async clear(): Promise<void> {
    await this.cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  }
}

interface Arrival {
  responses: number;
  once: number;
  photos: number;
  /** Photos whose stored file hashes to the original's SHA-256 and has its size. */
  equal: number;
  /** Extra rows: a response or photo stored twice. */
  duplicated: number;
  stillPending: number;
}

/** What the server holds of `queued`: rows per response and photo, each stored file hashed. */
function arrivals(api: Server, queued: Queued[]): Arrival {
  const db = new Database(join(api.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const ids = JSON.stringify(queued.map((q) => q.clientId));
    const rows = db.prepare('select client_id as id, count(*) as n, max(pending_photos) as pending from responses where client_id in (select value from json_each(?)) group by client_id').all(ids) as { id: string; n: number; pending: string | null }[];
    const files = db.prepare('select client_id as id, question, path, size, sha256 from files where client_id in (select value from json_each(?))').all(ids) as { id: string; question: string; path: string; size: number; sha256: string }[];
    const out: Arrival = { responses: queued.length, once: 0, photos: 0, equal: 0, duplicated: 0, stillPending: 0 };
    for (const r of rows) {
      if (r.n === 1) out.once++;
      out.duplicated += r.n - 1;
      if (r.pending && r.pending !== '[]') out.stillPending++;
    }
    for (const q of queued) {
      for (const p of q.photos) {
        const stored = files.filter((f) => f.id === q.clientId && f.question === p.question);
        if (stored.length === 0) continue;
        out.photos++;
        out.duplicated += stored.length - 1;
        const bytes = readFileSync(join(api.dataDir, stored[0]!.path));
        if (bytes.length === p.size && createHash('sha256').update(bytes).digest('hex') === p.sha256) out.equal++;
      }
    }
    return out;
  } finally {
    db.close();
  }
}

const photoCount = (queued: Queued[]) => queued.reduce((n, q) => n + q.photos.length, 0);
const exactlyOnce = (a: Arrival, queued: Queued[]) => a.once === queued.length && a.duplicated === 0 && a.photos === photoCount(queued) && a.equal === a.photos && a.stillPending === 0;
const describeArrival = (a: Arrival, queued: Queued[]) => `${a.once}/${a.responses} responses once, ${a.photos}/${photoCount(queued)} photos stored (${a.equal} byte-equal), ${a.duplicated} duplicated, ${a.stillPending} still pending`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The link's requests of a run by kind, e.g. "1 POST /sync/responses, 2 POST /files/tus, 2 PATCH". */
function requestMix(link: LinkProxy): string {
  const kinds = new Map<string, number>();
  for (const r of link.requests) {
    const kind = `${r.method} ${r.path.replace(/^\/api\/v1/, '').replace(/\/files\/tus\/[0-9a-f]+$/, '/files/tus/:id').replace(/\?.*$/, '')}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
}

interface Ctx {
  page: Page;
  api: Server;
  link: LinkProxy;
  net: Emulation;
  user: FieldUser;
  orgToken: string;
}

/** Makes the photos and queues `responses` responses while the link is down. */
async function queueOffline(ctx: Ctx, p: Profile, tag: string, responses: number): Promise<{ queued: Queued[]; photoBytes: number }> {
  const job: PhotoJob = { count: responses * PHOTO_QUESTIONS.length, quality: 0.8, tag, ...SIZES.photo };
  await ctx.net.offline(p);
  const photos = await call<PhotoInfo[]>(ctx.page, 'makePhotos', job);
  const queueJob: QueueJob = { account: ctx.user.email, surveyId: ctx.user.surveyId, organizationId: ctx.user.organizationId, answers, photoQuestions: PHOTO_QUESTIONS, nameQuestion: NAME, tag, responses };
  const queued = await call<Queued[]>(ctx.page, 'queue', queueJob);
  return { queued, photoBytes: photos.reduce((n, p) => n + p.size, 0) };
}

/** Until every photo of the run is stored; the time the last one was. */
async function photosStored(ctx: Ctx, count: number, timeoutMs: number): Promise<number> {
  return until(`${count} photos to be stored`, timeoutMs, () => {
    const finished = [...ctx.link.uploads.values()].filter((u) => u.finishedAt !== undefined);
    return finished.length + ctx.link.wholePhotos >= count ? Math.max(...finished.map((u) => u.finishedAt!), 0) : undefined;
  }, 200);
}

/** Generous: the bytes at the profile's upload rate, five times over, and a minute. */
const budgetMs = (bytes: number, p: Profile) => 60_000 + (5 * bytes * 8) / p.upKbps;

interface T11 {
  appMs: number;
  baseMs: number;
  bytes: number;
  queued: Queued[];
  arrival: Arrival;
  mix: string;
}

async function target11(ctx: Ctx, p: Profile, n: number): Promise<T11> {
  const { queued, photoBytes } = await queueOffline(ctx, p, `t11-${p.name.replace(' ', '')}-${Date.now()}`, n);
  ctx.link.reset();
  const start = Date.now();
  await ctx.net.to(p);
  const end = await photosStored(ctx, photoCount(queued), budgetMs(photoBytes, p));
  console.log(`     slow link 11, ${p.name}: the app's sync took ${sec(end - start)} (${photoCount(queued)} photos, ${mb(photoBytes)}); now the baseline`);
  const mix = requestMix(ctx.link);
  // The same bytes for the baseline: the photos and the responses as the app sent them.
  const textBytes = ctx.link.requests.filter((r) => r.path.endsWith('/sync/responses') || r.path.endsWith('/survey/respond')).reduce((s, r) => s + r.bodyBytes, 0);
  // The run's last requests (statuses, earnings, the device report) finish before the baseline starts.
  await ctx.link.idle(2_000, 60_000);
  const baseMs = await call<number>(ctx.page, 'baseline', { path: BASELINE_PATH, bytes: photoBytes + textBytes });
  await ctx.link.idle(1_000, 60_000);
  return { appMs: end - start, baseMs, bytes: photoBytes + textBytes, queued, arrival: arrivals(ctx.api, queued), mix };
}

interface T12 {
  ms: number;
  photoBytes: number;
  sent: number;
  drops: number;
  resumed: number[];
  queued: Queued[];
  arrival: Arrival;
  mix: string;
}

async function target12(ctx: Ctx, p: Profile, n: number): Promise<T12> {
  const { queued, photoBytes } = await queueOffline(ctx, p, `t12-${Date.now()}`, n);
  ctx.link.reset();
  const dropped = new Set<string>();
  let dropping = false;
  ctx.link.onPatchProgress = (id, received, size) => {
    if (dropping || dropped.has(id) || received < size / 2) return;
    dropped.add(id);
    dropping = true;
    if (process.env.BENCH_LINK_DEBUG) console.log(`  drop at ${Date.now() - start} ms: ${id} ${received}/${size}`);
    ctx.link.down = true;
    void ctx.net.offline(p)
      .then(() => sleep(DROP_OFFLINE_MS))
      .then(() => {
        ctx.link.down = false;
        return ctx.net.to(p);
      })
      .finally(() => (dropping = false));
  };
  const start = Date.now();
  try {
    await ctx.net.to(p);
    const end = await photosStored(ctx, photoCount(queued), budgetMs(photoBytes, p) + photoCount(queued) * 3 * DROP_OFFLINE_MS);
    const sent = [...ctx.link.uploads.values()].reduce((s, u) => s + u.sent, 0) + ctx.link.requests.filter((r) => r.path.endsWith('/files/image')).reduce((s, r) => s + r.bodyBytes, 0);
    const resumed = ctx.link.requests.filter((r) => r.method === 'PATCH' && (r.offset ?? 0) > 0).map((r) => r.offset!);
    const mix = requestMix(ctx.link);
    if (process.env.BENCH_LINK_DEBUG) for (const r of ctx.link.requests) console.log(`  ${r.start - start} ms ${r.method} ${r.path} offset ${r.offset ?? '-'} body ${r.bodyBytes} status ${r.status ?? '-'}${r.cut ? ' cut' : ''} end ${r.end === undefined ? '-' : r.end - start}`);
    await ctx.link.idle(2_000, 60_000);
    return { ms: end - start, photoBytes, sent, drops: dropped.size, resumed, queued, arrival: arrivals(ctx.api, queued), mix };
  } finally {
    ctx.link.onPatchProgress = undefined;
    await until('the link to come back', 30_000, () => (dropping ? undefined : true));
  }
}

interface T13 {
  firstMs: number;
  allMs: number;
  photosAtFirst: number;
  photos: number;
}

async function target13(ctx: Ctx, n: number): Promise<T13> {
  const { queued } = await queueOffline(ctx, G2, `t13-${Date.now()}`, n);
  const names = new Set(queued.map((q) => q.name));
  const listed = async () => {
    const reply = await json<{ responses: { answers: Record<string, unknown> }[] }>(`${ctx.api.url}/api/v1/survey/organization/response/${ctx.user.surveyId}?page=1`, { headers: { authorization: `Bearer ${ctx.orgToken}` } });
    return reply.responses.filter((r) => names.has(String(r.answers[NAME]))).length;
  };
  if ((await listed()) !== 0) throw new Error('responses of the run were listed before the link came up');
  ctx.link.reset();
  const start = Date.now();
  await ctx.net.to(G2);
  const firstMs = await until('the first response in the organization\'s list', 120_000, async () => ((await listed()) > 0 ? Date.now() - start : undefined), 100);
  const photosAtFirst = [...ctx.link.uploads.values()].filter((u) => u.finishedAt !== undefined).length;
  const allMs = await until('every response in the organization\'s list', 120_000, async () => ((await listed()) === n ? Date.now() - start : undefined), 100);
  return { firstMs, allMs, photosAtFirst, photos: photoCount(queued) };
}

export async function benchSlowLink(): Promise<{ findings: Finding[]; lines: string[] }> {
  const pwaDir = snapshotPwa();
  const app = await buildPageModule(pwaDir, 'slow-link').then(() => startAppServer(pwaDir)).catch((err: unknown) => {
    rmSync(pwaDir, { recursive: true, force: true });
    throw err;
  });
  const link = await startLinkProxy(app.api.url);
  const b = await openBrowser();
  try {
    const { page, context } = b;
    // Granting only this denies the rest to the origin, Background Sync among them (see above).
    await context.grantPermissions(['geolocation'], { origin: link.baseUrl });
    const user = await demoFieldUser(app.api);
    const logins = JSON.parse(readFileSync(join(app.api.dataDir, 'demo-logins.json'), 'utf8')) as { role: string; email: string; password: string }[];
    const org = logins.find((l) => l.role === 'organization')!;
    const orgToken = await loginToken(app.api.url, org.email, org.password);
    await signIn(page, link.baseUrl, user);
    await openForm(page, link.baseUrl, user.title);
    await waitForServiceWorker(page);
    const backgroundSync = await page.evaluate(() => navigator.permissions.query({ name: 'background-sync' as PermissionName }).then((s) => s.state));
    if (backgroundSync !== 'denied') throw new Error(`Background Sync is ${backgroundSync}: the worker could send past the emulated link`);
    // Loaded while online (the worker does not precache it); later imports reuse the instance.
    await call(page, 'outboxState');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const ctx: Ctx = { page, api: app.api, link, net: new Emulation(cdp), user, orgToken };
    await link.idle(1_000, 60_000);

    const findings: Finding[] = [];
    const lines: string[] = [];
    const runs: { queued: Queued[]; arrival: Arrival }[] = [];
    const photo = `${SIZES.photo.width} x ${SIZES.photo.height}`;

    // BENCH_LINK_ONLY=12 (or 11,13): some targets only, while looking into one.
    const only = process.env.BENCH_LINK_ONLY?.split(',');
    const wanted = (n: string) => !only || only.includes(n);
    for (const p of wanted('11') ? [G2, SLOW_3G] : []) {
      const r = await target11(ctx, p, SIZES.t11);
      runs.push(r);
      const ratio = r.appMs / r.baseMs;
      const photos = photoCount(r.queued);
      findings.push({
        target: `11. Syncing ${SIZES.t11 === 50 ? '50' : `${SIZES.t11} (quick; 50 in full)`} queued responses with 2 photos each <= 1.3x a bare upload of the same bytes, ${describe(p)}`,
        measured: `${sec(r.appMs)} vs ${sec(r.baseMs)} = ${ratio.toFixed(2)}x (${photos} photos, ${mb(r.bytes)}; ${((r.appMs - r.baseMs) / photos / 1000).toFixed(2)} s more per photo)`,
        holds: ratio <= 1.3,
      });
      lines.push(`slow link 11, ${p.name}: ${r.queued.length} responses, ${photos} photos ${photo} JPEG 0.8 (median ${(median(r.queued.flatMap((q) => q.photos.map((x) => x.size))) / 1000).toFixed(0)} KB), ${mb(r.bytes)} with the batch bodies; requests: ${r.mix}; ${describeArrival(r.arrival, r.queued)}`);
    }

    const t12 = wanted('12') ? await target12(ctx, SLOW_3G, SIZES.t12) : undefined;
    if (t12) {
    runs.push(t12);
    const sentRatio = t12.sent / t12.photoBytes;
    findings.push({
      target: `12. The link drops at 50% of every photo upload and comes back 5 s later (${SLOW_3G.name}, ${SIZES.t12} responses): photo bytes sent <= 1.2x their size`,
      measured: `${mb(t12.sent)} for ${mb(t12.photoBytes)} = ${sentRatio.toFixed(3)}x; ${t12.drops} drops, ${t12.resumed.length} PATCHes resumed at an offset > 0 (median ${(median(t12.resumed) / 1000).toFixed(0)} KB); ${sec(t12.ms)} in all`,
      holds: sentRatio <= 1.2 && t12.drops === photoCount(t12.queued),
    });
    lines.push(`slow link 12: requests: ${t12.mix}`);
    const all = runs.reduce((a, r) => ({ responses: a.responses + r.queued.length, ok: a.ok && exactlyOnce(r.arrival, r.queued) }), { responses: 0, ok: true });
    findings.push({
      target: '12. Every response and photo arrives exactly once (server rows; stored files hashed against the originals), over the runs of 11 and 12',
      measured: runs.map((r) => describeArrival(r.arrival, r.queued)).join('; '),
      holds: all.ok,
    });
    }

    const t13 = wanted('13') ? await target13(ctx, SIZES.t13) : undefined;
    if (t13) findings.push({
      target: `13. ${SIZES.t13} responses with 2 photos queued, ${describe(G2)}: the first visible to the organization (its API list) <= 10 s after the link comes up`,
      measured: `${sec(t13.firstMs)} (all ${SIZES.t13} at ${sec(t13.allMs)}; ${t13.photosAtFirst}/${t13.photos} photos stored by then)`,
      holds: t13.firstMs <= 10_000,
    });
    lines.push(`slow link: Chromium network emulation on the page (Network.emulateNetworkConditions, throughput in bytes/s = kbps x 1000 / 8, latency per request); bytes counted by a streaming proxy in front of the API; Background Sync denied (the emulation does not reach the worker's own requests); the baseline is one fetch POST of a Blob of the same bytes to the proxy's bare endpoint, run after the app's sync on the same link`);
    return { findings, lines };
  } finally {
    await b.close();
    await link.close();
    await app.stop();
  }
}
