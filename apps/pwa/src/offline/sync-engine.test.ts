// @vitest-environment node
// Node, not happy-dom: the engine also runs in the service worker, so it must not need a DOM.
import { ApiMsg, Msg, PhotoMsg, QuestionType, routes } from '@survey-bird/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isTokenRejected, mirrorAccounts } from './accounts';
import { accountKey, db, type AccountKey } from './db';
import { LEASE_MS } from './lock';
import { claimDue, counts, enqueueResponse, getRecord, lastSyncAt } from './outbox';
import { syncAccount } from './sync-engine';
import { setPhotosOnWifiOnly } from './sync-wifi';
import { fakeLocks, FakeServer, freshDb, photoBlob, q, survey } from '../../test/offline-server';


const ADA = accountKey('ada@example.com');
const BEN = accountKey('ben@example.com');
const P = routes.syncResponses.path;
const UPLOAD = routes.uploadImage.path;
let server: FakeServer;

function queue(answers: Record<string, string> = { Name: 'x' }, extra: { account?: AccountKey; photos?: Record<string, Blob>; surveyId?: string } = {}) {
  return enqueueResponse({ account: extra.account ?? ADA, surveyId: extra.surveyId ?? 's1', organizationId: 'org-1', answers, photos: extra.photos });
}
const sync = (account = ADA, token = 'tok-ada') => syncAccount({ account, token, fetch: server.fetch });

beforeEach(async () => {
  await freshDb();
  server = new FakeServer({ 'tok-ada': ADA, 'tok-ben': BEN, 'tok-ada-2': ADA });
  server.surveys.set('s1', survey('s1', [q('Name', QuestionType.text, true), q('Photo', QuestionType.image), q('Selfie', QuestionType.liveImages)]));
});
afterEach(() => vi.unstubAllGlobals());

