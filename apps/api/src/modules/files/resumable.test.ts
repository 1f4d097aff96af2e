import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhotoMsg, PENDING_PHOTO_ANSWER } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import type { FileStoreKind } from '../../config.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg, tinyPng } from '../../../test/images.js';
import { startS3 } from '../../../test/s3-server.js';
import { cutPatch, PHOTO, storedChunks, TUS, tusClient } from '../../../test/tus.js';

/**
 * Photos sent with tus resume from the last byte stored and attach like a photo
 * sent whole. The partial uploads live in DATA_DIR/resumable with the disk photo store and
 * in the database with the others (so that several instances share them); both are run here, on
 * the engine the run is on (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

for (const fileStore of ['disk', 'postgres'] as FileStoreKind[]) {
  const inDatabase = fileStore !== 'disk';
  describe(`resumable photo uploads (tus), partial uploads ${inDatabase ? 'in the database' : 'in DATA_DIR/resumable'}`, () => {
    let t: TestApp;
    let org: Awaited<ReturnType<typeof createOrganization>>;
    let member: Awaited<ReturnType<typeof addMember>>;
    let other: Awaited<ReturnType<typeof addMember>>;
    let c: ReturnType<typeof tusClient>;

    beforeAll(async () => {
      t = await buildTestApp({ fileStore });
      org = await createOrganization(t.app);
      const survey = await createSurvey(t.app, org.id);
      member = await addMember(t.app, survey.id, org.id);
      other = await addMember(t.app, survey.id, org.id);
      c = tusClient(t.app, { surveyId: survey.id, organizationId: org.id, token: member.token });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(() => t.close());

    /** Unfinished uploads the server keeps (files in DATA_DIR/resumable, or rows). */
    const partialsLeft = async () => (inDatabase
      ? (await t.app.db.kysely.selectFrom('resumable_uploads').select('id').execute()).length
      : readdirSync(join(t.config.dataDir, 'resumable')).length);

    it('resumes from the offset the server holds and attaches the finished photo to its response', async () => {
      const bytes = tinyJpeg(64, 64);
      const clientId = await c.respondWith(bytes);
      const created = await c.create(clientId, bytes.length);
      expect(created.statusCode, created.body).toBe(201);
      const location = created.headers.location as string;
      expect(location).toMatch(/^\/api\/v1\/files\/tus\/[0-9a-f]{32}$/);

      const half = Math.floor(bytes.length / 2);
      const first = await c.patch(location, 0, bytes.subarray(0, half));
      expect(first.statusCode, first.body).toBe(204);
      expect((await c.head(location)).headers['upload-offset']).toBe(String(half));
      expect(JSON.parse((await c.stored(clientId)).answers)[PHOTO]).toBe(PENDING_PHOTO_ANSWER);

      // Another field user, an organization, nobody: the upload is not theirs.
      expect((await c.head(location, other.token)).statusCode).toBe(404);
      expect((await c.patch(location, half, bytes.subarray(half), other.token)).statusCode).toBe(404);
      expect((await c.head(location, org.token)).statusCode).toBe(403);
      expect((await c.head(location, null)).statusCode).toBe(401);

      const rest = await c.patch(location, half, bytes.subarray(half));
      expect(rest.statusCode, rest.body).toBe(204);
      const row = await c.stored(clientId);
      const reference = JSON.parse(row.answers)[PHOTO] as string;
      expect(rest.headers['photo-reference']).toBe(reference);
      expect(reference).toMatch(/^http:\/\/sb\.test\/api\/v1\/files\/image\//);
      expect(row.pending_photos).toBeNull();
      const image = await call(t.app, member.token, { method: 'GET', url: new URL(reference).pathname });
      expect(image.rawPayload.equals(bytes)).toBe(true);
      // The finished upload is gone from where partial uploads live; a late HEAD finds nothing.
      expect((await c.head(location)).statusCode).toBe(404);
      expect(await partialsLeft()).toBe(0);
      // A phone whose reply to the last byte was lost starts again: told the photo is there already.
      const again = await c.create(clientId, bytes.length);
      expect(again.statusCode).toBe(409);
      expect(again.json().msg).toBe(PhotoMsg.alreadyAttached);
    });

    it('keeps what arrived of a PATCH cut half way through, equal by SHA-256, and resumes from there', async () => {
      // 600 KB: several of the database store's 256 KB chunks.
      const bytes = tinyPng(16, 16, { padBytes: 600 * 1024 });
      const clientId = await c.respondWith(bytes);
      const location = (await c.create(clientId, bytes.length)).headers.location as string;
      const half = Math.floor(bytes.length / 2) + 1234;
      const cut = await cutPatch(t.app, member.token, location, 0, bytes, half);
      expect(await cut.status).toBe(0);

      const head = await c.head(location);
      expect(head.statusCode).toBe(200);
      expect(head.headers['upload-offset']).toBe(String(half));
      const id = location.split('/').pop()!;
      if (inDatabase) expect(sha(await storedChunks(t.app, id))).toBe(sha(bytes.subarray(0, half)));
      else expect(existsSync(join(t.config.dataDir, 'resumable', id))).toBe(true);

      const rest = await c.patch(location, half, bytes.subarray(half));
      expect(rest.statusCode, rest.body).toBe(204);
      const image = await call(t.app, member.token, { method: 'GET', url: new URL(rest.headers['photo-reference'] as string).pathname });
      expect(sha(image.rawPayload)).toBe(sha(bytes));
      const files = await t.app.db.kysely.selectFrom('files').select(['store', 'sha256']).where('client_id', '=', clientId).execute();
      expect(files).toEqual([{ store: fileStore, sha256: sha(bytes) }]);
      expect(await partialsLeft()).toBe(0);
    });

    it('a PATCH left hanging half way (a reload in the middle of an upload): the next request takes the upload over from the bytes that arrived', async () => {
      const bytes = tinyPng(16, 16, { padBytes: 600 * 1024 });
      const clientId = await c.respondWith(bytes);
      const location = (await c.create(clientId, bytes.length)).headers.location as string;
      const half = Math.floor(bytes.length / 2) + 777;
      const stalled = await cutPatch(t.app, member.token, location, 0, bytes, half, { stall: true });
      try {
        // The reloaded page asks where to go on; the stalled request still holds the upload for a moment.
        let offset = -1;
        for (let i = 0; i < 100 && offset !== half; i++) {
          if (i > 0) await new Promise((r) => setTimeout(r, 100));
          offset = Number((await c.head(location)).headers['upload-offset']);
        }
        expect(offset).toBe(half);
        const rest = await c.patch(location, half, bytes.subarray(half));
        expect(rest.statusCode, rest.body).toBe(204);
        expect(JSON.parse((await c.stored(clientId)).answers)[PHOTO]).toBe(rest.headers['photo-reference']);
        expect(await t.app.db.kysely.selectFrom('files').select('sha256').where('client_id', '=', clientId).execute()).toEqual([{ sha256: sha(bytes) }]);
      } finally {
        stalled.end();
      }
    }, 30_000);

    it('answers a PATCH at the wrong offset 409 and changes nothing', async () => {
      const bytes = tinyJpeg(24, 24);
      const location = (await c.create(await c.respondWith(bytes), bytes.length)).headers.location as string;
      expect((await c.patch(location, 0, bytes.subarray(0, 100))).statusCode).toBe(204);
      expect((await c.patch(location, 50, bytes.subarray(50, 200))).statusCode).toBe(409);
      expect((await c.head(location)).headers['upload-offset']).toBe('100');
    });

    it('refuses an upload no placeholder waits for, or of another size, before any byte is sent', async () => {
      const noResponse = await c.create(uuidv7(), 100);
      expect(noResponse.statusCode).toBe(400);
      expect(noResponse.json().msg).toBe(PhotoMsg.noPlaceholder);
      const bytes = tinyJpeg(8, 8);
      const clientId = await c.respondWith(bytes);
      const wrongSize = await c.create(clientId, bytes.length + 1);
      expect(wrongSize.statusCode).toBe(400);
      expect(wrongSize.json().msg).toBe(PhotoMsg.mismatch);
      expect((await c.create(clientId, bytes.length, other.token)).statusCode).toBe(400);
      expect((await c.create(clientId, bytes.length, member.token, 'Name of outlet')).json().msg).toBe('"Name of outlet" does not take a photo');
    });

    it("refuses finished bytes that are not the placeholder's photo, leaving it pending", async () => {
      const bytes = tinyJpeg(16, 16);
      const clientId = await c.respondWith(bytes);
      const location = (await c.create(clientId, bytes.length)).headers.location as string;
      const forged = Buffer.from(bytes);
      forged[forged.length - 3] = forged[forged.length - 3]! ^ 0xff;
      const res = await c.patch(location, 0, forged);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(PhotoMsg.mismatch);
      expect(JSON.parse((await c.stored(clientId)).answers)[PHOTO]).toBe(PENDING_PHOTO_ANSWER);
    });

    it('answers GET on an upload with 404 and a malformed id with 400', async () => {
      const bytes = tinyJpeg(8, 8);
      const location = (await c.create(await c.respondWith(bytes), bytes.length)).headers.location as string;
      expect((await call(t.app, member.token, { method: 'GET', url: location })).statusCode).toBe(404);
      expect((await c.head(`${TUS}/not-an-id`)).statusCode).toBe(400);
    });
  });

  describe(`expiry of unfinished uploads ${inDatabase ? 'in the database' : 'in DATA_DIR/resumable'}`, () => {
    it('removes a partial upload older than the settable expiry', async () => {
      const short = await buildTestApp({ resumableExpiryMs: 1, fileStore });
      try {
        const o = await createOrganization(short.app);
        const s = await createSurvey(short.app, o.id);
        const m = await addMember(short.app, s.id, o.id);
        const sc = tusClient(short.app, { surveyId: s.id, organizationId: o.id, token: m.token });
        const bytes = tinyJpeg(8, 8);
        const clientId = await sc.respondWith(bytes);
        const created = await sc.create(clientId, bytes.length);
        const id = (created.headers.location as string).split('/').pop()!;
        await sc.patch(created.headers.location as string, 0, bytes.subarray(0, 10));
        const kept = async () => (inDatabase
          ? (await short.app.db.kysely.selectFrom('resumable_uploads').select('id').where('id', '=', id).execute()).length === 1
          : existsSync(join(short.config.dataDir, 'resumable', id)));
        expect(await kept()).toBe(true);
        await new Promise((r) => setTimeout(r, 20));
        expect(await short.app.services.resumable.cleanUp()).toBe(1);
        expect(await kept()).toBe(false);
        if (inDatabase) expect(await short.app.db.kysely.selectFrom('resumable_upload_chunks').select('upload_id').where('upload_id', '=', id).execute()).toEqual([]);
      } finally {
        await short.close();
      }
    });
  });
}

