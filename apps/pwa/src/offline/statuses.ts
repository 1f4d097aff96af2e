import type { ChangesReply, EarningsReply, HoldReason, MyResponse } from '@survey-bird/contracts';
import { withPhotoRefs } from './photo-refs';
import { responsesList } from './my-responses';
import { accountKey, type AccountKey, db, type EarningsSnapshot, metaKey, type OutboxRecord, type StatusRow } from './db';
import { openRecords, openStatus, sealStatus } from './sealing';

/**
 * What the server says became of the account's responses (review, fix, payment) and its earnings,
 * kept so the Earnings screen renders offline. Written only by a sync run (sync-engine.ts pulls
 * GET /me/responses/changes from the stored cursor, then GET /me/earnings); read by the screens.
 * A page of changes and the cursor after it are stored in one transaction, so a run that dies
 * mid-way pulls that page again, never skips one.
 */

export async function changesCursor(account: AccountKey): Promise<string | undefined> {
  const row = await db.meta.get(metaKey.changesCursor(accountKey(account)));
  return typeof row?.value === 'string' ? row.value : undefined;
}

export async function applyChanges(account: AccountKey, reply: ChangesReply): Promise<void> {
  const key = accountKey(account);
  const rows: StatusRow[] = reply.changes.map((c) => ({
    account: key, id: c._id, clientId: c.clientId, surveyId: c.survey_id, status: c.status, comment: c.comment,
    revision: c.revision, paid: c.paid, changedAt: c.changedAt, ...(c.answers ? { answers: c.answers } : {}),
  }));
  // A returned response's answers are sealed like the outbox's, before the transaction opens.
  const sealedRows = await Promise.all(rows.map(sealStatus));
  await db.transaction('rw', db.statuses, db.meta, async () => {
    await db.statuses.bulkPut(sealedRows);
    await db.meta.put({ key: metaKey.changesCursor(key), value: reply.cursor });
  });
}

export async function saveEarnings(account: AccountKey, reply: EarningsReply, at: number): Promise<void> {
  const value: EarningsSnapshot = { reply, at };
  await db.meta.put({ key: metaKey.earnings(accountKey(account)), value });
}

export async function earningsSnapshot(account: AccountKey): Promise<EarningsSnapshot | null> {
  const row = await db.meta.get(metaKey.earnings(accountKey(account)));
  return (row?.value as EarningsSnapshot | undefined) ?? null;
}

/** Every response the server reported a change for, newest change first. */
export async function listStatuses(account: AccountKey): Promise<StatusRow[]> {
  const rows = await Promise.all((await db.statuses.where('account').equals(accountKey(account)).toArray()).map(openStatus));
  return rows.sort((a, b) => (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : 0));
}

/** One line of the Earnings list: a response the server listed or reported, or this phone holds, and its state. */
export interface EarningsLine {
  /** The server _id, or the clientId while the phone still holds it unsent. */
  id: string;
  surveyId: string;
  status: StatusRow['status'] | 'sending';
  comment: string | null;
  revision: number;
  paid: boolean;
  /** The naira it counts for in the cards; null when only the phone or the changes feed knows of it. */
  amount: number | null;
  /** ISO times, each what its name says; null when not happened or not known on this phone. */
  capturedAt: string | null;
  submittedAt: string | null;
  reviewedAt: string | null;
  /** When the server received a fix (a fixed response awaits review again). */
  fixedAt: string | null;
  paidAt: string | null;
  answers: OutboxRecord['answers'] | undefined;
  /** A fix of it is queued on this phone and not yet received. */
  fixQueued: boolean;
  /** Approved but held for verification (the survey's pay gate), and why; from the server's list only. */
  held?: HoldReason;
}

/** The times a change of the feed stands for: its changedAt is a payment, a fix received, or a decision. */
function timesOf(s: StatusRow): Pick<EarningsLine, 'reviewedAt' | 'fixedAt' | 'paidAt'> {
  if (s.paid) return { reviewedAt: null, fixedAt: null, paidAt: s.changedAt };
  if (s.status === 'pending') return { reviewedAt: null, fixedAt: s.revision > 1 ? s.changedAt : null, paidAt: null };
  return { reviewedAt: s.changedAt, fixedAt: null, paidAt: null };
}

/** The latest server time a listed response shows (ISO strings from the server compare as times). */
const latestOf = (r: MyResponse) => [r.submittedAt, r.reviewedAt, r.paidAt].reduce<string>((a, b) => (b && b > a ? b : a), '');

