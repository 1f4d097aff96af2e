import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhotoMsg, PENDING_PHOTO_ANSWER } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg } from '../../../test/images.js';

/** Issue 19 section 2: photos sent with tus resume from the last byte stored and attach like a photo sent whole. */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string };
let member: Awaited<ReturnType<typeof addMember>>;
let other: Awaited<ReturnType<typeof addMember>>;
const PHOTO = 'Shelf photo';
const TUS = '/api/v1/files/tus';

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app);
  survey = await createSurvey(t.app, org.id);
  member = await addMember(t.app, survey.id, org.id);
  other = await addMember(t.app, survey.id, org.id);
});
afterAll(() => t.close());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function respondWith(bytes: Buffer): Promise<string> {
  const clientId = uuidv7();
  const res = await call(t.app, member.token, {
    method: 'POST', url: '/api/v1/survey/respond',
    payload: { survey_id: survey.id, organization_id: org.id, clientId, answers: { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' }, photos: [{ question: PHOTO, clientId: uuidv7(), size: bytes.length, sha256: sha(bytes) }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return clientId;
}

function create(clientId: string, size: number, token = member.token, question = PHOTO) {
  const metadata = [`question ${b64(question)}`, `survey_id ${b64(survey.id)}`, `organization_id ${b64(org.id)}`, `clientId ${b64(clientId)}`].join(',');
  return call(t.app, token, { method: 'POST', url: TUS, headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'upload-metadata': metadata } });
}
const patch = (location: string, offset: number, data: Buffer, token = member.token) =>
  call(t.app, token, { method: 'PATCH', url: location, payload: data, headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' } });
const head = (location: string, token = member.token) => call(t.app, token, { method: 'HEAD', url: location, headers: { 'tus-resumable': '1.0.0' } });
const stored = (clientId: string) => t.app.db.kysely.selectFrom('responses').select(['answers', 'pending_photos']).where('client_id', '=', clientId).executeTakeFirstOrThrow();

describe('resumable photo uploads (tus)', () => {
  it('resumes from the offset the server holds and attaches the finished photo to its response', async () => {
    const bytes = tinyJpeg(64, 64);
    const clientId = await respondWith(bytes);
    const created = await create(clientId, bytes.length);
    expect(created.statusCode, created.body).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/api\/v1\/files\/tus\/[0-9a-f]{32}$/);

    const half = Math.floor(bytes.length / 2);
    const first = await patch(location, 0, bytes.subarray(0, half));
    expect(first.statusCode, first.body).toBe(204);
    expect((await head(location)).headers['upload-offset']).toBe(String(half));
    expect(JSON.parse((await stored(clientId)).answers)[PHOTO]).toBe(PENDING_PHOTO_ANSWER);

    // Another field user, an organization, nobody: the upload is not theirs.
    expect((await head(location, other.token)).statusCode).toBe(404);
    expect((await patch(location, half, bytes.subarray(half), other.token)).statusCode).toBe(404);
    expect((await head(location, org.token)).statusCode).toBe(403);
    expect((await head(location, null)).statusCode).toBe(401);

    const rest = await patch(location, half, bytes.subarray(half));
    expect(rest.statusCode, rest.body).toBe(204);
    const row = await stored(clientId);
    const reference = JSON.parse(row.answers)[PHOTO] as string;
    expect(rest.headers['photo-reference']).toBe(reference);
    expect(reference).toMatch(/^http:\/\/sb\.test\/api\/v1\/files\/image\//);
    expect(row.pending_photos).toBeNull();
    const image = await t.app.inject({ method: 'GET', url: new URL(reference).pathname });
    expect(image.rawPayload.equals(bytes)).toBe(true);
    // The finished upload is gone from the resumable folder; a late HEAD finds nothing.
    expect((await head(location)).statusCode).toBe(404);
    expect(readdirSync(join(t.config.dataDir, 'resumable'))).toEqual([]);
    // A phone whose reply to the last byte was lost starts again: told the photo is there already.
    const again = await create(clientId, bytes.length);
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(PhotoMsg.alreadyAttached);
  });

  it('refuses an upload no placeholder waits for, or of another size, before any byte is sent', async () => {
    const noResponse = await create(uuidv7(), 100);
    expect(noResponse.statusCode).toBe(400);
    expect(noResponse.json().msg).toBe(PhotoMsg.noPlaceholder);
    const bytes = tinyJpeg(8, 8);
    const clientId = await respondWith(bytes);
    const wrongSize = await create(clientId, bytes.length + 1);
    expect(wrongSize.statusCode).toBe(400);
    expect(wrongSize.json().msg).toBe(PhotoMsg.mismatch);
    expect((await create(clientId, bytes.length, other.token)).statusCode).toBe(400);
    expect((await create(clientId, bytes.length, member.token, 'Name of outlet')).json().msg).toBe('"Name of outlet" does not take a photo');
  });

  it('refuses finished bytes that are not the placeholder\'s photo, leaving it pending', async () => {
    const bytes = tinyJpeg(16, 16);
    const clientId = await respondWith(bytes);
    const location = (await create(clientId, bytes.length)).headers.location as string;
    const forged = Buffer.from(bytes);
    forged[forged.length - 3] = forged[forged.length - 3]! ^ 0xff;
    const res = await patch(location, 0, forged);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(PhotoMsg.mismatch);
    expect(JSON.parse((await stored(clientId)).answers)[PHOTO]).toBe(PENDING_PHOTO_ANSWER);
  });

  it('answers GET on an upload with 404 and a malformed id with 400', async () => {
    const bytes = tinyJpeg(8, 8);
    const location = (await create(await respondWith(bytes), bytes.length)).headers.location as string;
    expect((await call(t.app, member.token, { method: 'GET', url: location })).statusCode).toBe(404);
    expect((await head(`${TUS}/not-an-id`)).statusCode).toBe(400);
  });
});

/** A JPEG of about `size` bytes: a small image after comment segments of random bytes. */
function paddedJpeg(size: number): Buffer {
  const image = tinyJpeg(64, 64);
  const segments: Buffer[] = [];
  for (let left = size - image.length; left > 4; ) {
    const n = Math.min(65_533, left - 4);
    const segment = Buffer.alloc(n + 4);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(n + 2, 2);
    randomFillSync(segment, 4);
    segments.push(segment);
    left -= n + 4;
  }
  return Buffer.concat([image.subarray(0, 2), ...segments, image.subarray(2)]);
}

describe('a PATCH cut off by the network (issue 19: a reload in the middle of an upload)', () => {
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });

  /** A PATCH of all of `body` from `offset`, of which only the first `sent` bytes go out; the socket is left open. */
  const partialPatch = (location: string, offset: number, body: Buffer, sent: number) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write([`PATCH ${location} HTTP/1.1`, `host: 127.0.0.1:${port}`, `authorization: Bearer ${member.token}`, 'tus-resumable: 1.0.0', `upload-offset: ${offset}`, 'content-type: application/offset+octet-stream', `content-length: ${body.length - offset}`, '', ''].join('\r\n'));
        socket.write(body.subarray(offset, offset + sent), () => resolve(socket));
      });
      socket.on('error', reject);
    });

  /** The offset a HEAD answers once it has settled at `expected` (a cut PATCH may still hold the upload for a moment). */
  async function offsetOnceSettled(location: string, expected: number): Promise<number> {
    let offset = -1;
    for (let i = 0; i < 100 && offset !== expected; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      offset = Number((await head(location)).headers['upload-offset']);
    }
    return offset;
  }

  it.each([
    ['closed at once', (socket: Socket) => socket.destroy()],
    ['left hanging (the next request takes the upload over)', () => undefined],
  ])('keeps the bytes that arrived before the connection was %s; the upload resumes from them', async (_how, drop) => {
    const bytes = paddedJpeg(256 * 1024);
    const clientId = await respondWith(bytes);
    const location = (await create(clientId, bytes.length)).headers.location as string;
    const half = Math.floor(bytes.length / 2);
    const socket = await partialPatch(location, 0, bytes, half);
    try {
      drop(socket);
      expect(await offsetOnceSettled(location, half)).toBe(half);
      const rest = await patch(location, half, bytes.subarray(half));
      expect(rest.statusCode, rest.body).toBe(204);
      expect(JSON.parse((await stored(clientId)).answers)[PHOTO]).toBe(rest.headers['photo-reference']);
      expect(await t.app.db.kysely.selectFrom('files').select('sha256').where('client_id', '=', clientId).execute()).toHaveLength(1);
    } finally {
      socket.destroy();
    }
  }, 20_000);
});

