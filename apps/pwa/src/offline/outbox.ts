import { Msg, uuidv7, type Answers, type ResponseCapture, type ResponseStatus } from '@survey-bird/contracts';
import { accountKey, type AccountKey, type Claim, db, metaKey, type OutboxRecord, type OutboxStatus, type StatusRow } from './db';
import { draftOwner } from './drafts';
import { photoRow, readPhotos, verifyPhotos } from './photo-store';
import { nextAttemptAt, type Verdict } from './retry-policy';

/**
 * The outbox: submitted responses waiting for, or already received by, the server. Every status
 * change of a record happens in this file:
 *
 *   enqueueResponse -> queued -> sending -> synced            (server said 200; photo bytes purged, or
 *                                                               kept while photosPending: each
 *                                                               purged by markPhotoSent in sync-photos.ts)
 *                        ^          |---> queued + backoff   (no answer, 408, 429, 5xx)
 *                        |          '---> failed             (any other 4xx, with the server's msg)
 *                        '-- retry(id) <--'   (after updateAnswers; resendAsNew(id) after a 409;
 *                                              discard(id) is the only delete)
 *
 * The transitions out of `sending` take the sync run's id and do nothing when another run has
 * taken the record over (see sync-engine.ts), so a late answer can never overwrite a newer one.
 */

export interface EnqueueInput {
  account: AccountKey;
  surveyId: string;
  organizationId: string;
  answers: Answers;
  /** Photo answers by question text; uploaded before the response is sent. */
  photos?: Record<string, Blob>;
  /** The draft's clientId (loadDraft), so a double tap on submit queues one response. */
  clientId?: string;
  /** Fix and resubmit: the server `_id` of the returned response; the survey's draft is left alone. */
  revisionOf?: string;
  /** The survey version the form was filled against; absent = 1. */
  version?: number;
  /** What the phone recorded with the response. */
  meta?: ResponseCapture;
}

export type OutboxCounts = Record<OutboxStatus, number>;

export class OutboxError extends Error {
  override name = 'OutboxError';
}

/**
 * Queues a response with its photos in one transaction and consumes the survey's draft in the
 * same transaction (a crash can leave the draft or the queued response, never both). Returns the
 * response's clientId. Queuing the same clientId twice returns it without a second record.
 */
let lastCreatedAt = 0;
/** Queue order is createdAt: strictly increasing here, so two taps in one millisecond keep their order. */
function nextCreatedAt(): number {
  lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
  return lastCreatedAt;
}

export async function enqueueResponse(input: EnqueueInput): Promise<string> {
  const account = accountKey(input.account);
  const answers = input.answers;
  const id = input.clientId ?? uuidv7();
  const photos = Object.entries(input.photos ?? {});
  const rows = await Promise.all(photos.map(([question, blob]) => photoRow(id, question, blob)));
  const now = nextCreatedAt();
  const record: OutboxRecord = {
    id,
    account,
    surveyId: input.surveyId,
    organizationId: input.organizationId,
    answers,
    capturedAt: new Date(now).toISOString(),
    ...(input.version !== undefined ? { version: input.version } : {}),
    ...(input.meta ? { meta: input.meta } : {}),
    createdAt: now,
    updatedAt: now,
    status: 'queued',
    attempts: 0,
    // createdAt may run ahead of the clock in a burst; due must not, or the sync that follows skips it.
    nextAttemptAt: Math.min(now, Date.now()),
    photoQuestions: photos.map(([question]) => question),
    photoRefs: {},
    ...(input.revisionOf ? { revisionOf: input.revisionOf } : {}),
  };
  try {
    // Issued together, applied in order: one round trip. A clientId queued already (a second tap)
    // fails the add, which rolls the whole transaction back: nothing is written twice.
    await db.transaction('rw', db.outbox, db.photos, db.drafts, () => Promise.all([
      db.outbox.add(record),
      db.photos.bulkPut(rows),
      ...(input.revisionOf ? [] : [
        db.drafts.delete([account, input.surveyId]),
        db.photos.where('owner').equals(draftOwner(account, input.surveyId)).delete(),
      ]),
    ]));
  } catch (err) {
    if ((err as Error | undefined)?.name === 'ConstraintError' && (await db.outbox.get(id))) return id;
    throw err;
  }
  await verifyPhotos(photos.map(([question, original]) => ({ owner: id, question, original })));
  return id;
}