describe('delivering', () => {
  it('sends queued responses, marks them synced with the server _id, purges photo bytes, records lastSyncAt', async () => {
    const id = await queue({ Name: 'Ada' }, { photos: { Photo: photoBlob(1) } });
    const summary = await sync();
    expect(summary).toEqual({ sent: 1, failed: 0, remaining: 0, authRequired: false, busy: false });
    const record = await getRecord(id);
    expect(record).toMatchObject({ status: 'synced', serverId: server.stored.get(id)?._id, photoRefs: { Photo: expect.stringMatching(/^http:\/\/sb\.test\/api\/v1\/files\/image\//) } });
    expect(server.stored.get(id)?.answers).toEqual({ Name: 'Ada', Photo: record!.photoRefs.Photo });
    expect(await db.photos.count()).toBe(0);
    expect(await lastSyncAt(ADA)).not.toBeNull();
  });

  it('sends what the phone recorded with a response (issue 18), and its clock at each send', async () => {
    const meta = { openedAt: '2026-11-12T09:00:00.000Z', durationMs: 61_000, locationAccuracy: 8, locationFixedAt: '2026-11-12T09:00:40.000Z', deviceId: 'dev-1', appVersion: '0.1.0', photoHashes: { Photo: '0123456789abcdef' } };
    await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'Ada' }, meta });
    const older = await queue({ Name: 'Ben' });
    const before = Date.now();
    await sync();
    const items = (server.paths(P)[0]!.body as { responses: Record<string, unknown>[] }).responses;
    expect(items[0]).toMatchObject(meta);
    for (const item of items) expect(Date.parse(item.sentAt as string)).toBeGreaterThanOrEqual(before);
    // A response queued without metadata (before this version) is sent as before, with the send time only.
    expect(Object.keys(items.find((i) => i.clientId === older)!).sort()).toEqual(['answers', 'capturedAt', 'clientId', 'organization_id', 'sentAt', 'survey_id']);
  });

  it('sends the phone clock with the first batch of a run only (the server reports a skew once per sync)', async () => {
    for (let i = 0; i < 51; i++) await queue({ Name: `n${i}` });
    await sync();
    const batches = server.paths(P).map((r) => (r.body as { responses: Record<string, unknown>[] }).responses);
    expect(batches.map((b) => b.length)).toEqual([50, 1]);
    expect(batches[0]!.every((i) => typeof i.sentAt === 'string')).toBe(true);
    expect(batches[1]![0]!.sentAt).toBeUndefined();
  });

  it('uploads each photo as multipart with question, survey_name, organization_name, clientId and the file under the question', async () => {
    const id = await queue({ Name: 'Ada' }, { photos: { Photo: photoBlob(3, 12) } });
    await sync();
    const [upload] = server.paths(UPLOAD);
    expect(upload?.form).toMatchObject({ question: 'Photo', survey_name: 's1', organization_name: 'org-1', clientId: id });
    expect((upload?.form?.Photo as File).size).toBe(12);
    expect((upload?.form?.Photo as File).name).toBe('photo.jpg');
  });

  it('sends at most 50 responses per batch, each exactly once', async () => {
    for (let i = 0; i < 120; i++) await queue({ Name: `n${i}` });
    const summary = await sync();
    expect(summary.sent).toBe(120);
    const sizes = server.paths(P).map((r) => (r.body as { responses: unknown[] }).responses.length);
    expect(sizes).toEqual([50, 50, 20]);
    const sent = server.sentClientIds();
    expect(new Set(sent).size).toBe(120);
    expect(sent).toHaveLength(120);
  });

  it('applies each item of a batch on its own', async () => {
    const ok = await queue({ Name: 'ok' });
    const conflict = await queue({ Name: 'conflict' });
    const invalid = await queue({}); // no compulsory Name: the server answers 400
    const forbidden = await queue({ Name: 'forbidden' });
    const gone = await queue({ Name: 'x' }, { surveyId: 'deleted' });
    const unprocessable = await queue({ Name: 'unprocessable' });
    const busy = await queue({ Name: 'busy' });
    const limited = await queue({ Name: 'limited' });
    server.itemOverrides.set(conflict, { status: 409, msg: ApiMsg.responseConflict });
    server.itemOverrides.set(forbidden, { status: 403, msg: ApiMsg.forbidden });
    server.itemOverrides.set(unprocessable, { status: 422, msg: 'unprocessable' });
    server.itemOverrides.set(busy, { status: 503, msg: ApiMsg.serviceUnavailable });
    server.itemOverrides.set(limited, { status: 429, msg: ApiMsg.tooManyRequests });

    const summary = await sync();
    expect(summary).toMatchObject({ sent: 1, failed: 5, remaining: 2, authRequired: false });
    expect((await getRecord(ok))?.status).toBe('synced');
    expect(await getRecord(conflict)).toMatchObject({ status: 'failed', lastError: { status: 409, msg: ApiMsg.responseConflict } });
    expect(await getRecord(invalid)).toMatchObject({ status: 'failed', lastError: { status: 400, msg: Msg.fillCompulsory } });
    expect(await getRecord(forbidden)).toMatchObject({ status: 'failed', lastError: { status: 403 } });
    expect(await getRecord(gone)).toMatchObject({ status: 'failed', lastError: { status: 404, msg: ApiMsg.surveyNotFound } });
    expect(await getRecord(unprocessable)).toMatchObject({ status: 'failed', lastError: { status: 422 } });
    for (const id of [busy, limited]) {
      const r = await getRecord(id);
      expect(r).toMatchObject({ status: 'queued', attempts: 1 });
      expect(r!.nextAttemptAt).toBeGreaterThanOrEqual(r!.updatedAt - 1);
    }
    expect(server.paths(P)).toHaveLength(1);
  });

  it('falls back to POST /survey/respond one by one when the batch route does not exist (older server)', async () => {
    server.batchRoute = false;
    const a = await queue({ Name: 'a' });
    const b = await queue({});
    const summary = await sync();
    expect(summary).toMatchObject({ sent: 1, failed: 1, remaining: 0 });
    expect(server.paths(routes.respond.path)).toHaveLength(2);
    expect(await getRecord(a)).toMatchObject({ status: 'synced', serverId: server.stored.get(a)?._id });
    expect(await getRecord(b)).toMatchObject({ status: 'failed', lastError: { status: 400 } });
  });

  it('marks a record failed, naming the question, when the server refuses its photo placeholder', async () => {
    const id = await queue({ Name: 'a' }, { photos: { Name: photoBlob(1) } }); // not a photo question
    const summary = await sync();
    expect(summary).toMatchObject({ sent: 0, failed: 1 });
    expect(await getRecord(id)).toMatchObject({ status: 'failed', lastError: { status: 400, msg: '"Name" does not take a photo' } });
    expect(server.paths(UPLOAD)).toHaveLength(0);
  });

  it('sends nothing when no record is due (the run only pulls what became of sent responses)', async () => {
    const id = await queue();
    await db.outbox.update(id, { nextAttemptAt: Date.now() + 60_000 });
    expect(await sync()).toMatchObject({ sent: 0, remaining: 1 });
    expect(server.sentClientIds()).toEqual([]);
    expect(server.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });
});

describe('responses first, photos after (issue 19)', () => {
  it('sends every response before any photo, then the photos one at a time, smallest response first', async () => {
    const big = await queue({ Name: 'big' }, { photos: { Photo: photoBlob(1, 5000) } });
    const small = await queue({ Name: 'small' }, { photos: { Photo: photoBlob(2, 800), Selfie: photoBlob(3, 900) } });
    expect(await sync()).toMatchObject({ sent: 2, remaining: 0 });
    const order = server.requests.filter((r) => r.method === 'POST').map((r) => (r.path === UPLOAD ? `${r.form?.clientId === small ? 'small' : 'big'}:${String(r.form?.question)}` : r.path));
    expect(order).toEqual([P, 'small:Photo', 'small:Selfie', 'big:Photo']);
    expect(server.stored.get(big)?.answers.Photo).toBe((await getRecord(big))?.photoRefs.Photo);
  });

  it('keeps a photo pending (bytes on the phone) when its upload gets no answer; the response is received; the next run sends it', async () => {
    const id = await queue({ Name: 'Ada' }, { photos: { Photo: photoBlob(1) } });
    server.override(UPLOAD, 'network');
    expect(await sync()).toMatchObject({ sent: 1, remaining: 0 });
    expect(server.stored.get(id)?.answers.Photo).toBe('pending upload');
    expect(await getRecord(id)).toMatchObject({ status: 'synced', photosPending: ['Photo'] });
    expect(await db.photos.count()).toBe(1);

    await sync();
    const record = await getRecord(id);
    expect(record?.photosPending).toBeUndefined();
    expect(server.stored.get(id)?.answers.Photo).toBe(record?.photoRefs.Photo);
    expect(await db.photos.count()).toBe(0);
    expect(server.sentClientIds()).toEqual([id]);
  });

  it('notes a refused photo on the record and keeps it pending', async () => {
    const id = await queue({ Name: 'Ada' }, { photos: { Photo: photoBlob(1) } });
    server.override(UPLOAD, { status: 400, msg: PhotoMsg.mismatch });
    await sync();
    expect(await getRecord(id)).toMatchObject({ status: 'synced', photosPending: ['Photo'], photoError: { question: 'Photo', status: 400, msg: PhotoMsg.mismatch } });
  });

  it('"Send photos on Wi-Fi only" sends the response on a mobile network and holds its photo until Wi-Fi', async () => {
    await setPhotosOnWifiOnly(true);
    vi.stubGlobal('navigator', { ...globalThis.navigator, connection: { type: 'cellular' } });
    const id = await queue({ Name: 'Ada' }, { photos: { Photo: photoBlob(1) } });
    expect(await sync()).toMatchObject({ sent: 1 });
    expect(server.paths(UPLOAD)).toHaveLength(0);
    expect(await getRecord(id)).toMatchObject({ status: 'synced', photosPending: ['Photo'] });

    vi.stubGlobal('navigator', { ...globalThis.navigator, connection: { type: 'wifi' } });
    await sync();
    expect(server.paths(UPLOAD)).toHaveLength(1);
    expect((await getRecord(id))?.photosPending).toBeUndefined();
  });

  it('never holds photos where the browser does not report the connection type', async () => {
    await setPhotosOnWifiOnly(true);
    await queue({ Name: 'Ada' }, { photos: { Photo: photoBlob(1) } });
    await sync();
    expect(server.paths(UPLOAD)).toHaveLength(1);
  });

  it('a fix of a returned response still uploads its photos before it', async () => {
    const id = await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'fixed' }, photos: { Photo: photoBlob(1) }, revisionOf: 'resp-9' });
    await sync();
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([UPLOAD, P]);
    const [batch] = server.paths(P);
    expect((batch?.body as { responses: { photos?: unknown }[] }).responses[0]?.photos).toBeUndefined();
    expect(server.stored.get(id)?.answers.Photo).toMatch(/^http:\/\/sb\.test\//);
  });
});

