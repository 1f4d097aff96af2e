import type { Kysely } from 'kysely';

/** What each field user's phone last reported at a sync (field-team monitoring): one row per account and device. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('device_status')
    .ifNotExists()
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('app_version', 'varchar(40)', (c) => c.notNull())
    .addColumn('waiting', 'integer', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addColumn('photos_waiting', 'integer', (c) => c.notNull())
    .addColumn('storage_used', 'bigint')
    .addColumn('storage_quota', 'bigint')
    .addColumn('last_sync_at', 'bigint')
    .addColumn('reported_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_status_pk', ['user_id', 'device_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_status').ifExists().execute();
}
