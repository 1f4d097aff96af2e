// @vitest-environment node
import { beforeEach, expect, it } from 'vitest';
import { db, metaKey } from './db';
import { readPhoto, storePhoto } from './photo-store';
import { freshDb } from './test-support';

/** Node's Blob survives IndexedDB's structured clone, like Chrome's and Android WebView's. */
beforeEach(freshDb);

it('keeps a Blob as a Blob and reads back the same bytes', async () => {
  const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
  await storePhoto('rec-1', 'Photo', new Blob([bytes], { type: 'image/jpeg' }));
  const row = await db.photos.get(['rec-1', 'Photo']);
  expect(row?.blob).toBeInstanceOf(Blob);
  expect(row?.buffer).toBeUndefined();
  expect(await db.meta.get(metaKey.photoMode)).toBeUndefined();
  const back = await readPhoto('rec-1', 'Photo');
  expect(back?.size).toBe(bytes.length);
  const read = new Uint8Array(await back!.arrayBuffer());
  expect(read.length === bytes.length && read.every((b, i) => b === bytes[i])).toBe(true);
});
