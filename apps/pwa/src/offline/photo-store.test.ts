import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db, metaKey } from './db';
import { photoRow, readPhoto, readPhotos, storePhoto, PhotoUnreadableError } from './photo-store';
import { freshDb } from '../../test/offline-server';
import { accountKey } from '../session/account-key';
import { setSealingForTests } from './vault';

/**
 * Runs under happy-dom, whose Blob does not survive IndexedDB's structured clone (it comes back
 * as a plain object with no bytes), which is what iOS Safari does to some Blobs: the fallback path.
 * photo-store-blob.test.ts covers a browser that keeps Blobs.
 */
const A = accountKey('a@x.ng');
// The Blob and ArrayBuffer paths are the fallback of a browser without WebCrypto (vault.ts); sealed photos are always ArrayBuffers.
beforeEach(async () => {
  await freshDb();
  setSealingForTests(false);
});
afterEach(() => setSealingForTests(true));

const bytes = new Uint8Array([255, 216, 255, 224, 0, 16, 74, 70, 73, 70]);

describe('when the browser loses Blobs', () => {
  it('detects the loss on read-back, keeps an ArrayBuffer copy instead, and the bytes round-trip', async () => {
    await storePhoto(A, 'rec-1', 'Photo', new Blob([bytes], { type: 'image/jpeg' }));
    const row = await db.photos.get(['rec-1', 'Photo']);
    expect(row?.buffer?.byteLength).toBe(bytes.length);
    expect(row?.blob).toBeUndefined();
    const back = await readPhoto('rec-1', 'Photo');
    expect(back?.type).toBe('image/jpeg');
    expect(new Uint8Array(await back!.arrayBuffer())).toEqual(bytes);
  });

  it('remembers the device needs ArrayBuffers, so later photos skip the Blob attempt', async () => {
    await storePhoto(A, 'rec-1', 'Photo', new Blob([bytes], { type: 'image/jpeg' }));
    expect((await db.meta.get(metaKey.photoMode))?.value).toBe('buffer');
    const next = await photoRow(A, 'rec-2', 'Photo', new Blob([bytes], { type: 'image/png' }));
    expect(next.buffer).toBeDefined();
    expect(next.type).toBe('image/png');
  });

  it('reports bytes that went missing after the write instead of sending an empty photo', async () => {
    await db.photos.put({ owner: 'rec-1', question: 'Photo', blob: new Blob([]), type: 'image/jpeg', size: 10 });
    await expect(readPhoto('rec-1', 'Photo')).rejects.toBeInstanceOf(PhotoUnreadableError);
    expect(await readPhotos('rec-1')).toEqual({});
    expect(await readPhoto('rec-1', 'Other')).toBeUndefined();
  });
});
