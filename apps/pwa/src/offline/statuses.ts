import type { ChangesReply, EarningsReply } from '@survey-bird/contracts';
import { accountKey, db, metaKey, type EarningsSnapshot, type OutboxRecord, type StatusRow } from './db';

/**
 * What the server says became of the account's responses (review, fix, payment) and its earnings,
 * kept so the Earnings screen renders offline. Written only by a sync run (sync-engine.ts pulls
 * GET /me/responses/changes from the stored cursor, then GET /me/earnings); read by the screens.
 * A page of changes and the cursor after it are stored in one transaction, so a run that dies
 * mid-way pulls that page again, never skips one.
 */

export async function changesCursor(account: string): Promise<string | undefined> {
  const row = await db.meta.get(metaKey.changesCursor(accountKey(account)));
  return typeof row?.value === 'string' ? row.value : undefined;
}

export async function applyChanges(account: string, reply: ChangesReply): Promise<void> {
  const key = accountKey(account);
  const rows: StatusRow[] = reply.changes.map((c) => ({
    account: key, id: c._id, clientId: c.clientId, surveyId: c.survey_id, status: c.status, comment: c.comment,
    revision: c.revision, paid: c.paid, changedAt: c.changedAt, ...(c.answers ? { answers: c.answers } : {}),
  }));
  await db.transaction('rw', db.statuses, db.meta, async () => {
    await db.statuses.bulkPut(rows);
    await db.meta.put({ key: metaKey.changesCursor(key), value: reply.cursor });
  });
}

export async function saveEarnings(account: string, reply: EarningsReply, at: number): Promise<void> {
  const value: EarningsSnapshot = { reply, at };
  await db.meta.put({ key: metaKey.earnings(accountKey(account)), value });
}

export async function earningsSnapshot(account: string): Promise<EarningsSnapshot | null> {
  const row = await db.meta.get(metaKey.earnings(accountKey(account)));
  return (row?.value as EarningsSnapshot | undefined) ?? null;
}

/** Every response the server reported a change for, newest change first. */
export async function listStatuses(account: string): Promise<StatusRow[]> {
  const rows = await db.statuses.where('account').equals(accountKey(account)).toArray();
  return rows.sort((a, b) => (a.changedAt < b.changedAt ? 1 : a.changedAt > b.changedAt ? -1 : 0));
}

/** One line of the Earnings list: a response this phone sent or the server reported, and its state. */
export interface EarningsLine {
  /** The server _id, or the clientId while the phone still holds it unsent. */
  id: string;
  surveyId: string;
  status: StatusRow['status'] | 'sending';
  comment: string | null;
  revision: number;
  paid: boolean;
  /** ISO: the last change, or when it was captured. */
  at: string;
  answers: OutboxRecord['answers'] | undefined;
  /** A fix of it is queued on this phone and not yet received. */
  fixQueued: boolean;
}

/**
 * The account's responses for the Earnings screen, those returned to fix first: every one the server reported a change for,
 * then those this phone sent that nobody has reviewed yet (as the survey received them:
 * `pending` when it pays after review, else `approved`), then those still waiting to be sent.
 */
export async function earningsLines(account: string, payAfterReview: (surveyId: string) => boolean): Promise<EarningsLine[]> {
  const key = accountKey(account);
  const [statuses, records] = await Promise.all([listStatuses(key), db.outbox.where('[account+createdAt]').between([key, -Infinity], [key, Infinity]).reverse().toArray()]);
  const fixes = new Map(records.filter((r) => r.revisionOf && r.status !== 'synced').map((r) => [r.revisionOf!, r]));
  const byId = new Map(records.filter((r) => r.serverId && !r.revisionOf).map((r) => [r.serverId!, r]));
  const lines: EarningsLine[] = statuses.map((s) => ({
    id: s.id, surveyId: s.surveyId, status: s.status, comment: s.comment, revision: s.revision, paid: s.paid, at: s.changedAt,
    answers: s.answers ?? (byId.get(s.id) ? { ...byId.get(s.id)!.answers, ...byId.get(s.id)!.photoRefs } : undefined),
    fixQueued: fixes.has(s.id),
  }));
  const known = new Set(statuses.map((s) => s.id));
  for (const r of records) {
    if (r.revisionOf) continue;
    if (r.serverId && known.has(r.serverId)) continue;
    const sent = r.status === 'synced' && r.serverId;
    lines.push({
      id: sent ? r.serverId! : r.id, surveyId: r.surveyId, status: sent ? (payAfterReview(r.surveyId) ? 'pending' : 'approved') : 'sending',
      comment: null, revision: 1, paid: false, at: r.capturedAt, answers: { ...r.answers, ...r.photoRefs }, fixQueued: false,
    });
  }
  // What needs the field user comes first: responses returned to fix and not fixed yet.
  const needsFix = (l: EarningsLine) => (l.status === 'returned' && !l.fixQueued ? 0 : 1);
  return lines.sort((a, b) => needsFix(a) - needsFix(b));
}
