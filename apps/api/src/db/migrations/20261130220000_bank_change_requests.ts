import type { Kysely } from 'kysely';

/**
 * A field user's request to change the bank details of one survey's membership; the office approves
 * (the change is then made as an office edit: audited, mailed) or rejects it. One pending request per
 * member: a newer one replaces it (status `replaced`). Additive: a new table only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bank_change_requests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('bank', 'varchar(120)', (c) => c.notNull())
    .addColumn('account_number', 'varchar(20)', (c) => c.notNull())
    .addColumn('account_name', 'varchar(120)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .addColumn('decided_by', 'varchar(64)')
    .execute();
  await db.schema.createIndex('bank_change_requests_org').on('bank_change_requests').columns(['organization_id', 'status', 'created_at']).execute();
  await db.schema.createIndex('bank_change_requests_member').on('bank_change_requests').columns(['member_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bank_change_requests').execute();
}