/**
 * The account's responses for the Earnings screen, those returned to fix first. The spine is the
 * server's list (GET /me/responses, my-responses.ts): every response the cards count, from any
 * phone, with its amount and times. Around it: what the changes feed heard after the list was
 * loaded (a newer state wins), returned responses on pages not loaded yet (each needs a fix), those
 * this phone sent since, and those still waiting to be sent. Before the list was ever loaded, the
 * feed's responses and those this phone sent (as the survey received them: `pending` when it pays
 * after review, else `approved`).
 */
export async function earningsLines(account: AccountKey, payAfterReview: (surveyId: string) => boolean): Promise<EarningsLine[]> {
  const key = accountKey(account);
  const [statuses, records, list] = await Promise.all([
    listStatuses(key),
    db.outbox.where('[account+createdAt]').between([key, -Infinity], [key, Infinity]).reverse().toArray().then(openRecords),
    responsesList(key),
  ]);
  const fixes = new Set(records.filter((r) => r.revisionOf && r.status !== 'synced').map((r) => r.revisionOf!));
  const byId = new Map(records.filter((r) => r.serverId && !r.revisionOf && !r.backcheckOf).map((r) => [r.serverId!, r]));
  const statusOf = new Map(statuses.map((s) => [s.id, s]));
  const answersOf = (id: string) => {
    const r = byId.get(id);
    return statusOf.get(id)?.answers ?? (r ? withPhotoRefs(r.answers, r.photoRefs) : undefined);
  };
  const fromStatus = (s: StatusRow, r?: OutboxRecord): EarningsLine => ({
    id: s.id, surveyId: s.surveyId, status: s.status, comment: s.comment, revision: s.revision, paid: s.paid, amount: null,
    capturedAt: r?.capturedAt ?? null, submittedAt: r?.syncedAt !== undefined ? new Date(r.syncedAt).toISOString() : null, ...timesOf(s),
    answers: answersOf(s.id), fixQueued: fixes.has(s.id),
  });

  const unsent: EarningsLine[] = [];
  const sentHere: EarningsLine[] = [];
  for (const r of records) {
    if (r.revisionOf || r.backcheckOf || (r.serverId && list?.rows.some((l) => l._id === r.serverId))) continue;
    if (r.status !== 'synced' || !r.serverId) {
      unsent.push({ id: r.id, surveyId: r.surveyId, status: 'sending', comment: null, revision: 1, paid: false, amount: null, capturedAt: r.capturedAt, submittedAt: null, reviewedAt: null, fixedAt: null, paidAt: null, answers: withPhotoRefs(r.answers, r.photoRefs), fixQueued: false });
    } else if (!list || (r.syncedAt ?? 0) > list.at) {
      const s = statusOf.get(r.serverId);
      sentHere.push(s ? fromStatus(s, r) : {
        id: r.serverId, surveyId: r.surveyId, status: payAfterReview(r.surveyId) ? 'pending' : 'approved', comment: null, revision: 1, paid: false, amount: null,
        capturedAt: r.capturedAt, submittedAt: r.syncedAt !== undefined ? new Date(r.syncedAt).toISOString() : null, reviewedAt: null, fixedAt: null, paidAt: null,
        answers: answersOf(r.serverId), fixQueued: false,
      });
    }
  }
  const seen = new Set([...sentHere.map((l) => l.id), ...(list?.rows.map((r) => r._id) ?? [])]);
  const fromFeed = statuses.filter((s) => !seen.has(s.id) && (!list || s.status === 'returned')).map((s) => fromStatus(s));
  const listed = (list?.rows ?? []).map((r): EarningsLine => {
    const s = statusOf.get(r._id);
    const line: EarningsLine = {
      id: r._id, surveyId: r.survey_id, status: r.status, comment: r.comment, revision: r.revision, paid: r.paid, amount: r.amount,
      capturedAt: r.capturedAt, submittedAt: r.submittedAt, reviewedAt: r.reviewedAt, fixedAt: null, paidAt: r.paidAt, answers: answersOf(r._id), fixQueued: fixes.has(r._id),
      ...(r.held ? { held: r.held } : {}),
    };
    // A sync after the list was loaded heard of a later change: that is the response's state now.
    if (!s || s.changedAt <= latestOf(r)) return line;
    return { ...line, status: s.status, comment: s.comment, revision: s.revision, paid: s.paid, ...timesOf(s), paidAt: r.paidAt ?? timesOf(s).paidAt, reviewedAt: s.paid ? r.reviewedAt : timesOf(s).reviewedAt };
  });
  const lines = [...unsent, ...sentHere, ...fromFeed, ...listed];
  // What needs the field user comes first: responses returned to fix and not fixed yet.
  const needsFix = (l: EarningsLine) => (l.status === 'returned' && !l.fixQueued ? 0 : 1);
  return lines.sort((a, b) => needsFix(a) - needsFix(b));
}
