import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Unfinished resumable photo uploads kept in the database, so that every instance sees
 * them: one row per upload (tus's metadata as JSON, the length, the bytes received so far) and its
 * bytes as appended chunk rows, each committed with the new offset. Additive: an older instance
 * keeps its partial uploads in DATA_DIR/resumable and never reads these tables.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('resumable_uploads')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint')
    .addColumn('upload_offset', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resumable_uploads_created_at').ifNotExists().on('resumable_uploads').column('created_at').execute();
  await db.schema
    .createTable('resumable_upload_chunks')
    .ifNotExists()
    .addColumn('upload_id', 'text', (c) => c.notNull().references('resumable_uploads.id').onDelete('cascade'))
    .addColumn('chunk_offset', 'bigint', (c) => c.notNull())
    .addColumn('bytes', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('resumable_upload_chunks_pkey', ['upload_id', 'chunk_offset'])
    .execute();
  // Photos do not compress: stored as they are, without a compression attempt per chunk.
  if (!sqlite) await sql`alter table resumable_upload_chunks alter column bytes set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('resumable_upload_chunks').ifExists().execute();
  await db.schema.dropTable('resumable_uploads').ifExists().execute();
}
