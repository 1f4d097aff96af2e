import type { Kysely } from 'kysely';

/**
 * Field-team monitoring: each organization's "no sync for N days"
 * threshold, each supervisor's opt-out of the daily e-mail, and the claim rows that keep that
 * e-mail to one per supervisor per UTC day across restarts and instances. Additive only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('stale_sync_days', 'integer', (c) => c.notNull().defaultTo(3)).execute();

  // A row only once a supervisor changes a setting: no row means the defaults (the e-mail on).
  await db.schema
    .createTable('supervisor_settings')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('sync_digest', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // One row per supervisor per UTC day they were checked: with field users to report, the mail's
  // text and mailed_at null until it is recorded; with none, mailed_at set at once (nothing to send).
  await db.schema
    .createTable('sync_digests')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('field_users', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('mailed_at', 'bigint')
    .addPrimaryKeyConstraint('sync_digests_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sync_digests').execute();
  await db.schema.dropTable('supervisor_settings').execute();
  await db.schema.alterTable('organizations').dropColumn('stale_sync_days').execute();
}
