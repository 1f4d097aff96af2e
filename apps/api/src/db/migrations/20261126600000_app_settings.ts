import type { Kysely } from 'kysely';

/**
 * Settings every instance must share, generated once: the JWT signing secret of a PostgreSQL
 * deployment without JWT_SECRET (one instance's DATA_DIR is not shared with the others).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_settings')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_settings').ifExists().execute();
}