describe('device report (issue 18)', () => {
  const device = { id: 'phone-ada', appVersion: '0.1.0+2026-11-25' };

  it("ends a run with what is still on the phone: waiting, refused and their photos", async () => {
    await queue({ Name: 'sent' });
    await sync();
    server.override(P, { status: 503, msg: ApiMsg.serviceUnavailable, retryAfter: '1' });
    await queue({ Name: 'held' }, { photos: { Photo: photoBlob(2) } });
    await syncAccount({ account: ADA, token: 'tok-ada', fetch: server.fetch, device });
    expect(server.paths(routes.reportDevice.path)).toHaveLength(0);

    const refused = await queue({ Name: 'refused' });
    server.itemOverrides.set(refused, { status: 400, msg: 'Kindly fill all compulsory fields' });
    const before = Date.now();
    await syncAccount({ account: ADA, token: 'tok-ada', fetch: server.fetch, device });
    const [report] = server.paths(routes.reportDevice.path);
    // 'held' is backing off after the 503, with its photo; 'refused' came back failed.
    expect(report?.body).toMatchObject({ deviceId: 'phone-ada', appVersion: '0.1.0+2026-11-25', waiting: 1, failed: 1, photosWaiting: 1 });
    expect(Date.parse((report?.body as { lastSyncAt: string }).lastSyncAt)).toBeGreaterThanOrEqual(before);
  });

  it("is never asked of an office account's session, nor the changes feed or earnings (field-user routes, 403 to others)", async () => {
    server.roles.set(BEN, 'organization');
    const none = { count: 0, amount: 0 };
    server.earnings = { awaitingReview: none, owed: none, paid: { ...none, lastPaidAt: null }, returned: none, rejected: none, held: [] };
    await syncAccount({ account: BEN, token: 'tok-ben', fetch: server.fetch, device });
    expect(server.paths(routes.currentUser.path)).toHaveLength(1);
    for (const route of [routes.reportDevice, routes.myResponseChanges, routes.myEarnings]) expect(server.paths(route.path)).toHaveLength(0);
    // A field user's run on the same phone still asks for all three.
    await syncAccount({ account: ADA, token: 'tok-ada', fetch: server.fetch, device });
    for (const route of [routes.reportDevice, routes.myResponseChanges, routes.myEarnings]) expect(server.paths(route.path)).toHaveLength(1);
  });

  it('is not sent by a run without device details (the service worker), nor when the server is unreachable', async () => {
    await queue({ Name: 'x' });
    await sync();
    expect(server.paths(routes.reportDevice.path)).toHaveLength(0);
    await queue({ Name: 'y' });
    server.override(P, 'network');
    await syncAccount({ account: ADA, token: 'tok-ada', fetch: server.fetch, device });
    expect(server.paths(routes.reportDevice.path)).toHaveLength(0);
  });
});

