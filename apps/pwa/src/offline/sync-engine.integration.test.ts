// @vitest-environment node
/**
 * The engine against the real API on a fresh database, over real HTTP (multipart included):
 * exactly-once delivery survives lost replies, concurrent runs and retries. What the server
 * stored is read back the way the organization sees it (GET /survey/organization/response).
 */
import { Msg, PENDING_PHOTO_ANSWER, routes, type ResponseListReply, type ResponseRow } from '@survey-bird/contracts';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { db } from './db';
import { enqueueResponse, getRecord, retry, updateAnswers } from './outbox';
import { syncAccount } from './sync-engine';
import { freshDb } from '../../test/offline-server';


/**
 * The API's own test kit (apps/api/test), loaded at run time: the PWA's tsconfig cannot compile
 * the API's Node sources, so the few functions used are typed here by what this file needs.
 */
interface ApiTestKit {
  buildTestApp(): Promise<{ app: { listen(options: { host: string; port: number }): Promise<string> }; close(): Promise<void> }>;
  createOrganization(app: unknown): Promise<{ id: string; token: string }>;
  createSurvey(app: unknown, organizationId: string): Promise<{ id: string }>;
  addMember(app: unknown, surveyId: string, organizationId: string): Promise<{ email: string; token: string | null }>;
  tinyJpeg(width: number, height: number): Uint8Array<ArrayBuffer>;
}
async function loadKit(): Promise<ApiTestKit> {
  const paths = ['../../../api/test/helpers.js', '../../../api/test/fixtures.js', '../../../api/test/images.js'];
  const modules = (await Promise.all(paths.map((p) => import(/* @vite-ignore */ new URL(p, import.meta.url).href)))) as object[];
  return Object.assign({}, ...modules) as ApiTestKit;
}

let kit: ApiTestKit;
let t: Awaited<ReturnType<ApiTestKit['buildTestApp']>>;
let baseUrl: string;
let org: { id: string; token: string };
let surveyId: string;
let field: { email: string; token: string };
let other: { email: string; token: string };

beforeAll(async () => {
  kit = await loadKit();
  t = await kit.buildTestApp();
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  org = await kit.createOrganization(t.app);
  surveyId = (await kit.createSurvey(t.app, org.id)).id;
  const a = await kit.addMember(t.app, surveyId, org.id);
  const b = await kit.addMember(t.app, surveyId, org.id);
  field = { email: a.email, token: a.token! };
  other = { email: b.email, token: b.token! };
});
afterAll(() => t?.close());
beforeEach(freshDb);

const answers = (outlet: string) => ({ 'Name of outlet': outlet, 'Outlet type': 'Kiosk', 'Brands stocked': ['Alpha', 'Gamma'] });
const queue = (outlet: string, photo = false, account = field.email) =>
  enqueueResponse({
    account,
    surveyId,
    organizationId: org.id,
    answers: answers(outlet),
    photos: photo ? { 'Shelf photo': new Blob([kit.tinyJpeg(16, 16)], { type: 'image/jpeg' }) } : undefined,
  });
