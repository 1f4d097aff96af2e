import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Which store holds each photo's bytes ('disk', 'postgres' or 's3'; rows from before are on disk),
 * and the table the database store keeps them in. Additive: an older instance ignores both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema.alterTable('files').addColumn('store', 'text', (c) => c.notNull().defaultTo('disk')).execute();
  await db.schema
    .createTable('file_blobs')
    .ifNotExists()
    .addColumn('file_id', 'text', (c) => c.primaryKey().references('files.id').onDelete('cascade'))
    .addColumn('bytes', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
    .execute();
  // Photos do not compress; stored uncompressed, a read of one 256 KB slice fetches only its TOAST chunks.
  if (!sqlite) await sql`alter table file_blobs alter column bytes set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('file_blobs').ifExists().execute();
  await db.schema.alterTable('files').dropColumn('store').execute();
}