describe('partial uploads with the s3 photo store', () => {
  it('live in the database (every instance sees them) and the finished photo goes to the bucket', async () => {
    const s3 = await startS3();
    const t = await buildTestApp({ fileStore: 's3', s3: s3.config });
    try {
      const org = await createOrganization(t.app);
      const survey = await createSurvey(t.app, org.id);
      const member = await addMember(t.app, survey.id, org.id);
      const c = tusClient(t.app, { surveyId: survey.id, organizationId: org.id, token: member.token });
      const bytes = tinyPng(16, 16, { padBytes: 300 * 1024 });
      const clientId = await c.respondWith(bytes);
      const location = (await c.create(clientId, bytes.length)).headers.location as string;
      const id = location.split('/').pop()!;
      const half = Math.floor(bytes.length / 2);
      expect((await c.patch(location, 0, bytes.subarray(0, half))).statusCode).toBe(204);
      expect(sha(await storedChunks(t.app, id))).toBe(sha(bytes.subarray(0, half)));
      expect(existsSync(join(t.config.dataDir, 'resumable'))).toBe(false);
      const rest = await c.patch(location, half, bytes.subarray(half));
      expect(rest.statusCode, rest.body).toBe(204);
      const files = await t.app.db.kysely.selectFrom('files').select(['store', 'sha256']).where('client_id', '=', clientId).execute();
      expect(files).toEqual([{ store: 's3', sha256: sha(bytes) }]);
      const image = await call(t.app, member.token, { method: 'GET', url: new URL(rest.headers['photo-reference'] as string).pathname });
      expect(sha(image.rawPayload)).toBe(sha(bytes));
      expect(await storedChunks(t.app, id)).toHaveLength(0);
      expect(t.app.services.resumable.locker.constructor.name).toBe(t.engine === 'postgres' ? 'PgLocker' : 'MemoryLocker');
    } finally {
      await t.close();
      await s3.close();
    }
  });
});
