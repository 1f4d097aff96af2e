import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ERRORS, Upload } from '@tus/server';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../../db/migrations/20261128510000_resumable_uploads.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { storedChunks } from '../../../test/tus.js';
import { DatabaseUploadStore } from './resumable-store.js';

/** The tus DataStore over the database, on the engine of the run, below the protocol. */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let t: TestApp;
let store: DatabaseUploadStore;
beforeAll(async () => {
  t = await buildTestApp();
  store = new DatabaseUploadStore(t.app.db.kysely, 60_000);
});
afterAll(() => t.close());

async function created(size: number): Promise<string> {
  const id = randomBytes(16).toString('hex');
  await store.create(new Upload({ id, size, offset: 0, metadata: { owner: 'u1', question: 'Shelf photo' } }));
  return id;
}

/** A body arriving in 16 KB pieces, as a socket hands them over. */
const pieces = (bytes: Buffer) => Readable.from(Array.from({ length: Math.ceil(bytes.length / 16_384) }, (_, i) => bytes.subarray(i * 16_384, (i + 1) * 16_384)));

describe('DatabaseUploadStore', () => {
  it('commits a body as chunk rows of at most 256 KB, and reports the offset it committed', async () => {
    const bytes = randomBytes(700 * 1024);
    const id = await created(bytes.length);
    expect(await store.write(pieces(bytes.subarray(0, 600 * 1024)), id, 0)).toBe(600 * 1024);
    const rows = await t.app.db.kysely.selectFrom('resumable_upload_chunks').select(['chunk_offset', 'bytes']).where('upload_id', '=', id).orderBy('chunk_offset').execute();
    expect(rows.map((r) => [Number(r.chunk_offset), r.bytes.length])).toEqual([[0, 262_144], [262_144, 262_144], [524_288, 90_112]]);
    const upload = await store.getUpload(id);
    expect(upload.offset).toBe(600 * 1024);
    expect(upload.size).toBe(bytes.length);
    expect(upload.metadata).toEqual({ owner: 'u1', question: 'Shelf photo' });
    expect(await store.write(pieces(bytes.subarray(600 * 1024)), id, 600 * 1024)).toBe(bytes.length);

    const path = join(t.config.dataDir, 'uploads', `.tmp-${id}`);
    const file = await store.copyTo(id, bytes.length, path);
    expect(file).toEqual({ path, size: bytes.length, sha256: sha(bytes) });
    expect(sha(readFileSync(path))).toBe(sha(bytes));
  });

  it('keeps what arrived before the body broke off, and says nothing of bytes it did not commit', async () => {
    const bytes = randomBytes(100 * 1024);
    const id = await created(300 * 1024);
    const body = new Readable({ read() {} });
    const writing = store.write(body, id, 0);
    body.push(bytes.subarray(0, 60 * 1024));
    body.push(bytes.subarray(60 * 1024));
    setTimeout(() => body.destroy(new Error('aborted')), 50);
    await expect(writing).rejects.toThrow('aborted');
    expect((await store.getUpload(id)).offset).toBe(bytes.length);
    expect(sha(await storedChunks(t.app, id))).toBe(sha(bytes));
  });

  it('refuses bytes at an offset that has moved (another writer) or past the declared length, writing nothing', async () => {
    const id = await created(100);
    expect(await store.write(Readable.from([Buffer.alloc(40, 1)]), id, 0)).toBe(40);
    await expect(store.write(Readable.from([Buffer.alloc(40, 2)]), id, 0)).rejects.toBe(ERRORS.INVALID_OFFSET);
    await expect(store.write(Readable.from([Buffer.alloc(61, 3)]), id, 40)).rejects.toBe(ERRORS.INVALID_OFFSET);
    expect((await store.getUpload(id)).offset).toBe(40);
    expect((await storedChunks(t.app, id)).equals(Buffer.alloc(40, 1))).toBe(true);
  });

  it('copies out only an upload whose bytes are all there', async () => {
    const id = await created(100);
    await store.write(Readable.from([Buffer.alloc(50, 1)]), id, 0);
    const path = join(t.config.dataDir, 'uploads', `.tmp-${id}`);
    expect(await store.copyTo(id, 100, path)).toBeUndefined();
    expect(existsSync(path)).toBe(false);
  });

  it('answers a missing upload as tus expects (404), and removes an upload with its chunks', async () => {
    await expect(store.getUpload('0'.repeat(32))).rejects.toBe(ERRORS.FILE_NOT_FOUND);
    const id = await created(10);
    await store.write(Readable.from([Buffer.alloc(5)]), id, 0);
    await store.remove(id);
    await expect(store.getUpload(id)).rejects.toBe(ERRORS.FILE_NOT_FOUND);
    expect(await storedChunks(t.app, id)).toHaveLength(0);
    await expect(store.remove(id)).rejects.toBe(ERRORS.FILE_NOT_FOUND);
  });

  it('expires uploads created before the expiry, with their chunks', async () => {
    const old = randomBytes(16).toString('hex');
    await store.create(new Upload({ id: old, size: 10, offset: 0, metadata: {}, creation_date: new Date(Date.now() - 61_000).toISOString() }));
    await store.write(Readable.from([Buffer.alloc(5)]), old, 0);
    const fresh = await created(10);
    expect(await store.deleteExpired()).toBeGreaterThanOrEqual(1);
    await expect(store.getUpload(old)).rejects.toBe(ERRORS.FILE_NOT_FOUND);
    expect(await storedChunks(t.app, old)).toHaveLength(0);
    expect((await store.getUpload(fresh)).offset).toBe(0);
  });
});

describe('migration 20261128510000_resumable_uploads', () => {
  it('goes down and up again on this engine', async () => {
    const db = t.app.db.kysely as Kysely<any>;
    await migration.down(db);
    await expect(db.selectFrom('resumable_uploads').select('id').execute()).rejects.toThrow();
    await migration.up(db);
    expect(await db.selectFrom('resumable_upload_chunks').select('upload_id').execute()).toEqual([]);
    const id = await created(3);
    expect(await store.write(Readable.from([Buffer.from('abc')]), id, 0)).toBe(3);
  });
});
