import { sql, type Kysely } from 'kysely';

/**
 * Review and payouts. Existing responses are `approved` (the spec's behaviour before
 * review existed). Every index added on responses is partial over columns a fresh response leaves
 * NULL, so ingest writes no extra index entry per row (docs/benchmarks.md, "Review and payouts").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('surveys').addColumn('pay_after_review', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('responses').addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('approved')).execute();
  await db.schema.alterTable('responses').addColumn('review_comment', 'text').execute();
  await db.schema.alterTable('responses').addColumn('reviewed_by', 'varchar(64)').execute();
  await db.schema.alterTable('responses').addColumn('reviewed_at', 'bigint').execute();
  await db.schema.alterTable('responses').addColumn('payout_id', 'varchar(64)').execute();
  await db.schema.alterTable('responses').addColumn('changed_at', 'bigint').execute();
  await db.schema.createIndex('responses_payout').on('responses').column('payout_id').where(sql.ref('payout_id'), 'is not', null).execute();
  await db.schema.createIndex('responses_user_changed').on('responses').columns(['user_id', 'changed_at']).where(sql.ref('changed_at'), 'is not', null).execute();

  await db.schema
    .createTable('response_reviews')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('response_id', 'varchar(64)', (c) => c.notNull().references('responses.id').onDelete('cascade'))
    .addColumn('actor_user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('actor_role', 'varchar(32)', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('from_status', 'varchar(16)', (c) => c.notNull())
    .addColumn('to_status', 'varchar(16)', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('response_reviews_response').on('response_reviews').columns(['response_id', 'created_at']).execute();

  await db.schema
    .createTable('payouts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('response_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reference', 'text')
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_by', 'varchar(64)')
    .addColumn('paid_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addUniqueConstraint('payouts_org_key', ['organization_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('payouts_survey_created').on('payouts').columns(['survey_id', 'created_at']).execute();

  await db.schema
    .createTable('payout_lines')
    .addColumn('payout_id', 'varchar(64)', (c) => c.notNull().references('payouts.id').onDelete('cascade'))
    .addColumn('member_id', 'varchar(64)', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('bank', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text', (c) => c.notNull())
    .addColumn('account_name', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('response_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('payout_lines_pk', ['payout_id', 'member_id'])
    .execute();
  await db.schema.createIndex('payout_lines_member').on('payout_lines').column('member_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payout_lines').execute();
  await db.schema.dropTable('payouts').execute();
  await db.schema.dropTable('response_reviews').execute();
  await db.schema.dropIndex('responses_user_changed').execute();
  await db.schema.dropIndex('responses_payout').execute();
  for (const c of ['changed_at', 'payout_id', 'reviewed_at', 'reviewed_by', 'review_comment', 'status']) await db.schema.alterTable('responses').dropColumn(c).execute();
  await db.schema.alterTable('surveys').dropColumn('pay_after_review').execute();
}
