import type { PhotoPlaceholder } from '@survey-bird/contracts';
import { accountKey, type AccountKey, db, type StoredRecord } from '../db';
import { ownedBy, transition } from '../outbox';

/**
 * Responses first, photos after: the outbox transitions of photos sent after their
 * response, used by the sync engine only (so kept out of the form's chunk). A record synced with
 * `photosPending` keeps those photos' bytes; markPhotoSent drops each once the server attached it.
 */

/** Placeholders made for a record's photos, kept before its first send (every retry sends the same). */
export async function recordPlaceholders(id: string, run: string, placeholders: Record<string, PhotoPlaceholder>): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    const record = await db.outbox.get(id);
    if (!ownedBy(record, run)) return;
    await db.outbox.put({ ...record, photoPlaceholders: { ...record.photoPlaceholders, ...placeholders }, updatedAt: Date.now() });
  });
}

/** sending -> synced with photos still to send: like markSynced, but their bytes stay until each is attached. */
export function markSyncedBeforePhotos(id: string, run: string, serverId: string | undefined, now: number, photosPending: string[]): Promise<boolean> {
  return transition(id, run, ({ lastError: _e, ...r }) => ({ ...r, status: 'synced', serverId, syncedAt: now, attempts: 0, photosPending }));
}

/** Synced records whose photos the server still waits for, oldest first. */
export async function recordsWithPendingPhotos(account: AccountKey): Promise<StoredRecord[]> {
  const synced = await db.outbox.where('[account+status]').equals([accountKey(account), 'synced']).toArray();
  return synced.filter((r) => (r.photosPending?.length ?? 0) > 0).sort((a, b) => a.createdAt - b.createdAt);
}

/** The server attached a pending photo: its reference is kept ('' when the reply did not name it), its bytes deleted. */
export async function markPhotoSent(id: string, question: string, reference: string): Promise<void> {
  await db.transaction('rw', db.outbox, db.photos, async () => {
    const record = await db.outbox.get(id);
    if (!record?.photosPending?.includes(question)) return;
    const { photosPending, photoError, ...rest } = record;
    const left = photosPending.filter((q) => q !== question);
    await db.outbox.put({
      ...rest,
      photoRefs: reference ? { ...record.photoRefs, [question]: reference } : record.photoRefs,
      ...(left.length > 0 ? { photosPending: left } : {}),
      ...(photoError && photoError.question !== question ? { photoError } : {}),
      updatedAt: Date.now(),
    });
    await db.photos.delete([id, question]);
  });
}

/** The server refused a pending photo (4xx): noted for the user, the photo stays pending. */
export async function markPhotoRefused(id: string, question: string, status: number, msg: string): Promise<void> {
  await db.outbox.update(id, { photoError: { question, status, msg }, updatedAt: Date.now() });
}
