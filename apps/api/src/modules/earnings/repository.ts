import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { PayoutStatus, ResponseStatus, Role } from '@survey-bird/contracts';
import type { Database, ReturnDigestsTable } from '../../db/schema.js';
import type { Page } from '../../http/paging.js';
import { paidAtOf } from '../payouts/paid.js';

export interface Cursor {
  changedAt: number;
  id: string;
}

/** Rows per changes page. */
export const CHANGES_PAGE = 500;

export class EarningsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The caller's responses reviewed or revised after (changedAt, id), oldest change first. Reads
   * only the partial index (user_id, changed_at) where changed_at is set, so nothing changed costs one seek.
   */
  changed(userId: string, after: Cursor, limit: number) {
    return this.feedRows(this.db.selectFrom('responses as r')
      .select('r.changed_at as at')
      .where('r.user_id', '=', userId)
      .where('r.changed_at', 'is not', null)
      .where((eb) => eb.or([eb('r.changed_at', '>', after.changedAt), eb.and([eb('r.changed_at', '=', after.changedAt), eb('r.id', '>', after.id)])]))
      .orderBy('r.changed_at').orderBy('r.id').limit(limit));
  }

  /**
   * The caller's responses paid by a payout marked paid after (changedAt, id): a payment is a change
   * of the payout row, not of the responses (payouts/paid.ts). Nothing paid since: one read of the
   * payouts paid since the cursor, of which there are few.
   */
  paid(userId: string, after: Cursor, limit: number) {
    return this.feedRows(this.db.selectFrom('payouts as p')
      .innerJoin('payout_items as i', 'i.payout_id', 'p.id')
      .innerJoin('responses as r', 'r.id', 'i.response_id')
      .select('p.paid_at as at')
      .where('p.status', '=', PayoutStatus.paid)
      .where('i.member_id', 'in', (eb) => eb.selectFrom('members').select('id').where('user_id', '=', userId))
      .where((eb) => eb.or([eb('p.paid_at', '>', after.changedAt), eb.and([eb('p.paid_at', '=', after.changedAt), eb('r.id', '>', after.id)])]))
      .orderBy('p.paid_at').orderBy('r.id').limit(limit));
  }

  private feedRows<O>(q: SelectQueryBuilder<Database & { r: Database['responses'] }, 'r', O>) {
    return q.select(['r.id', 'r.client_id', 'r.survey_id', 'r.status', 'r.review_comment', paidAtOf('r.id', 'r.paid_at').as('paid_at'), 'r.revision',
      // A returned response's answers travel with it, so the phone can open it for fixing.
      sql<string | null>`case when r.status = 'returned' then r.answers else null end`.as('returned_answers')]).execute();
  }

  /**
   * A page of the caller's responses, newest received first, and how many there are: the same rows
   * `totals` counts, so the list and the cards agree. `user_id` decides whose they are; the members
   * clause lets the (member_id, created_at) index find them.
   */
  async mine(userId: string, page: Page) {
    const base = this.db.selectFrom('responses as r')
      .where('r.user_id', '=', userId)
      .where('r.member_id', 'in', (eb) => eb.selectFrom('members').select('id').where('user_id', '=', userId));
    const [rows, total] = await Promise.all([
      base.select(['r.id', 'r.client_id', 'r.survey_id', 'r.status', 'r.review_comment', 'r.revision', 'r.rate', 'r.captured_at', 'r.created_at', 'r.reviewed_at', paidAtOf('r.id', 'r.paid_at').as('paid_at')])
        .orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(page.limit).offset(page.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** The caller's field-user memberships on surveys with a pay gate (only those can hold anything). */
  gatedMemberships(userId: string) {
    return this.db.selectFrom('members as m').innerJoin('surveys as s', 's.id', 'm.survey_id').select(['m.id', 'm.survey_id'])
      .where('m.user_id', '=', userId).where('m.role', '=', Role.fieldUser).where('s.pay_gate', 'is not', null).execute();
  }

  /** Count and naira per status, paid apart, across the caller's responses. */
  totals(userId: string) {
    const paidAt = paidAtOf('r.id', 'r.paid_at');
    const isPaid = sql<number>`case when ${paidAt} is null then 0 else 1 end`;
    return this.db.selectFrom('responses as r')
      .select(['r.status', isPaid.as('paid'), (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.sum<number>('r.rate').as('amount'), (eb) => eb.fn.max(paidAt).as('last_paid_at')])
      .where('r.user_id', '=', userId)
      .groupBy(['r.status', isPaid])
      .execute();
  }

  /** Field users with a response returned after `since`, and their latest return (the partial index (user_id, changed_at)). */
  recentlyReturned(since: number) {
    return this.db.selectFrom('responses as r')
      .select(['r.user_id', (eb) => eb.fn.max('r.changed_at').as('last_returned')])
      .where('r.changed_at', 'is not', null)
      .where('r.changed_at', '>', since)
      .where('r.status', '=', ResponseStatus.returned)
      .groupBy('r.user_id')
      .execute();
  }

  /** When the field user's latest return digest was claimed; null when never. */
  async lastDigestAt(userId: string): Promise<number | null> {
    const last = await this.db.selectFrom('return_digests').select((eb) => eb.fn.max('created_at').as('at')).where('user_id', '=', userId).executeTakeFirst();
    return last?.at === null || last?.at === undefined ? null : Number(last.at);
  }

  async returnedCount(userId: string): Promise<number> {
    const row = await this.db.selectFrom('responses').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('status', '=', ResponseStatus.returned).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Claims a field user's digest of a day; a claim already there is kept. */
  async claimDigest(row: ReturnDigestsTable): Promise<void> {
    await this.db.insertInto('return_digests').values(row).onConflict((oc) => oc.columns(['user_id', 'day']).doNothing()).execute();
  }

  /** Every claim not yet mailed, with the field user's address. */
  dueDigests() {
    return this.db.selectFrom('return_digests as d').innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.user_id', 'd.day', 'd.returned', 'u.email', 'u.language']).where('d.mailed_at', 'is', null).execute();
  }

  /** Marks a claim mailed where it was not yet; whether this caller took it. */
  async takeDigest(userId: string, day: string, now: number): Promise<boolean> {
    const taken = await this.db.updateTable('return_digests').set({ mailed_at: now }).where('user_id', '=', userId).where('day', '=', day).where('mailed_at', 'is', null).executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }
}
