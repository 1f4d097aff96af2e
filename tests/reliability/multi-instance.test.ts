import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { drive, Ledger, makeItem, PHOTO_QUESTION, photoBytes, sendPhoto, settle, type Item } from './harness/field.ts';
import { call, request } from './harness/http.ts';
import { RoundRobinProxy } from './harness/proxy.ts';
import { ApiProcess, FULL, createPgDatabase, figure, removeDir, sleep, tempDataDir, type PgDatabase } from './harness/server.ts';
import { fileIdOf, World } from './harness/world.ts';

/**
 * Issue 21: two API instances with their own DATA_DIR on one fresh PostgreSQL database, behind a
 * round-robin proxy (harness/proxy.ts). Through the proxy: sign-in, registration, photos, single
 * and batch responses, the table and an export; every photo readable through either instance.
 * Then SIGTERM to one instance in the middle of a 2,000-response flood and of a photo upload, and a
 * restart: every acknowledged response and photo must be stored exactly once, with equal bytes.
 * No JWT_SECRET is given: the instances share the one the first kept in the database.
 */
// 2,000 in the full profile; 500 in CI's quick one, which still SIGTERMs mid-flood.
const FLOOD = Number(process.env.MULTI_FLOOD ?? (FULL ? 2_000 : 500));

/** The harness World, reached through the proxy instead of one instance. */
class ProxiedWorld extends World {
  proxyUrl = '';
  override get url(): string {
    return this.proxyUrl;
  }
}

