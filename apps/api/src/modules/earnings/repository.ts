import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Rows per changes page. */
export const CHANGES_PAGE = 500;

export class EarningsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The caller's responses changed after (changedAt, id), oldest change first. Reads only the
   * partial index (user_id, changed_at) where changed_at is set, so nothing changed costs one seek.
   */
  changes(userId: string, after: { changedAt: number; id: string }, limit: number) {
    return this.db.selectFrom('responses')
      .select(['id', 'client_id', 'survey_id', 'status', 'review_comment', 'paid_at', 'changed_at', 'revision',
        // A returned response's answers travel with it, so the phone can open it for fixing.
        sql<string | null>`case when status = 'returned' then answers else null end`.as('returned_answers')])
      .where('user_id', '=', userId)
      .where('changed_at', 'is not', null)
      .where((eb) => eb.or([eb('changed_at', '>', after.changedAt), eb.and([eb('changed_at', '=', after.changedAt), eb('id', '>', after.id)])]))
      .orderBy('changed_at').orderBy('id').limit(limit).execute();
  }

  /** Count and naira per status, paid apart, across the caller's responses. */
  totals(userId: string) {
    return this.db.selectFrom('responses')
      .select(['status', sql<number>`case when paid_at is null then 0 else 1 end`.as('paid'), (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.sum<number>('rate').as('amount'), (eb) => eb.fn.max('paid_at').as('last_paid_at')])
      .where('user_id', '=', userId)
      .groupBy(['status', sql`case when paid_at is null then 0 else 1 end`])
      .execute();
  }
}
