import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite only: the trigram index is filled in batches by modules/insight/search-indexer.ts instead
 * of a per-insert trigger. A trigger made every single-row commit flush a tiny FTS segment, which
 * cost about four times the response insert itself; a batch of hundreds costs little per row.
 * search_index_state.last_rowid is the highest rowid already in the index; searches add a direct
 * scan of the few rows above it, so a response is findable the moment it is stored.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`drop trigger if exists responses_fts_insert`.execute(db);
  await sql`create table search_index_state (id integer primary key check (id = 1), last_rowid integer not null)`.execute(db);
  await sql`insert into search_index_state (id, last_rowid) select 1, coalesce(max(rowid), 0) from responses`.execute(db);
  // A row not yet indexed must not be "deleted" from the index: for external content that corrupts it.
  await sql`drop trigger if exists responses_fts_delete`.execute(db);
  await sql`create trigger responses_fts_delete after delete on responses
    when old.rowid <= (select last_rowid from search_index_state where id = 1) begin
      insert into responses_fts(responses_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
    end`.execute(db);
  await sql`drop trigger if exists responses_fts_update`.execute(db);
  await sql`create trigger responses_fts_update after update of search_text on responses
    when old.rowid <= (select last_rowid from search_index_state where id = 1) begin
      insert into responses_fts(responses_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
      insert into responses_fts(rowid, search_text) values (new.rowid, new.search_text);
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`insert into responses_fts(responses_fts) values ('rebuild')`.execute(db);
  await sql`drop table search_index_state`.execute(db);
  for (const t of ['responses_fts_delete', 'responses_fts_update']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
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
}
