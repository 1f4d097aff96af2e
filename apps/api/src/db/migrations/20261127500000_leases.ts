import type { Kysely } from 'kysely';

/** Leases shared by every API process (counters/db-lease-store.ts): the export queue's limits across instances. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('leases')
    .ifNotExists()
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(100)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('leases').ifExists().execute();
}