export function getRecord(id: string): Promise<OutboxRecord | undefined> {
  return db.outbox.get(id);
}

/**
 * The user corrected a failed response: new answers and, optionally, replaced photos (a replaced
 * photo is uploaded again). The record stays failed until retry(id). `version`: the survey version
 * the answers were corrected on, which the response is then sent on. `keep`: the photo questions
 * still answered (the others' photos, references and placeholders go: an answer to a question an
 * earlier answer now hides is refused by the server); all of them when absent.
 */
export async function updateAnswers(id: string, answers: Answers, photos: Record<string, Blob> = {}, version?: number, keep?: readonly string[]): Promise<void> {
  const entries = Object.entries(photos);
  const rows = await Promise.all(entries.map(([question, blob]) => photoRow(id, question, blob)));
  await db.transaction('rw', db.outbox, db.photos, async () => {
    const record = await db.outbox.get(id);
    if (!record) throw new OutboxError('This response is no longer on this phone');
    if (record.status !== 'failed') throw new OutboxError('Only a response the server refused can be changed');
    const kept = (question: string) => keep === undefined || keep.includes(question);
    const replaced = new Set(entries.map(([q]) => q));
    const photoRefs = Object.fromEntries(Object.entries(record.photoRefs).filter(([q]) => kept(q) && !replaced.has(q)));
    // A placeholder names its photo's size and SHA-256: a replaced photo needs a new one.
    const placeholders = Object.fromEntries(Object.entries(record.photoPlaceholders ?? {}).filter(([q]) => kept(q) && !replaced.has(q)));
    const photoQuestions = [...new Set([...record.photoQuestions, ...replaced])].filter(kept);
    const dropped = record.photoQuestions.filter((q) => !kept(q));
    const { photoPlaceholders: _old, ...rest } = record;
    await db.outbox.put({ ...rest, answers, photoRefs, photoQuestions, ...(Object.keys(placeholders).length > 0 ? { photoPlaceholders: placeholders } : {}), updatedAt: Date.now(), ...(version ? { version } : {}) });
    if (dropped.length > 0) await db.photos.bulkDelete(dropped.map((question) => [id, question]));
    await db.photos.bulkPut(rows);
  });
  await verifyPhotos(entries.map(([question, original]) => ({ owner: id, question, original })));
}

/** failed -> queued (due now, backoff reset); a queued record is simply made due now. */
export async function retry(id: string): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    const record = await db.outbox.get(id);
    if (!record || (record.status !== 'failed' && record.status !== 'queued')) return;
    await db.outbox.put({ ...record, status: 'queued', attempts: 0, nextAttemptAt: Date.now(), updatedAt: Date.now() });
  });
}

/**
 * After a 409 (the server holds a different response under this clientId) and only when the user
 * confirms this is a new response: the record is queued again under a fresh clientId, photos
 * and already uploaded references kept. Returns the new id.
 */
export async function resendAsNew(id: string): Promise<string> {
  const newId = uuidv7();
  await db.transaction('rw', db.outbox, db.photos, async () => {
    const record = await db.outbox.get(id);
    if (!record || record.status !== 'failed') throw new OutboxError('Only a response the server refused can be sent as a new one');
    const { lastError: _e, ...rest } = record;
    const now = nextCreatedAt();
    await db.outbox.add({ ...rest, id: newId, status: 'queued', attempts: 0, nextAttemptAt: now, createdAt: now, updatedAt: now });
    const photos = await db.photos.where('owner').equals(id).toArray();
    await db.photos.bulkPut(photos.map((p) => ({ ...p, owner: newId })));
    await db.photos.where('owner').equals(id).delete();
    await db.outbox.delete(id);
  });
  return newId;
}

