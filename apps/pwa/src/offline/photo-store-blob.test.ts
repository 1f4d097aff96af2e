// @vitest-environment node
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { db, metaKey } from './db';
import { readPhoto, storePhoto, TRUSTED_AFTER } from './photo-store';
import { freshDb } from '../../test/offline-server';
import { accountKey } from '../session/account-key';
import { setSealingForTests } from './vault';

/** Node's Blob survives IndexedDB's structured clone, like Chrome's and Android WebView's. */
const A = accountKey('a@x.ng');
// The Blob and ArrayBuffer paths are the fallback of a browser without WebCrypto (vault.ts); sealed photos are always ArrayBuffers.
beforeEach(async () => {
  await freshDb();
  setSealingForTests(false);
});
afterEach(() => setSealingForTests(true));
afterEach(() => vi.restoreAllMocks());

it('keeps a Blob as a Blob and reads back the same bytes', async () => {
  const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
  await storePhoto(A, 'rec-1', 'Photo', new Blob([bytes], { type: 'image/jpeg' }));
  const row = await db.photos.get(['rec-1', 'Photo']);
  expect(row?.blob).toBeInstanceOf(Blob);
  expect(row?.buffer).toBeUndefined();
  expect(await db.meta.get(metaKey.photoMode)).toBeUndefined();
  const back = await readPhoto('rec-1', 'Photo');
  expect(back?.size).toBe(bytes.length);
  const read = new Uint8Array(await back!.arrayBuffer());
  expect(read.length === bytes.length && read.every((b, i) => b === bytes[i])).toBe(true);
});

it('reads back the first photos of each kind in a session, then trusts that kind', async () => {
  const readBack = vi.spyOn(db.photos, 'bulkGet');
  const photo = (i: number) => new Blob([new Uint8Array([255, 216, i])], { type: 'image/jpeg' });
  for (let i = 0; i < TRUSTED_AFTER + 2; i++) await storePhoto(A, `rec-${i}`, 'Photo', photo(i));
  expect(readBack).toHaveBeenCalledTimes(TRUSTED_AFTER);
  // A File (a camera photo kept as is) is another kind: read back on its own.
  await storePhoto(A, 'rec-file', 'Photo', new File([photo(9)], 'p.jpg', { type: 'image/jpeg' }));
  expect(readBack).toHaveBeenCalledTimes(TRUSTED_AFTER + 1);
  expect((await readPhoto(`rec-${TRUSTED_AFTER + 1}`, 'Photo'))?.size).toBe(3);
});