describe('retrying', () => {
  it('sends the same photo placeholders across a retry after a 503 on the batch, then each photo once', async () => {
    const id = await queue({ Name: 'Ada' }, { photos: { Photo: photoBlob(1, 3000), Selfie: photoBlob(2) } });
    server.override(P, { status: 503, msg: ApiMsg.serviceUnavailable, retryAfter: '5' });
    const first = await sync();
    expect(first).toMatchObject({ sent: 0, failed: 0, remaining: 1 });
    const after503 = await getRecord(id);
    expect(after503).toMatchObject({ status: 'queued', attempts: 1, lastError: { status: 503 } });
    expect(Object.keys(after503!.photoPlaceholders!).sort()).toEqual(['Photo', 'Selfie']);
    expect(after503!.photoPlaceholders!.Photo).toMatchObject({ size: 3000, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(server.paths(UPLOAD)).toHaveLength(0);
    expect(after503!.nextAttemptAt - after503!.updatedAt).toBeGreaterThanOrEqual(4_900);

    await db.outbox.update(id, { nextAttemptAt: 0 });
    expect(await sync()).toMatchObject({ sent: 1, remaining: 0 });
    const [a, b] = server.paths(P).map((r) => (r.body as { responses: { photos?: unknown[] }[] }).responses[0]!.photos);
    expect(b).toEqual(a);
    // Smallest first.
    expect(server.paths(UPLOAD).map((r) => r.form?.question)).toEqual(['Selfie', 'Photo']);
    const record = await getRecord(id);
    expect(record?.photosPending).toBeUndefined();
    expect(server.stored.get(id)?.answers).toMatchObject({ Photo: record!.photoRefs.Photo, Selfie: record!.photoRefs.Selfie });
    expect(await db.photos.count()).toBe(0);
  });

  it('keeps everything queued with backoff when the network is down, and stops at the first failure', async () => {
    const ids = [await queue(), await queue()];
    server.override(routes.currentUser.path, 'network');
    const summary = await sync(ADA, 'tok-ada-2');
    expect(summary).toMatchObject({ sent: 0, failed: 0, remaining: 2, authRequired: false });
    for (const id of ids) expect(await getRecord(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: { status: 0 } });
    expect(server.requests).toHaveLength(1);
  });

  it('treats a 200 whose reply is cut off as not delivered; the resend is answered with the same _id', async () => {
    const id = await queue();
    server.override(P, { status: 200, raw: '{"results":[{"clientI' });
    server.override(P, 'network');
    await sync();
    expect((await getRecord(id))?.status).toBe('queued');
    await db.outbox.update(id, { nextAttemptAt: 0 });
    await sync();
    await db.outbox.update(id, { nextAttemptAt: 0 });
    await sync();
    expect((await getRecord(id))?.status).toBe('synced');
    expect(server.stored.size).toBe(1);
  });
});

describe('accounts and tokens', () => {
  it("never sends one account's records with another account's token", async () => {
    const adas = [await queue({ Name: 'a1' }), await queue({ Name: 'a2' })];
    const bens = [await queue({ Name: 'b1' }, { account: BEN })];
    expect(await sync(BEN, 'tok-ben')).toMatchObject({ sent: 1, remaining: 0 });
    expect(server.sentClientIds()).toEqual(bens);
    for (const id of adas) expect((await getRecord(id))?.status).toBe('queued');
    expect(server.paths(P).every((r) => r.token === 'tok-ben')).toBe(true);
  });

  it("refuses a token that belongs to another account (checked with GET /user) and sends nothing", async () => {
    await queue({ Name: 'a1' });
    const summary = await sync(ADA, 'tok-ben');
    expect(summary).toMatchObject({ sent: 0, authRequired: true, remaining: 1 });
    expect(server.sentClientIds()).toEqual([]);
    expect(await isTokenRejected(ADA, 'tok-ben')).toBe(true);
  });

  it('on 401 keeps the queue, pauses the account until a new token is mirrored, then sends', async () => {
    await mirrorAccounts([{ email: ADA, token: 'tok-ada' }]);
    const id = await queue();
    server.override(P, { status: 401, msg: Msg.invalidOrExpiredToken });
    expect(await sync()).toMatchObject({ sent: 0, authRequired: true, remaining: 1 });
    expect(await getRecord(id)).toMatchObject({ status: 'queued', attempts: 0 });

    const before = server.requests.length;
    expect(await sync()).toMatchObject({ authRequired: true });
    expect(server.requests).toHaveLength(before);

    await mirrorAccounts([{ email: ADA, token: 'tok-ada-2' }]);
    expect(await sync(ADA, 'tok-ada-2')).toMatchObject({ sent: 1, authRequired: false });
  });
});

describe('one run at a time', () => {
  it('two concurrent runs for one account (IndexedDB lease): each record is sent exactly once', async () => {
    for (let i = 0; i < 7; i++) await queue({ Name: `n${i}` }, { photos: { Photo: photoBlob(i) } });
    const [x, y] = await Promise.all([sync(), sync()]);
    expect([x.busy, y.busy].sort()).toEqual([false, true]);
    expect(x.sent + y.sent).toBe(7);
    const sent = server.sentClientIds();
    expect(sent).toHaveLength(7);
    expect(new Set(sent).size).toBe(7);
    expect(server.paths(UPLOAD)).toHaveLength(7);
    expect(await counts(ADA)).toMatchObject({ synced: 7, queued: 0, sending: 0 });
  });

  it('two concurrent runs with Web Locks: the second finds the lock taken', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks });
    for (let i = 0; i < 3; i++) await queue({ Name: `n${i}` });
    let during: Awaited<ReturnType<typeof sync>> | undefined;
    server.onRequest = async (req) => {
      if (req.path === P && !during) during = await sync();
    };
    const first = await sync();
    expect(during).toMatchObject({ busy: true, sent: 0 });
    expect(first.sent).toBe(3);
    expect(server.sentClientIds()).toHaveLength(3);
    expect(locks.held.size).toBe(0);
  });

  it('a run started while another holds the lease in another context waits for it to expire', async () => {
    const id = await queue();
    await db.meta.put({ key: `lease:${ADA}`, value: { holder: 'other-tab', expiresAt: Date.now() + 60_000, locked: false } });
    expect(await sync()).toMatchObject({ busy: true, sent: 0 });
    expect((await getRecord(id))?.status).toBe('queued');
    await db.meta.put({ key: `lease:${ADA}`, value: { holder: 'other-tab', expiresAt: Date.now() - 1, locked: false } });
    expect(await sync()).toMatchObject({ busy: false, sent: 1 });
  });
});

