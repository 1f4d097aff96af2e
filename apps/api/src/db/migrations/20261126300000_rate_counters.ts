import type { Kysely } from 'kysely';

/** Sign-in and registration counters shared by every API process (counters/db-counter-store.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_counters')
    .ifNotExists()
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_counters_window').ifNotExists().on('rate_counters').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_counters').ifExists().execute();
}
