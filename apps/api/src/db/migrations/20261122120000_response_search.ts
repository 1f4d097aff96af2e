import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Substring search over responses.search_text (already lower-cased at ingest).
 * SQLite: an FTS5 trigram index with responses as external content, kept in step by triggers.
 * The index is keyed by the implicit rowid, which VACUUM may renumber: after a VACUUM run
 * `insert into responses_fts(responses_fts) values('rebuild')`. Readers re-check every hit against
 * search_text, so a stale index can miss rows but never show a wrong one.
 * PostgreSQL: a pg_trgm GIN index, which serves `search_text like '%term%'`.
 * Both: responses_survey_created also carries rate, so the weekly earnings chart reads only the index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await sql`create virtual table responses_fts using fts5(search_text, content='responses', content_rowid='rowid', tokenize='trigram')`.execute(db);
    await sql`create trigger responses_fts_insert after insert on responses begin
      insert into responses_fts(rowid, search_text) values (new.rowid, new.search_text);
    end`.execute(db);
    await sql`create trigger responses_fts_delete after delete on responses begin
      insert into responses_fts(responses_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
    end`.execute(db);
    await sql`create trigger responses_fts_update after update of search_text on responses begin
      insert into responses_fts(responses_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
      insert into responses_fts(rowid, search_text) values (new.rowid, new.search_text);
    end`.execute(db);
    await sql`insert into responses_fts(responses_fts) values ('rebuild')`.execute(db);
    // The weekly chart sums rate over a survey's week: carrying rate in the index makes that index-only.
    await sql`drop index if exists responses_survey_created`.execute(db);
    await sql`create index responses_survey_created on responses (survey_id, created_at, id, rate)`.execute(db);
    return;
  }
  const schema = await trigramSchema(db);
  await sql`create index if not exists responses_search_trgm on responses using gin (search_text ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  await sql`drop index if exists responses_survey_created`.execute(db);
  await sql`create index responses_survey_created on responses (survey_id, created_at, id) include (rate)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    for (const trigger of ['responses_fts_insert', 'responses_fts_delete', 'responses_fts_update']) {
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    }
    await sql`drop table if exists responses_fts`.execute(db);
  } else {
    await sql`drop index if exists responses_search_trgm`.execute(db);
  }
  await sql`drop index if exists responses_survey_created`.execute(db);
  await sql`create index responses_survey_created on responses (survey_id, created_at, id)`.execute(db);
}

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * The schema pg_trgm lives in, installing it in `public` when missing. It is database-wide, so
 * it must not land in a per-test schema that is later dropped; two installs racing is tolerated.
 */
async function trigramSchema(db: Kysely<any>): Promise<string> {
  const find = async () => {
    const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    return rows[0]?.schema;
  };
  const existing = await find();
  if (existing) return existing;
  // Migrations run in one transaction: a savepoint keeps it usable if a racing install wins.
  await sql`savepoint install_pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint install_pg_trgm`.execute(db);
  } catch (err) {
    // 23505/42710: another connection installed it between our look and our create.
    const code = (err as { code?: string }).code;
    if (code !== '23505' && code !== '42710') throw err;
    await sql`rollback to savepoint install_pg_trgm`.execute(db);
  }
  const installed = await find();
  if (!installed) throw new Error('pg_trgm could not be installed');
  return installed;
}
