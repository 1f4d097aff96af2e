import { Msg, uuidv7, type Answers, type ResponseAudio, type ResponseCapture, type ResponseStatus } from '@survey-bird/contracts';
import { accountKey, type AccountKey, audioOwner, type Claim, db, metaKey, type OutboxRecord, type OutboxStatus, type StatusRow, type StoredRecord } from './db';
import { draftOwner } from './drafts';
import { photoRow, readPhotos, verifyPhotos } from './photo-store';
import { nextAttemptAt, type Verdict } from './retry-policy';
import { openRecord, openRecords, sealRecordFields } from './sealing';

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
 *
 * Answers and capture meta are stored sealed (vault.ts, sealing.ts): sealed before a transaction
 * opens, opened after it closed; the transitions copy the sealed value untouched.
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
  /** A back-check of this response (server `_id`): no draft is consumed; `version` is the back-check form's. */
  backcheckOf?: string;
  /** The survey version the form was filled against; absent = 1. */
  version?: number;
  /** What the phone recorded with the response. */
  meta?: ResponseCapture;
  /** The audio audit's report and, when recorded, the clip (kept with the response, sent after it). */
  audio?: { report: ResponseAudio; clip?: Blob };
  /** An end-to-end encrypted survey's public key: the answers are sent sealed to it (office-seal.ts). */
  encryptTo?: string | null;
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
  const [rows, secrets] = await Promise.all([
    Promise.all(photos.map(([question, blob]) => photoRow(account, id, question, blob))),
    sealRecordFields(account, answers, input.meta),
  ]);
  if (input.audio?.clip) rows.push(await photoRow(account, audioOwner(id), '', input.audio.clip));
  const now = nextCreatedAt();
  const record: StoredRecord = {
    id,
    account,
    surveyId: input.surveyId,
    organizationId: input.organizationId,
    ...secrets,
    capturedAt: new Date(now).toISOString(),
    ...(input.version !== undefined ? { version: input.version } : {}),
    createdAt: now,
    updatedAt: now,
    status: 'queued',
    attempts: 0,
    // createdAt may run ahead of the clock in a burst; due must not, or the sync that follows skips it.
    nextAttemptAt: Math.min(now, Date.now()),
    photoQuestions: photos.map(([question]) => question),
    photoRefs: {},
    ...(input.revisionOf ? { revisionOf: input.revisionOf } : {}),
    ...(input.audio ? { audio: input.audio.report, ...(input.audio.clip ? { audioPending: true } : {}) } : {}),
    ...(input.backcheckOf ? { backcheckOf: input.backcheckOf } : {}),
    // A back-check is compared with the original on the server: sent in clear.
    ...(input.encryptTo && !input.backcheckOf ? { encryptTo: input.encryptTo } : {}),
  };
  try {
    // Issued together, applied in order: one round trip. A clientId queued already (a second tap)
    // fails the add, which rolls the whole transaction back: nothing is written twice.
    await db.transaction('rw', db.outbox, db.photos, db.drafts, () => Promise.all([
      db.outbox.add(record),
      db.photos.bulkPut(rows),
      ...(input.revisionOf || input.backcheckOf ? [] : [
        db.drafts.delete([account, input.surveyId]),
        db.photos.where('owner').equals(draftOwner(account, input.surveyId)).delete(),
      ]),
    ]));
  } catch (err) {
    if ((err as Error | undefined)?.name === 'ConstraintError' && (await db.outbox.get(id))) return id;
    throw err;
  }
  await verifyPhotos(photos.map(([question, original]) => ({ owner: id, question, original, account })));
  return id;
}