describe('two instances on one PostgreSQL behind a round-robin proxy', () => {
  let pgdb: PgDatabase | undefined;
  const apis: ApiProcess[] = [];
  let proxy: RoundRobinProxy | undefined;
  const dirs = [tempDataDir('multi-a'), tempDataDir('multi-b')];
  afterAll(async () => {
    await proxy?.close();
    for (const api of apis) await api.stop();
    await pgdb?.drop();
    for (const d of dirs) removeDir(d);
  });

  it(`serves both, and SIGTERM to one mid-flood of ${FLOOD} responses loses nothing acknowledged`, async () => {
    pgdb = await createPgDatabase();
    for (const dataDir of dirs) apis.push(new ApiProcess({ dataDir, databaseUrl: pgdb.url, env: { JWT_SECRET: '', FILE_STORE: '', SHUTDOWN_GRACE_MS: '20000', RATE_LIMIT_MAX: '10' } }));
    // Started together: migrations and the demo seed run once (one DATA_DIR gets the demo logins).
    await Promise.all(apis.map((a) => a.start()));
    const seeded = dirs.filter((d) => existsSync(join(d, 'demo-logins.json')));
    expect(seeded).toHaveLength(1);
    proxy = new RoundRobinProxy(apis.map((a) => a.url));
    await proxy.start();

    const world = new ProxiedWorld('postgres', seeded[0]!);
    world.proxyUrl = proxy.url;
    world.pg = pgdb;
    world.api = apis[0]!;
    await world.signIn();
    const users = await world.inviteFieldUsers(4, 'multi');
    const ledger = new Ledger();
    ledger.tolerated = new Set([502, 503]);

    // 1. Photos, single and batch responses through the proxy; then the table and an export.
    const warm: Item[] = Array.from({ length: 200 }, (_, i) => makeItem(world, i));
    await drive({ world, users, items: warm, ledger, concurrency: 4, batchMax: 10, photoRate: 0.3 });
    expect(await settle(world, users, warm, ledger)).toBe(0);
    expect(ledger.photoRefs.size).toBeGreaterThan(20);
    const table = await request(proxy.url, { path: `/api/v1/survey/organization/response/${world.surveyId}`, token: world.orgToken });
    expect(table.kind === 'reply' && table.status).toBe(200);
    expect(table.kind === 'reply' && (table.body.totalCount as number)).toBeGreaterThanOrEqual(200);
    const exported = await request(proxy.url, { path: `/api/v1/survey/organization/response/download/${world.surveyId}`, token: world.orgToken });
    expect(exported.kind === 'reply' && exported.status).toBe(200);
    expect(exported.kind === 'reply' && exported.text.startsWith('PK')).toBe(true);
    expect([...proxy.served.values()].every((n) => n > 50)).toBe(true);

    // 1b. Limits hold across the instances: 11 wrong passwords alternating between A and B are
    //     refused at the 11th (the counters live in PostgreSQL), and one user's second export
    //     through the other instance is 429 while the first runs (the leases do too).
    const wrong: number[] = [];
    for (let i = 0; i < 11; i++) {
      const reply = await request(apis[i % 2]!.url, { method: 'POST', path: '/api/v1/user/login', body: { email: 'nobody-multi@example.com', password: `wrong-${i}` } });
      wrong.push(reply.kind === 'reply' ? reply.status : 0);
    }
    expect(wrong.slice(0, 10).every((s) => s === 400 || s === 401 || s === 404), wrong.join(',')).toBe(true);
    expect(wrong[10]).toBe(429);
    const exportPath = `/api/v1/survey/organization/response/download/${world.surveyId}`;
    const both = await Promise.all(apis.map((a) => request(a.url, { path: exportPath, token: world.orgToken })));
    expect(both.map((r) => (r.kind === 'reply' ? r.status : 0)).sort()).toEqual([200, 429]);

    // 1c. Resumable photo uploads (tus) go on through the other instance (the partial upload and its
    //     lock live in PostgreSQL). Through the proxy: the first half lands on one instance, the rest on
    //     the other. Then a PATCH that stalls on A (a dead link) while B is asked where the upload stands:
    //     A lets go when B asks, keeping what arrived, and B takes the rest.
    const tusUser = users[0]!.token;
    const viaProxy = await startResumable(proxy.url, world, tusUser, photoBytes(300));
    const half = Math.floor(viaProxy.photo.length / 2);
    const firstHalf = await tusPatch(proxy.url, viaProxy.location, tusUser, 0, viaProxy.photo.subarray(0, half));
    expect(firstHalf.status).toBe(204);
    const firstOn = proxy.log.filter((l) => l.method === 'PATCH' && l.path === viaProxy.location)[0]!.upstream;
    const other = apis.map((a) => a.url).find((u) => u !== firstOn)!;
    const offsetSeen = await fetch(`${other}${viaProxy.location}`, { method: 'HEAD', headers: tusHeaders(tusUser) });
    expect(offsetSeen.headers.get('upload-offset')).toBe(String(half));
    const secondHalf = await tusPatch(proxy.url, viaProxy.location, tusUser, half, viaProxy.photo.subarray(half));
    expect(secondHalf.status).toBe(204);
    const patches = proxy.log.filter((l) => l.method === 'PATCH' && l.path === viaProxy.location);
    expect(patches.map((l) => l.upstream), 'the two halves went to different instances').toEqual([firstOn, other]);
    const stalledUpload = await startResumable(apis[0]!.url, world, tusUser, photoBytes(400));
    const part = 150 * 1024 + 7;
    const stalled = await stallingPatch(apis[0]!.url, stalledUpload.location, tusUser, stalledUpload.photo, part);
    const takeover = performance.now();
    const onB = await fetch(`${apis[1]!.url}${stalledUpload.location}`, { method: 'HEAD', headers: tusHeaders(tusUser) });
    const takeoverMs = performance.now() - takeover;
    expect(onB.status).toBe(200);
    expect(onB.headers.get('upload-offset')).toBe(String(part));
    const restOnB = await tusPatch(apis[1]!.url, stalledUpload.location, tusUser, part, stalledUpload.photo.subarray(part));
    expect(restOnB.status).toBe(204);
    stalled.end();
    for (const [upload, reply] of [[viaProxy, secondHalf], [stalledUpload, restOnB]] as const) {
      const reference = reply.headers.get('photo-reference') ?? '';
      expect(reference).toMatch(/\/api\/v1\/files\/image\//);
      for (const api of apis) {
        const got = await fetch(`${api.url}${new URL(reference).pathname}`, { headers: { authorization: `Bearer ${world.orgToken}` } });
        expect(got.status).toBe(200);
        expect(sha(Buffer.from(await got.arrayBuffer()))).toBe(sha(upload.photo));
      }
    }
    figure('multi-instance-resumable', `a tus upload half through each instance via the proxy; a PATCH stalled on A at ${part} bytes taken over by B's HEAD in ${(takeoverMs / 1000).toFixed(1)} s (tus's drain time is 3 s), finished on B, readable through both`);

    // 2. The flood; at 30% of it, a photo upload straight to instance A and, 5 ms later, SIGTERM to A.
    const flood: Item[] = Array.from({ length: FLOOD }, (_, i) => makeItem(world, 1_000 + i));
    const extra = makeItem(world, 99_999);
    const extraPhoto = photoBytes(64);
    const base = ledger.acked.size;
    let stopping: Promise<void> | undefined;
    let ackedAtSignal = 0;
    const t0 = performance.now();
    await drive({
      world, users, items: flood, ledger, concurrency: 8, batchMax: 20, photoRate: 0.05, timeoutMs: 30_000,
      onProgress: () => {
        if (stopping || ledger.acked.size < base + FLOOD * 0.3) return;
        ackedAtSignal = ledger.acked.size - base;
        stopping = (async () => {
          const upload = sendPhoto(apis[0]!.url, users[0]!.token, extra, extraPhoto, ledger, { timeoutMs: 30_000 });
          await sleep(5);
          await apis[0]!.stop();
          await upload;
          await apis[0]!.start();
        })();
      },
    });
    await stopping;
    const floodMs = performance.now() - t0;
    expect(stopping, 'instance A was stopped during the flood').toBeDefined();
    expect(apis[0]!.exits.at(-1), 'SIGTERM ends the process cleanly').toEqual({ code: 0, signal: null });
    const inDoubt = FLOOD - flood.filter((i) => ledger.acked.has(i.clientId)).length;
    expect(await settle(world, users, flood, ledger)).toBe(0);
    expect(ledger.problems).toEqual([]);

    // 3. Every acknowledged response is stored once under the _id it was given.
    const db = await world.inspector();
    try {
      const rows = await db.all<{ client_id: string; id: string }>('select client_id, id from responses where survey_id = ?', [world.surveyId]);
      const byClient = new Map<string, string[]>();
      for (const r of rows) byClient.set(r.client_id, [...(byClient.get(r.client_id) ?? []), r.id]);
      const wrong = [...ledger.acked].filter(([clientId, id]) => byClient.get(clientId)?.length !== 1 || byClient.get(clientId)![0] !== id);
      expect(wrong).toEqual([]);
      expect(ledger.acked.size).toBe(200 + FLOOD);

      // 4. Every acknowledged photo: one row, bytes in PostgreSQL, read back through either instance
      //    equal to what the row recorded at the acknowledgement (and, for the upload cut by the
      //    SIGTERM, to the bytes sent: the harness keeps those).
      const files = await db.all<{ id: string; client_id: string; store: string; sha256: string }>('select id, client_id, store, sha256 from files');
      const rowsPerClient = new Map<string, number>();
      for (const f of files) rowsPerClient.set(f.client_id, (rowsPerClient.get(f.client_id) ?? 0) + 1);
      expect([...ledger.photoRefs.keys()].filter((c) => rowsPerClient.get(c) !== 1)).toEqual([]);
      const byId = new Map(files.map((f) => [f.id, f]));
      const expected = new Map<string, string>();
      for (const [clientId, ref] of ledger.photoRefs) {
        const row = byId.get(fileIdOf(ref));
        expect(row?.store, ref).toBe('postgres');
        expected.set(fileIdOf(ref), clientId === extra.clientId ? sha(extraPhoto) : row!.sha256);
      }
      if (ledger.photoRefs.has(extra.clientId)) expect(byId.get(fileIdOf(ledger.photoRefs.get(extra.clientId)!))!.sha256).toBe(sha(extraPhoto));
      const blobs = await db.all<{ n: number }>('select count(*) as n from file_blobs');
      expect(Number(blobs[0]!.n)).toBe(files.length);
      const unreadable: string[] = [];
      for (const [id, hash] of expected) {
        for (const api of apis) {
          const got = await fetch(`${api.url}/api/v1/files/image/${id}`, { headers: { authorization: `Bearer ${world.orgToken}` } });
          const bytes = Buffer.from(await got.arrayBuffer());
          if (got.status !== 200 || sha(bytes) !== hash) unreadable.push(`${id} via ${api.url}: ${got.status}`);
        }
      }
      expect(unreadable).toEqual([]);
      figure('multi-instance', `${FLOOD} responses in ${(floodMs / 1000).toFixed(1)} s through 2 instances; SIGTERM to A after ${ackedAtSignal} acknowledged; ${inDoubt} unanswered then resent; ${expected.size} photos readable through both (extra upload ${ledger.photoRefs.has(extra.clientId) ? 'acknowledged' : 'refused, not stored'}); replies ${ledger.tally.toString()}; proxy ${[...proxy.served.values()].join('/')}`);
      if (!ledger.photoRefs.has(extra.clientId)) expect(files.some((f) => f.client_id === extra.clientId)).toBe(false);
    } finally {
      await db.close();
    }
  });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const tusHeaders = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', ...extra });

/** A response sent with its photo's placeholder, then the photo's tus upload created at `base`. */
async function startResumable(base: string, world: World, token: string, photo: Buffer): Promise<{ photo: Buffer; location: string }> {
  const item = makeItem(world, Math.floor(Math.random() * 1e9));
  await call(base, { path: '/api/v1/survey/respond', token, body: { ...item, photos: [{ question: PHOTO_QUESTION, clientId: randomUUID(), size: photo.length, sha256: sha(photo) }] } });
  const metadata = [`question ${b64(PHOTO_QUESTION)}`, `survey_id ${b64(world.surveyId)}`, `organization_id ${b64(world.organizationId)}`, `clientId ${b64(item.clientId)}`].join(',');
  const created = await fetch(`${base}/api/v1/files/tus`, { method: 'POST', headers: tusHeaders(token, { 'upload-length': String(photo.length), 'upload-metadata': metadata }) });
  expect(created.status).toBe(201);
  return { photo, location: created.headers.get('location') ?? '' };
}

const tusPatch = (base: string, location: string, token: string, offset: number, data: Buffer) =>
  fetch(`${base}${location}`, { method: 'PATCH', headers: tusHeaders(token, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }), body: data });

/** A PATCH declaring all of `data` that sends `sent` bytes and then goes quiet, as over a dead link; end() hangs up. */
async function stallingPatch(base: string, location: string, token: string, data: Buffer, sent: number): Promise<{ end(): void }> {
  const url = new URL(`${base}${location}`);
  const req = http.request({ host: url.hostname, port: url.port, method: 'PATCH', path: url.pathname, agent: false, headers: tusHeaders(token, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(data.length) }) });
  req.on('error', () => undefined);
  req.on('response', (res) => res.resume());
  await new Promise<void>((resolve) => req.write(data.subarray(0, sent), () => resolve()));
  await sleep(300);
  return { end: () => req.destroy() };
}