describe('crash recovery', () => {
  it('puts records stuck in sending by a crashed run back in the queue once the lease has passed', async () => {
    const id = await queue();
    await claimDue(accountKey(ADA), { run: 'crashed', at: Date.now() - LEASE_MS - 1, locked: false }, Date.now(), 50);
    expect((await getRecord(id))?.status).toBe('sending');
    expect(await sync()).toMatchObject({ sent: 1, remaining: 0 });
    expect(server.sentClientIds()).toEqual([id]);
  });

  it('leaves a fresh claim alone (its run may be alive), but takes over at once from a dead Web Lock holder', async () => {
    const id = await queue();
    await claimDue(accountKey(ADA), { run: 'alive?', at: Date.now(), locked: false }, Date.now(), 50);
    expect(await sync()).toMatchObject({ sent: 0, remaining: 1 });

    await db.outbox.update(id, { claim: { run: 'dead-tab', at: Date.now(), locked: true } });
    vi.stubGlobal('navigator', { locks: fakeLocks() });
    expect(await sync()).toMatchObject({ sent: 1, remaining: 0 });
  });

  it("ignores a late answer for a record another run has taken over", async () => {
    const id = await queue();
    server.onRequest = async (req) => {
      if (req.path !== P) return;
      // While this batch is in flight, the lease is stolen and the record re-claimed elsewhere.
      await db.meta.put({ key: `lease:${ADA}`, value: { holder: 'thief', expiresAt: Date.now() + 60_000, locked: false } });
      await db.outbox.update(id, { claim: { run: 'thief', at: Date.now(), locked: false } });
    };
    await sync();
    expect(await getRecord(id)).toMatchObject({ status: 'sending', claim: { run: 'thief' } });
  });
});
