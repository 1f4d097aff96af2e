import { sql, type Kysely } from 'kysely';

/**
 * Which payout holds a response moves from `responses.payout_id` to its own narrow table. Freezing
 * a payout then inserts one small row per response instead of rewriting the response row: on
 * PostgreSQL that rewrite was never HOT (a new tuple plus an entry in every index of `responses`,
 * the pg_trgm GIN index included) and took 16 s for 100,000 responses (docs/benchmarks.md).
 * The primary key on `response_id` is what keeps a response in at most one open or paid payout;
 * cancelling a payout deletes its items. `rate` is the response's rate, frozen with it, so the
 * payout's lines are summed from the items alone.
 *
 * No foreign keys: their per-row checks were 1.5 of the 2.5 s an insert of 100,000 items took on
 * PostgreSQL. Nothing in the app deletes a response or a payout; a survey deleted by hand takes its
 * responses and payouts with it and leaves items that refer to nothing and hold nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payout_items')
    .addColumn('response_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('payout_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('rate', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payout_items_payout').on('payout_items').columns(['payout_id', 'member_id']).execute();
  await sql`insert into payout_items (response_id, payout_id, member_id, rate) select id, payout_id, member_id, rate from responses where payout_id is not null`.execute(db);
  await db.schema.dropIndex('responses_payout').execute();
  await db.schema.alterTable('responses').dropColumn('payout_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').addColumn('payout_id', 'varchar(64)').execute();
  await sql`update responses set payout_id = (select i.payout_id from payout_items i where i.response_id = responses.id)`.execute(db);
  await db.schema.createIndex('responses_payout').on('responses').column('payout_id').where(sql.ref('payout_id'), 'is not', null).execute();
  await db.schema.dropTable('payout_items').execute();
}
