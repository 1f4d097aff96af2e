import { sql } from 'kysely';

/**
 * When a response was paid, as SQL: a paid payout holding it (payout_items), or `paid_at` for
 * responses paid before payouts existed. Marking a payout paid writes the payout row only, so
 * this is the one place that says what "paid" means; `column` is the response's id column.
 */
export const paidAtOf = (id: 'r.id' | 'responses.id', paidAt: 'r.paid_at' | 'responses.paid_at') =>
  sql<number | null>`coalesce(${sql.ref(paidAt)}, (select p.paid_at from payout_items i inner join payouts p on p.id = i.payout_id where i.response_id = ${sql.ref(id)} and p.status = 'paid'))`;

/** Whether a draft or paid payout holds the response (a cancelled one has released its items). */
export const inPayout = (id: 'r.id' | 'responses.id') => sql<boolean>`exists (select 1 from payout_items i where i.response_id = ${sql.ref(id)})`;
