import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: responses_grams, a contentless FTS5 index of each response's 1- and 2-character grams
 * keyed by survey (modules/insight/search-grams.ts), filled in batches by the search indexer like
 * responses_fts; search_index_state.grams_rowid is its mark. Starting at 0, the first start-up after
 * this migration indexes every stored response (about a minute per million).
 * A deleted response leaves the index (contentless_delete); one whose search_text or survey changes
 * leaves it and is listed in search_grams_stale, which searches scan and the indexer re-indexes.
 * PostgreSQL: nothing yet (see up()).
 */
export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL keeps its LIKE plan for now: an expression GIN index of every response's grams took
  // over 45 minutes to build on 1M rows and its cost per insert is unmeasured (docs/decisions.md).
  if (!isSqlite(db)) return;
  await sql`create virtual table responses_grams using fts5(grams, content='', contentless_delete=1, detail=none, tokenize='ascii')`.execute(db);
  await sql`alter table search_index_state add column grams_rowid integer not null default 0`.execute(db);
  await sql`create table search_grams_stale (rowid integer primary key)`.execute(db);
  await sql`create trigger responses_grams_delete after delete on responses
    when old.rowid <= (select grams_rowid from search_index_state where id = 1) begin
      delete from responses_grams where rowid = old.rowid;
      delete from search_grams_stale where rowid = old.rowid;
    end`.execute(db);
  await sql`create trigger responses_grams_update after update of search_text, survey_id on responses
    when old.rowid <= (select grams_rowid from search_index_state where id = 1) begin
      delete from responses_grams where rowid = old.rowid;
      insert into search_grams_stale (rowid) values (new.rowid) on conflict do nothing;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isSqlite(db)) return;
  for (const t of ['responses_grams_delete', 'responses_grams_update']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  await sql`drop table if exists search_grams_stale`.execute(db);
  await sql`alter table search_index_state drop column grams_rowid`.execute(db);
  await sql`drop table if exists responses_grams`.execute(db);
}

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