describe('expiry of unfinished uploads', () => {
  it('removes a partial upload older than the settable expiry', async () => {
    const short = await buildTestApp({ resumableExpiryMs: 1 });
    try {
      const o = await createOrganization(short.app);
      const s = await createSurvey(short.app, o.id);
      const m = await addMember(short.app, s.id, o.id);
      const bytes = tinyJpeg(8, 8);
      const clientId = uuidv7();
      await call(short.app, m.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: s.id, organization_id: o.id, clientId, answers: { 'Name of outlet': 'x', 'Outlet type': 'Kiosk' }, photos: [{ question: PHOTO, clientId: randomUUID(), size: bytes.length, sha256: sha(bytes) }] } });
      const metadata = [`question ${b64(PHOTO)}`, `survey_id ${b64(s.id)}`, `organization_id ${b64(o.id)}`, `clientId ${b64(clientId)}`].join(',');
      const created = await call(short.app, m.token, { method: 'POST', url: TUS, headers: { 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length), 'upload-metadata': metadata } });
      const id = (created.headers.location as string).split('/').pop()!;
      await call(short.app, m.token, { method: 'PATCH', url: created.headers.location as string, payload: bytes.subarray(0, 10), headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' } });
      const dir = join(short.config.dataDir, 'resumable');
      expect(existsSync(join(dir, id))).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      await short.app.services.resumable.cleanUp();
      expect(existsSync(join(dir, id))).toBe(false);
    } finally {
      await short.close();
    }
  });
});
