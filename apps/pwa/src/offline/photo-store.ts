import { accountKey, type AccountKey, db, metaKey, type PhotoRow } from './db';
import { openBytes, sealBytes, sealingAvailable } from './vault';

/**
 * Photo bytes in IndexedDB. A Blob is stored as is where the browser keeps Blobs faithfully; iOS
 * Safari has handed back 0-byte or unreadable Blobs, so writes are read back and, if the bytes do
 * not match, rewritten as an ArrayBuffer copy and the device switched to ArrayBuffers for good
 * (meta 'photoMode'). Callers only see Blobs: storePhoto / readPhoto hide which one is kept.
 *
 * Which writes are read back: the first TRUSTED_AFTER photos of each kind (a Blob, a File, an
 * ArrayBuffer copy) in every page or worker session, then no more in that session. Losing Blobs
 * is a property of the browser (a WebKit version), not of one photo, so the first photos of a
 * session find it, before any later photo could be lost the same way; reading back every photo
 * doubled the cost of queuing a burst of responses (benchmark target 8). readPhoto still checks
 * every byte before an upload, and a photo found unreadable then fails its response with the
 * question named, for the user to take it again.
 *
 * With WebCrypto (every browser that runs the app over https) the bytes are sealed under the
 * account's key (vault.ts); the ciphertext is kept as a Blob or an ArrayBuffer by the same rule.
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

/** For tests: forget the remembered mode and the session's read-backs (the database was deleted). */
export function resetPhotoModeCache(): void {
  cachedMode = undefined;
  intact.clear();
}

export const TRUSTED_AFTER = 3;
/** Photos read back intact in this session, by kind. */
const intact = new Map<string, number>();
const kindOf = (original: Blob, mode: PhotoMode) => (mode === 'buffer' ? 'buffer' : typeof File === 'function' && original instanceof File ? 'file' : 'blob');

/**
 * The row to write for a photo. Async work (copying bytes) happens here, before the caller opens
 * its transaction: an IndexedDB transaction commits as soon as it waits on anything else.
 */
export async function photoRow(account: AccountKey, owner: string, question: string, blob: Blob, mode?: PhotoMode): Promise<PhotoRow> {
  const type = blob.type || 'image/jpeg';
  if (sealingAvailable()) {
    const sealed = await sealBytes(account, await blob.arrayBuffer());
    if (sealed) {
      const base = { owner, question, account: accountKey(account), type, size: blob.size };
      // Where Blobs survive, the ciphertext is a Blob too: Chromium writes it beside the database
      // instead of copying each photo's bytes into its row.
      return (mode ?? (await currentMode())) === 'buffer' ? { ...base, sealed } : { ...base, sealed: { iv: sealed.iv }, blob: new Blob([sealed.data]) };
    }
  }
  if ((mode ?? (await currentMode())) === 'buffer') return { owner, question, buffer: await blob.arrayBuffer(), type, size: blob.size };
  return { owner, question, blob, type, size: blob.size };
}

async function readable(row: PhotoRow | undefined): Promise<Blob | undefined> {
  if (!row) return undefined;
  if (row.sealed) {
    if (!row.account) return undefined;
    const data = row.sealed.data ?? (row.blob instanceof Blob ? await row.blob.arrayBuffer().catch(() => undefined) : undefined);
    const bytes = data && (await openBytes(row.account, { iv: row.sealed.iv, data }).catch(() => undefined));
    return bytes?.byteLength === row.size ? new Blob([bytes], { type: row.type }) : undefined;
  }
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
 * Reads back rows just written, unless this session already read back TRUSTED_AFTER photos of
 * that kind intact; a Blob that did not survive is rewritten as an ArrayBuffer from the original
 * still in memory, and later photos on this device skip Blob storage.
 */
export async function verifyPhotos(written: { owner: string; question: string; original: Blob; account: AccountKey }[]): Promise<void> {
  const mode = await currentMode();
  const due = written.map((w) => ({ ...w, kind: kindOf(w.original, mode) })).filter(({ kind }) => (intact.get(kind) ?? 0) < TRUSTED_AFTER);
  if (due.length === 0) return;
  const rows = await db.photos.bulkGet(due.map(({ owner, question }): [string, string] => [owner, question]));
  const ok = await Promise.all(rows.map(async (row) => (row ? (await readable(row)) !== undefined : undefined)));
  for (const [i, { owner, question, original, kind, account }] of due.entries()) {
    // undefined: the row is gone already (sent and purged); nothing to check or repair.
    if (ok[i] !== false) {
      if (ok[i]) intact.set(kind, (intact.get(kind) ?? 0) + 1);
      continue;
    }
    await switchToBuffers();
    const copy = await photoRow(account, owner, question, original, 'buffer');
    // Only replace the row if it is still there: the record may have been sent and purged meanwhile.
    await db.transaction('rw', db.photos, async () => {
      if (await db.photos.get([owner, question])) await db.photos.put(copy);
    });
  }
}

/** Stores one photo (outside of any larger transaction) and verifies it. */
export async function storePhoto(account: AccountKey, owner: string, question: string, blob: Blob): Promise<void> {
  await db.photos.put(await photoRow(account, owner, question, blob));
  await verifyPhotos([{ owner, question, original: blob, account }]);
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
