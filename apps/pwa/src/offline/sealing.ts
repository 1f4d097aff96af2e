import type { Answers, ResponseCapture } from '@survey-bird/contracts';
import { accountKey, type AccountKey, db, type DraftRow, type OutboxRecord, type PhotoRow, type Sealed, type StatusRow, type StoredRecord } from './db';
import { openJson, sealBytes, sealJson, sealingAvailable } from './vault';

/**
 * The outbox's, drafts' and statuses' answers between their stored (sealed) and opened forms
 * (vault.ts), and the upgrade of rows kept in clear by an earlier version of the app.
 */

interface RecordSecrets {
  answers: Answers;
  meta?: ResponseCapture;
}

/** The fields an outbox row stores for these answers: sealed, or in clear without WebCrypto. */
export async function sealRecordFields(account: AccountKey, answers: Answers, meta?: ResponseCapture): Promise<Pick<StoredRecord, 'sealed' | 'answers' | 'meta'>> {
  const secrets: RecordSecrets = meta ? { answers, meta } : { answers };
  const sealed = await sealJson(account, secrets);
  return sealed ? { sealed } : secrets;
}

/** The record with its answers (and meta) opened; SealedUnreadableError when its key is gone. */
export async function openRecord(stored: StoredRecord): Promise<OutboxRecord> {
  const { sealed, answers, meta, ...rest } = stored;
  const secrets: RecordSecrets = sealed ? await openJson<RecordSecrets>(stored.account, sealed) : { answers: answers ?? {}, ...(meta ? { meta } : {}) };
  return { ...rest, answers: secrets.answers, ...(secrets.meta ? { meta: secrets.meta } : {}) };
}

/** For lists: a record whose key is gone shows with no answers rather than hiding the rest. */
export function openRecords(stored: StoredRecord[]): Promise<OutboxRecord[]> {
  return Promise.all(stored.map((r) => openRecord(r).catch(() => openRecord({ ...r, sealed: undefined, answers: {} }))));
}

export async function openDraftAnswers(row: DraftRow): Promise<Answers> {
  if (row.sealed) return openJson<Answers>(row.account, row.sealed).catch(() => ({}));
  return row.answers ?? {};
}

export async function sealStatus(row: StatusRow): Promise<StatusRow> {
  if (!row.answers) return row;
  const sealed = await sealJson(row.account, row.answers);
  if (!sealed) return row;
  const { answers: _a, ...rest } = row;
  return { ...rest, sealed };
}

export async function openStatus(row: StatusRow): Promise<StatusRow> {
  if (!row.sealed) return row;
  const { sealed, ...rest } = row;
  const answers = await openJson<Answers>(row.account, sealed).catch(() => undefined);
  return answers ? { ...rest, answers } : rest;
}

/** The account a photo row belongs to: its draft's key names it, an outbox row's record holds it. */
async function photoAccount(row: PhotoRow): Promise<AccountKey | undefined> {
  if (row.owner.startsWith('draft:')) {
    const rest = row.owner.slice('draft:'.length);
    const account = rest.slice(0, rest.lastIndexOf(':'));
    return account ? accountKey(account) : undefined;
  }
  return (await db.outbox.get(row.owner))?.account;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Seals every row an earlier version kept in clear, without losing or reverting any: each value is
 * encrypted outside a transaction, then written in one that first checks the row still holds
 * the value encrypted (a sync or the form may have changed it meanwhile; such a row is taken
 * again on the next pass). Readers accept both forms, so a phone stopped half way is consistent
 * and the next start carries on. Returns how many rows were sealed.
 */
export async function sealClearRows(): Promise<number> {
  if (!sealingAvailable()) return 0;
  let done = 0;
  for (let pass = 0; pass < 3; pass++) {
    const n = (await sealOutbox()) + (await sealDrafts()) + (await sealStatuses()) + (await sealPhotos());
    done += n;
    if (n === 0) break;
  }
  return done;
}

async function sealOutbox(): Promise<number> {
  const clear = await db.outbox.filter((r) => r.sealed === undefined && (r.answers !== undefined || r.meta !== undefined)).toArray();
  let n = 0;
  for (const r of clear) {
    const fields = await sealRecordFields(r.account, r.answers ?? {}, r.meta);
    await db.transaction('rw', db.outbox, async () => {
      const now = await db.outbox.get(r.id);
      if (!now || now.sealed || !same(now.answers, r.answers) || !same(now.meta, r.meta)) return;
      const { answers: _a, meta: _m, ...rest } = now;
      await db.outbox.put({ ...rest, ...fields });
      n++;
    });
  }
  return n;
}

async function sealDrafts(): Promise<number> {
  const clear = await db.drafts.filter((r) => r.sealed === undefined && r.answers !== undefined).toArray();
  let n = 0;
  for (const r of clear) {
    const sealed = await sealJson(r.account, r.answers);
    if (!sealed) continue;
    await db.transaction('rw', db.drafts, async () => {
      const now = await db.drafts.get([r.account, r.surveyId]);
      if (!now || now.sealed || !same(now.answers, r.answers)) return;
      const { answers: _a, ...rest } = now;
      await db.drafts.put({ ...rest, sealed });
      n++;
    });
  }
  return n;
}

async function sealStatuses(): Promise<number> {
  const clear = await db.statuses.filter((r) => r.sealed === undefined && r.answers !== undefined).toArray();
  let n = 0;
  for (const r of clear) {
    const sealedRow = await sealStatus(r);
    await db.transaction('rw', db.statuses, async () => {
      const now = await db.statuses.get([r.account, r.id]);
      if (!now || now.sealed || !same(now, r)) return;
      await db.statuses.put(sealedRow);
      n++;
    });
  }
  return n;
}

async function bytesOf(row: PhotoRow): Promise<ArrayBuffer | undefined> {
  if (row.buffer) return row.buffer;
  if (row.blob instanceof Blob) return row.blob.arrayBuffer().catch(() => undefined);
  return undefined;
}

async function sealPhotos(): Promise<number> {
  // One photo at a time: a phone may hold hundreds of megabytes of them.
  const keys = await db.photos.filter((r) => r.sealed === undefined).primaryKeys();
  let n = 0;
  for (const key of keys) {
    const row = await db.photos.get(key);
    if (!row || row.sealed) continue;
    const account = await photoAccount(row);
    const bytes = await bytesOf(row);
    // Unreadable bytes stay as they are: readPhoto reports them, for the user to take the photo again.
    if (!account || !bytes || bytes.byteLength !== row.size) continue;
    const sealed: Sealed | undefined = await sealBytes(account, bytes);
    if (!sealed) continue;
    await db.transaction('rw', db.photos, async () => {
      const now = await db.photos.get(key);
      // Once the database is at this version only sealed photos are written: a row still in clear is the one read.
      if (!now || now.sealed) return;
      await db.photos.put({ owner: now.owner, question: now.question, account, sealed, type: now.type, size: now.size });
      n++;
    });
  }
  return n;
}
