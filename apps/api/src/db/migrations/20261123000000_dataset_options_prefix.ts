import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Large-dataset prefix search is a range `q <= value_lower < q || U+FFFF`, which means "starts with"
 * only in byte order. SQLite compares bytes and uses dataset_options_search as it is; PostgreSQL
 * compares in the database collation (en_US and the like), so it gets an index in byte order too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create index dataset_options_prefix on dataset_options (survey_id, question, (value_lower collate "C"))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop index if exists dataset_options_prefix`.execute(db);
}