/** Every response of the survey, as the organization's dashboard lists them. */
async function storedRows(): Promise<ResponseRow[]> {
  const rows: ResponseRow[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${baseUrl}${routes.organizationResponses.path.replace(':surveyId', surveyId)}?page=${page}`, { headers: { authorization: `Bearer ${org.token}` } });
    const reply = (await res.json()) as ResponseListReply;
    rows.push(...reply.responses);
    if (!reply.hasNextPage) return rows;
  }
}
const dueNow = (id: string) => db.outbox.update(id, { nextAttemptAt: 0 });

/** Real fetch whose replies to the first `n` calls of a path are lost after the server handled them. */
function losingReplies(path: string, n: number): typeof fetch {
  let left = n;
  return async (input, init) => {
    const res = await fetch(input, init);
    if (String(input).endsWith(path) && left-- > 0) throw new TypeError('network connection lost');
    return res;
  };
}

it('stores each response and photo exactly once although the replies were lost; the office sees the response before its photo', async () => {
  const before = (await storedRows()).length;
  const ids = [await queue('Mama Put', true), await queue('Iya Basira'), await queue('Chop Bar')];
  const flaky = losingReplies(routes.syncResponses.path, 1);
  const uploadsLost = losingReplies(routes.uploadImage.path, 1);
  let linkDown = true; // the first photo upload never reaches the server
  const both: typeof fetch = async (input, init) => {
    if (!String(input).endsWith(routes.uploadImage.path)) return flaky(input, init);
    if (linkDown) {
      linkDown = false;
      throw new TypeError('Failed to fetch');
    }
    return uploadsLost(input, init);
  };

  const first = await syncAccount({ account: field.email, token: field.token, baseUrl, fetch: both });
  expect(first).toMatchObject({ sent: 0, remaining: 3 }); // the batch reply is lost
  for (const id of ids) await dueNow(id);
  // The batch goes through (a replay with the same placeholders); the photo does not.
  const second = await syncAccount({ account: field.email, token: field.token, baseUrl, fetch: both });
  expect(second).toMatchObject({ sent: 3, failed: 0, remaining: 0 });
  const photoId = (await getRecord(ids[0]!))?.serverId;
  const early = (await storedRows()).find((r) => r._id === photoId)!;
  expect(early.answers['Shelf photo']).toBe(PENDING_PHOTO_ANSWER);
  expect((await getRecord(ids[0]!))?.photosPending).toEqual(['Shelf photo']);

  await syncAccount({ account: field.email, token: field.token, baseUrl, fetch: both }); // stored, its reply lost
  expect((await getRecord(ids[0]!))?.photosPending).toEqual(['Shelf photo']);
  await syncAccount({ account: field.email, token: field.token, baseUrl, fetch: both });
  const rows = await storedRows();
  expect(rows.length - before).toBe(3);
  for (const id of ids) {
    const record = await getRecord(id);
    expect(record?.status).toBe('synced');
    expect(record?.photosPending).toBeUndefined();
    expect(rows.filter((r) => r._id === record?.serverId)).toHaveLength(1);
  }
  const photoRecord = await getRecord(ids[0]!);
  const stored = rows.find((r) => r._id === photoRecord?.serverId)!;
  const ref = stored.answers['Shelf photo'] as string;
  expect(ref).toBe(photoRecord?.photoRefs['Shelf photo']);
  const image = await fetch(baseUrl + new URL(ref).pathname, { headers: { authorization: `Bearer ${org.token}` } });
  expect(image.status).toBe(200);
  expect(new Uint8Array(await image.arrayBuffer())).toEqual(new Uint8Array(kit.tinyJpeg(16, 16)));
  expect(await db.photos.count()).toBe(0);
});

it('two concurrent runs deliver every response exactly once', async () => {
  const before = (await storedRows()).length;
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push(await queue(`Outlet ${i}`, i % 4 === 0));
  const runs = await Promise.all([1, 2, 3].map(() => syncAccount({ account: field.email, token: field.token, baseUrl })));
  expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(12);
  const rows = await storedRows();
  expect(rows.length - before).toBe(12);
  const serverIds = await Promise.all(ids.map(async (id) => (await getRecord(id))?.serverId));
  expect(new Set(serverIds).size).toBe(12);
  for (const serverId of serverIds) expect(rows.filter((r) => r._id === serverId)).toHaveLength(1);
});

it("a refused response keeps the server's message; fixed and retried, it is received", async () => {
  const id = await enqueueResponse({ account: field.email, surveyId, organizationId: org.id, answers: { 'Outlet type': 'Kiosk' } });
  expect(await syncAccount({ account: field.email, token: field.token, baseUrl })).toMatchObject({ failed: 1 });
  expect(await getRecord(id)).toMatchObject({ status: 'failed', lastError: { status: 400, msg: Msg.fillCompulsory } });
  await updateAnswers(id, answers('Fixed'));
  await retry(id);
  expect(await syncAccount({ account: field.email, token: field.token, baseUrl })).toMatchObject({ sent: 1 });
});

it("never sends a field user's queue with another field user's token", async () => {
  const id = await queue('Mine');
  const before = (await storedRows()).length;
  expect(await syncAccount({ account: field.email, token: other.token, baseUrl })).toMatchObject({ sent: 0, authRequired: true });
  expect(await syncAccount({ account: other.email, token: other.token, baseUrl })).toMatchObject({ sent: 0, remaining: 0 });
  expect((await storedRows()).length).toBe(before);
  expect((await getRecord(id))?.status).toBe('queued');
});

/** A JPEG of about `kb` KB that the server keeps byte for byte: a small image carrying ICC profile segments. */
function bigJpeg(kb: number): Uint8Array<ArrayBuffer> {
  const small = kit.tinyJpeg(16, 16);
  const parts: Uint8Array[] = [small.subarray(0, 2)];
  const count = Math.ceil(kb / 60);
  for (let i = 0; i < count; i++) {
    const body = new Uint8Array(60_000).map((_, j) => (j * 31 + i) & 0xff);
    const id = new TextEncoder().encode('ICC_PROFILE\0');
    const len = 2 + id.length + 2 + body.length;
    parts.push(new Uint8Array([0xff, 0xe2, len >> 8, len & 0xff]), id, new Uint8Array([i + 1, count]), body);
  }
  parts.push(small.subarray(2));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

it('a photo upload cut half way resumes from the offset the server holds, and arrives once, byte for byte', async () => {
  const bytes = bigJpeg(300);
  const id = await enqueueResponse({ account: field.email, surveyId, organizationId: org.id, answers: answers('Resumed'), photos: { 'Shelf photo': new Blob([bytes], { type: 'image/jpeg' }) } });
  const { createServer, request } = await import('node:http');
  const target = new URL(baseUrl);
  const offsets: number[] = [];
  let cut = true;
  // A proxy whose link drops half way through the first photo body.
  const proxy = createServer((req, res) => {
    if (req.method === 'PATCH') offsets.push(Number(req.headers['upload-offset']));
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    let seen = 0;
    let dropped = false;
    req.on('data', (chunk: Buffer) => {
      if (dropped) return;
      if (req.method === 'PATCH' && cut && seen + chunk.length >= bytes.length / 2) {
        cut = false;
        dropped = true;
        up.write(chunk.subarray(0, Math.max(0, Math.floor(bytes.length / 2) - seen)), () => setTimeout(() => {
          up.destroy();
          req.socket.destroy();
        }, 100));
        return;
      }
      seen += chunk.length;
      up.write(chunk);
    });
    req.on('end', () => dropped || up.end());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  try {
    const first = await syncAccount({ account: field.email, token: field.token, baseUrl: proxyUrl, resumable: () => import('./photos/sync-tus') });
    expect(first).toMatchObject({ sent: 1 });
    // The office has the response; the photo is still on its way.
    const serverId = (await getRecord(id))?.serverId;
    const early = (await storedRows()).find((r) => r._id === serverId)!;
    expect(early.answers['Shelf photo']).toBe(PENDING_PHOTO_ANSWER);
    expect((await getRecord(id))?.photosPending).toEqual(['Shelf photo']);

    await syncAccount({ account: field.email, token: field.token, baseUrl: proxyUrl, resumable: () => import('./photos/sync-tus') });
    expect(offsets[0]).toBe(0);
    expect(offsets[1]).toBeGreaterThan(0);
    expect(offsets[1]).toBeLessThanOrEqual(Math.floor(bytes.length / 2));
    expect(offsets).toHaveLength(2);
    const record = await getRecord(id);
    expect(record?.photoError).toBeUndefined();
    expect(record?.photosPending).toBeUndefined();
    const rows = (await storedRows()).filter((r) => r._id === record?.serverId);
    expect(rows).toHaveLength(1);
    const ref = rows[0]!.answers['Shelf photo'] as string;
    expect(ref).toBe(record?.photoRefs['Shelf photo']);
    const image = await fetch(baseUrl + new URL(ref).pathname, { headers: { authorization: `Bearer ${org.token}` } });
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(bytes);
    expect(await db.meta.where('key').startsWith('tus:').count()).toBe(0);
  } finally {
    await new Promise((r) => proxy.close(r));
  }
});

it("opens the next photo's upload while the bytes of the one before are on the link, and both arrive once", async () => {
  const small = bigJpeg(120);
  const large = bigJpeg(240);
  const ids = [
    await enqueueResponse({ account: field.email, surveyId, organizationId: org.id, answers: answers('Ahead 1'), photos: { 'Shelf photo': new Blob([large], { type: 'image/jpeg' }) } }),
    await enqueueResponse({ account: field.email, surveyId, organizationId: org.id, answers: answers('Ahead 2'), photos: { 'Shelf photo': new Blob([small], { type: 'image/jpeg' }) } }),
  ];
  const { createServer, request } = await import('node:http');
  const target = new URL(baseUrl);
  const log: string[] = [];
  // A proxy that logs when each tus request starts and is answered, and lets photo bodies through slowly.
  const proxy = createServer((req, res) => {
    const kind = `${req.method} ${req.url?.startsWith(routes.resumableCreate.path) ? 'tus' : req.url}`;
    log.push(`start ${kind}`);
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
      r.on('end', () => log.push(`end ${kind}`));
    });
    up.on('error', () => res.destroy());
    req.on('data', (chunk: Buffer) => {
      req.pause();
      up.write(chunk, () => setTimeout(() => req.resume(), req.method === 'PATCH' ? 20 : 0));
    });
    req.on('end', () => up.end());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  try {
    expect(await syncAccount({ account: field.email, token: field.token, baseUrl: proxyUrl, resumable: () => import('./photos/sync-tus') })).toMatchObject({ sent: 2 });
    const tus = log.filter((l) => l.endsWith(' tus'));
    expect(tus.filter((l) => l === 'start POST tus')).toHaveLength(2);
    expect(tus.filter((l) => l === 'start PATCH tus')).toHaveLength(2);
    expect(tus.filter((l) => l.includes('HEAD'))).toHaveLength(0);
    // The smaller photo first; the second upload was created before the first one's bytes were all in.
    expect(tus.indexOf('start POST tus', tus.indexOf('start PATCH tus'))).toBeLessThan(tus.indexOf('end PATCH tus'));
    for (const [id, bytes] of [[ids[0]!, large], [ids[1]!, small]] as const) {
      const record = await getRecord(id);
      expect(record?.photosPending).toBeUndefined();
      const image = await fetch(baseUrl + new URL(record!.photoRefs['Shelf photo']!).pathname, { headers: { authorization: `Bearer ${org.token}` } });
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(bytes);
    }
  } finally {
    await new Promise((r) => proxy.close(r));
  }
});

it('cancels on the server (tus DELETE) the upload of a photo the phone can no longer read', async () => {
  const id = await enqueueResponse({ account: field.email, surveyId, organizationId: org.id, answers: answers('Given up'), photos: { 'Shelf photo': new Blob([bigJpeg(120)], { type: 'image/jpeg' }) } });
  // The link drops on the photo's bytes: the upload exists on the server, its URL on the phone.
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => (init?.method === 'PATCH' ? Promise.reject(new TypeError('network connection lost')) : realFetch(input, init));
  try {
    expect(await syncAccount({ account: field.email, token: field.token, baseUrl, resumable: () => import('./photos/sync-tus') })).toMatchObject({ sent: 1 });
  } finally {
    globalThis.fetch = realFetch;
  }
  const kept = await db.meta.where('key').startsWith('tus:').toArray();
  expect(kept).toHaveLength(1);
  const head = () => fetch(kept[0]!.value as string, { method: 'HEAD', headers: { authorization: `Bearer ${field.token}`, 'tus-resumable': '1.0.0' } });
  expect((await head()).status).toBe(200);

  // The photo is gone from the phone: refused, and its upload cancelled rather than left to expire.
  await db.photos.where('owner').equals(id).delete();
  await syncAccount({ account: field.email, token: field.token, baseUrl, resumable: () => import('./photos/sync-tus') });
  expect((await getRecord(id))?.photoError?.question).toBe('Shelf photo');
  expect((await head()).status).toBe(404);
  expect(await db.meta.where('key').startsWith('tus:').count()).toBe(0);
});
