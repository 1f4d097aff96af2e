import { sql, type Kysely } from 'kysely';

/**
 * Which payout holds a response moves from `responses.payout_id` to its own narrow table. Freezing
 * a payout then inserts one small row per response instead of rewriting the response row: on
 * PostgreSQL that rewrite was never HOT (a new tuple plus an entry in every index of `responses`,
 * the pg_trgm GIN index included) and took 16 s for 100,000 responses (docs/benchmarks.md).
 * The primary key on `response_id` is what keeps a response in at most one open or paid payout;
 * cancelling a payout deletes its items.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payout_items')
    .addColumn('response_id', 'varchar(64)', (c) => c.primaryKey().references('responses.id').onDelete('cascade'))
    .addColumn('payout_id', 'varchar(64)', (c) => c.notNull().references('payouts.id').onDelete('cascade'))
    .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payout_items_payout').on('payout_items').columns(['payout_id', 'member_id']).execute();
  await sql`insert into payout_items (response_id, payout_id, member_id) select id, payout_id, member_id from responses where payout_id is not null`.execute(db);
  await db.schema.dropIndex('responses_payout').execute();
  await db.schema.alterTable('responses').dropColumn('payout_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').addColumn('payout_id', 'varchar(64)').execute();
  await sql`update responses set payout_id = (select i.payout_id from payout_items i where i.response_id = responses.id)`.execute(db);
  await db.schema.createIndex('responses_payout').on('responses').column('payout_id').where(sql.ref('payout_id'), 'is not', null).execute();
  await db.schema.dropTable('payout_items').execute();
}