/** The only way a response leaves the phone unsent: the user chose to throw it away. */
export async function discard(id: string): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.photos, async () => {
    const record = await db.outbox.get(id);
    if (!record || record.status === 'sending' || record.status === 'synced') return false;
    await db.outbox.delete(id);
    await db.photos.where('owner').equals(id).delete();
    return true;
  });
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The failed responses (with their photos as data: URLs) as a JSON file for the user to keep. */
export async function exportFailed(account?: AccountKey): Promise<Blob> {
  const records = account
    ? await db.outbox.where('[account+status]').equals([accountKey(account), 'failed']).toArray()
    : await db.outbox.where('status').equals('failed').toArray();
  const out = [];
  for (const record of records) {
    const photos: Record<string, string> = {};
    for (const [question, blob] of Object.entries(await readPhotos(record.id))) {
      photos[question] = `data:${blob.type};base64,${base64Of(new Uint8Array(await blob.arrayBuffer()))}`;
    }
    const { claim: _claim, ...rest } = record;
    out.push({ ...rest, photos });
  }
  return new Blob([JSON.stringify({ exportedAt: new Date().toISOString(), responses: out }, null, 2)], { type: 'application/json' });
}

/** Newest first. Only Dexie calls, so it can be passed to useLiveQuery as is. */
export function listOutbox(account: AccountKey): Promise<OutboxRecord[]> {
  const key = accountKey(account);
  return db.outbox.where('[account+createdAt]').between([key, -Infinity], [key, Infinity]).reverse().toArray();
}

/** One read transaction: a consistent snapshot (a record moving between states mid-read is counted once) and one IndexedDB round trip instead of four. */
export async function counts(account: AccountKey): Promise<OutboxCounts> {
  const key = accountKey(account);
  const count = (status: OutboxStatus) => db.outbox.where('[account+status]').equals([key, status]).count();
  const [queued, sending, failed, synced] = await db.transaction('r', db.outbox, () => Promise.all([count('queued'), count('sending'), count('failed'), count('synced')]));
  return { queued, sending, failed, synced };
}

/** The last time the server accepted a response of this account (epoch ms), or null. */
export async function lastSyncAt(account: AccountKey): Promise<number | null> {
  const row = await db.meta.get(metaKey.lastSyncAt(accountKey(account)));
  return typeof row?.value === 'number' ? row.value : null;
}

/** What the office decided about a sent response, as the changes feed last said (statuses.ts). */
export type Review = Pick<StatusRow, 'status' | 'paid'>;

const REVIEW_LABEL: Record<ResponseStatus, string> = {
  pending: 'awaiting review',
  approved: 'approved',
  returned: 'returned for fixing',
  rejected: 'rejected',
};

/**
 * What the UI says about a record: on the phone until the server has it, then what became of it:
 * paid, or the office's decision (`review`); before the feed said anything, awaiting review when
 * the survey pays only after review (the server receives such a response as pending), else received.
 */
export function deliveryLabel(record: Pick<OutboxRecord, 'status'>, review?: Review, payAfterReview = false): string {
  if (record.status !== 'synced') return Msg.savedOnPhone;
  if (review) return review.paid ? 'paid' : REVIEW_LABEL[review.status];
  return payAfterReview ? REVIEW_LABEL.pending : Msg.receivedByServer;
}

/* ---- Transitions used by the sync engine (not part of the module's public API) ---- */

export const ownedBy = (record: OutboxRecord | undefined, run: string): record is OutboxRecord => record?.status === 'sending' && record.claim?.run === run;