export async function getRecord(id: string): Promise<OutboxRecord | undefined> {
  const stored = await db.outbox.get(id);
  return stored && openRecord(stored);
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
  const account = (await db.outbox.get(id))?.account;
  if (!account) throw new OutboxError('This response is no longer on this phone');
  const [rows, secrets] = await Promise.all([
    Promise.all(entries.map(([question, blob]) => photoRow(account, id, question, blob))),
    // The meta stays as captured: the record's own, opened only to be sealed again with the new answers.
    db.outbox.get(id).then(async (r) => sealRecordFields(account, answers, r ? (await openRecord(r)).meta : undefined)),
  ]);
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
    // New answers: the envelope sealed to the office for the old ones goes with them.
    const { photoPlaceholders: _old, sealed: _s, answers: _a, meta: _m, officeSealed: _e, ...rest } = record;
    await db.outbox.put({ ...rest, ...secrets, photoRefs, photoQuestions, ...(Object.keys(placeholders).length > 0 ? { photoPlaceholders: placeholders } : {}), updatedAt: Date.now(), ...(version ? { version } : {}) });
    if (dropped.length > 0) await db.photos.bulkDelete(dropped.map((question) => [id, question]));
    await db.photos.bulkPut(rows);
  });
  await verifyPhotos(entries.map(([question, original]) => ({ owner: id, question, original, account })));
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
  for (const record of await openRecords(records)) {
    const photos: Record<string, string> = {};
    for (const [question, blob] of Object.entries(await readPhotos(record.id))) {
      photos[question] = `data:${blob.type};base64,${base64Of(new Uint8Array(await blob.arrayBuffer()))}`;
    }
    const { claim: _claim, ...rest } = record;
    out.push({ ...rest, photos });
  }
  return new Blob([JSON.stringify({ exportedAt: new Date().toISOString(), responses: out }, null, 2)], { type: 'application/json' });
}

/** Newest first, answers opened (the screens read them through coalescedLiveQuery, which allows other async work). */
export async function listOutbox(account: AccountKey): Promise<OutboxRecord[]> {
  const key = accountKey(account);
  return openRecords(await db.outbox.where('[account+createdAt]').between([key, -Infinity], [key, Infinity]).reverse().toArray());
}

/** One read transaction: a consistent snapshot (a record moving between states mid-read is counted once) and one IndexedDB round trip instead of four. */
export async function counts(account: AccountKey): Promise<OutboxCounts> {
  const key = accountKey(account);
  const count = (status: OutboxStatus) => db.outbox.where('[account+status]').equals([key, status]).count();
  const [queued, sending, failed, synced] = await db.transaction('r', db.outbox, () => Promise.all([count('queued'), count('sending'), count('failed'), count('synced')]));
  return { queued, sending, failed, synced };
}

/** When the oldest response still on this phone unsent (waiting, sending or refused) was queued (epoch ms), or null. */
export async function oldestUnsentAt(account: AccountKey): Promise<number | null> {
  const key = accountKey(account);
  const rows = await db.outbox.where('[account+status]').anyOf([[key, 'queued'], [key, 'sending'], [key, 'failed']]).toArray();
  return rows.reduce<number | null>((min, r) => (min === null || r.createdAt < min ? r.createdAt : min), null);
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

export const ownedBy = <R extends StoredRecord>(record: R | undefined, run: string): record is R => record?.status === 'sending' && record.claim?.run === run;

/** Due queued records (oldest first, minus those this run already tried) become `sending` under this run's claim. */
const RESPONSE_UNREADABLE = 'This response was saved under a key this phone no longer has and cannot be read';

export async function claimDue(account: AccountKey, claim: Claim, now: number, limit: number, skip: ReadonlySet<string> = new Set()): Promise<OutboxRecord[]> {
  const claimed = await db.transaction('rw', db.outbox, async () => {
    const due = await db.outbox.where('[account+status+nextAttemptAt]').between([account, 'queued', -Infinity], [account, 'queued', now], true, true).toArray();
    const chosen = due.filter((r) => !skip.has(r.id)).sort((a, b) => a.createdAt - b.createdAt).slice(0, limit);
    const claimed = chosen.map((r) => ({ ...r, status: 'sending' as const, claim }));
    await db.outbox.bulkPut(claimed);
    return claimed;
  });
  const opened: OutboxRecord[] = [];
  for (const record of claimed) {
    try {
      opened.push(await openRecord(record));
    } catch {
      // Its key is gone (the account was removed from this phone meanwhile): nothing left to send.
      await markFailed(record.id, claim.run, 0, RESPONSE_UNREADABLE);
    }
  }
  return opened;
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

export async function transition(id: string, run: string, change: (r: StoredRecord) => StoredRecord, purgePhotos = false): Promise<boolean> {
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
