import { db, metaKey, type PhotoRow } from './db';

/**
 * Photo bytes in IndexedDB. A Blob is stored as is where the browser keeps Blobs faithfully; iOS
 * Safari has handed back 0-byte or unreadable Blobs, so every write is read back and, if the bytes
 * do not match, rewritten as an ArrayBuffer copy and the device switched to ArrayBuffers for good
 * (meta 'photoMode'). Callers only see Blobs: storePhoto / readPhoto hide which one is kept.
 */
export type PhotoMode = 'blob' | 'buffer';

export class PhotoUnreadableError extends Error {
  constructor(readonly question: string) {
    super(`The photo for "${question}" could not be read on this phone; take it again`);
    this.name = 'PhotoUnreadableError';
  }
}

let cachedMode: PhotoMode | undefined;

async function currentMode(): Promise<PhotoMode> {
  if (cachedMode) return cachedMode;
  const row = await db.meta.get(metaKey.photoMode);
  cachedMode = row?.value === 'buffer' ? 'buffer' : 'blob';
  return cachedMode;
}

async function switchToBuffers(): Promise<void> {
  cachedMode = 'buffer';
  await db.meta.put({ key: metaKey.photoMode, value: 'buffer' });
}

/** For tests: forget the remembered mode (the database was deleted). */
export function resetPhotoModeCache(): void {
  cachedMode = undefined;
}

/**
 * The row to write for a photo. Async work (copying bytes) happens here, before the caller opens
 * its transaction: an IndexedDB transaction commits as soon as it waits on anything else.
 */
export async function photoRow(owner: string, question: string, blob: Blob, mode?: PhotoMode): Promise<PhotoRow> {
  const type = blob.type || 'image/jpeg';
  if ((mode ?? (await currentMode())) === 'buffer') return { owner, question, buffer: await blob.arrayBuffer(), type, size: blob.size };
  return { owner, question, blob, type, size: blob.size };
}

async function readable(row: PhotoRow | undefined): Promise<Blob | undefined> {
  if (!row) return undefined;
  if (row.buffer) return row.buffer.byteLength === row.size ? new Blob([row.buffer], { type: row.type }) : undefined;
  const blob = row.blob;
  if (!(blob instanceof Blob) || blob.size !== row.size) return undefined;
  try {
    return (await blob.arrayBuffer()).byteLength === row.size ? blob : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a row just written kept its bytes: the Blob has the recorded size and its last byte can
 * be read (a 0-byte, cut-off or unreadable Blob fails). Reading the whole photo back instead cost
 * as much as writing it (benchmark target 8); readPhoto still reads everything before an upload.
 */
async function kept(row: PhotoRow): Promise<boolean> {
  if (row.buffer) return row.buffer.byteLength === row.size;
  const blob = row.blob;
  if (!(blob instanceof Blob) || blob.size !== row.size) return false;
  if (row.size === 0) return true;
  try {
    return (await blob.slice(row.size - 1).arrayBuffer()).byteLength === 1;
  } catch {
    return false;
  }
}

/**
 * Reads back rows just written; a Blob that did not survive is rewritten as an ArrayBuffer from
 * the original still in memory, and later photos on this device skip Blob storage.
 */
export async function verifyPhotos(written: { owner: string; question: string; original: Blob }[]): Promise<void> {
  if (written.length === 0) return;
  const rows = await db.photos.bulkGet(written.map(({ owner, question }): [string, string] => [owner, question]));
  const ok = await Promise.all(rows.map((row) => (row ? kept(row) : true)));
  for (const [i, { owner, question, original }] of written.entries()) {
    if (ok[i]) continue;
    await switchToBuffers();
    const copy = await photoRow(owner, question, original, 'buffer');
    // Only replace the row if it is still there: the record may have been sent and purged meanwhile.
    await db.transaction('rw', db.photos, async () => {
      if (await db.photos.get([owner, question])) await db.photos.put(copy);
    });
  }
}

/** Stores one photo (outside of any larger transaction) and verifies it. */
export async function storePhoto(owner: string, question: string, blob: Blob): Promise<void> {
  await db.photos.put(await photoRow(owner, question, blob));
  await verifyPhotos([{ owner, question, original: blob }]);
}

/** The photo as a Blob; undefined when none is stored; PhotoUnreadableError when its bytes are gone. */
export async function readPhoto(owner: string, question: string): Promise<Blob | undefined> {
  const row = await db.photos.get([owner, question]);
  if (!row) return undefined;
  const blob = await readable(row);
  if (!blob) throw new PhotoUnreadableError(question);
  return blob;
}

/** Every photo of an owner, keyed by question (unreadable ones left out). */
export async function readPhotos(owner: string): Promise<Record<string, Blob>> {
  const rows = await db.photos.where('owner').equals(owner).toArray();
  const out: Record<string, Blob> = {};
  for (const row of rows) {
    const blob = await readable(row);
    if (blob) out[row.question] = blob;
  }
  return out;
}