/** Due queued records (oldest first, minus those this run already tried) become `sending` under this run's claim. */
export async function claimDue(account: AccountKey, claim: Claim, now: number, limit: number, skip: ReadonlySet<string> = new Set()): Promise<OutboxRecord[]> {
  return db.transaction('rw', db.outbox, async () => {
    const due = await db.outbox.where('[account+status+nextAttemptAt]').between([account, 'queued', -Infinity], [account, 'queued', now], true, true).toArray();
    const chosen = due.filter((r) => !skip.has(r.id)).sort((a, b) => a.createdAt - b.createdAt).slice(0, limit);
    const claimed = chosen.map((r) => ({ ...r, status: 'sending' as const, claim }));
    await db.outbox.bulkPut(claimed);
    return claimed;
  });
}

/** Keeps this run's claims fresh while it works, so they are not mistaken for a crashed run's. */
export async function touchClaims(account: AccountKey, run: string, now: number): Promise<void> {
  await db.outbox
    .where('[account+status]')
    .equals([account, 'sending'])
    .modify((r) => {
      if (r.claim?.run === run) r.claim = { ...r.claim, at: now };
    });
}

/**
 * Records left in `sending` by a run that died go back to `queued`: claims older than the lease,
 * or at once when the dead run held the Web Lock that this run now holds.
 */
export async function recoverStuck(account: AccountKey, run: string, now: number, leaseMs: number, holdingWebLock: boolean): Promise<number> {
  return db.transaction('rw', db.outbox, async () => {
    const sending = await db.outbox.where('[account+status]').equals([account, 'sending']).toArray();
    const dead = sending.filter(({ claim }) => claim?.run !== run && (!claim || claim.at <= now - leaseMs || (holdingWebLock && claim.locked)));
    await db.outbox.bulkPut(dead.map(({ claim: _claim, ...r }) => ({ ...r, status: 'queued' as const })));
    return dead.length;
  });
}

export async function transition(id: string, run: string, change: (r: OutboxRecord) => OutboxRecord, purgePhotos = false): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.photos, async () => {
    const record = await db.outbox.get(id);
    if (!ownedBy(record, run)) return false;
    const { claim: _claim, ...unclaimed } = record;
    await db.outbox.put({ ...change(unclaimed), updatedAt: Date.now() });
    if (purgePhotos) await db.photos.where('owner').equals(id).delete();
    return true;
  });
}

export async function recordPhotoRef(id: string, run: string, question: string, reference: string): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    const record = await db.outbox.get(id);
    if (!ownedBy(record, run)) return;
    await db.outbox.put({ ...record, photoRefs: { ...record.photoRefs, [question]: reference }, updatedAt: Date.now() });
  });
}

/** sending -> synced; the photo bytes are deleted now that the server has them (the record stays as history). */
export function markSynced(id: string, run: string, serverId: string | undefined, now: number): Promise<boolean> {
  return transition(id, run, ({ lastError: _e, ...r }) => ({ ...r, status: 'synced', serverId, syncedAt: now, attempts: 0 }), true);
}

/** sending -> failed with the server's answer; the user decides what happens next. */
export function markFailed(id: string, run: string, status: number, msg: string, question?: string): Promise<boolean> {
  return transition(id, run, (r) => ({ ...r, status: 'failed', lastError: question === undefined ? { status, msg } : { status, msg, question } }));
}

/** sending -> queued, not before the backoff (or the server's Retry-After) has passed. */
export function markRetry(id: string, run: string, verdict: Extract<Verdict, { kind: 'retry' }>, now: number, random?: () => number): Promise<boolean> {
  return transition(id, run, (r) => {
    const attempts = r.attempts + 1;
    return { ...r, status: 'queued', attempts, nextAttemptAt: nextAttemptAt(now, attempts, verdict.retryAfterMs, random), lastError: { status: verdict.status, msg: verdict.msg } };
  });
}

/** sending -> queued unchanged (the run stopped for a reason that is not this record's fault). */
export async function release(ids: string[], run: string): Promise<void> {
  for (const id of ids) await transition(id, run, (r) => ({ ...r, status: 'queued' }));
}

export async function setLastSyncAt(account: AccountKey, at: number): Promise<void> {
  await db.meta.put({ key: metaKey.lastSyncAt(account), value: at });
}
