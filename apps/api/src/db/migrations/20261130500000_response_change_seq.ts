import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * responses.change_seq: where a response stands in its changes feed (GET /survey/:id/responses?since=),
 * set by the database on every insert and every change a mirror must see (answers, revision,
 * version, status, review comment, review time) and when its payout is marked paid, so no write path
 * can forget it. A feed reader pages by (change_seq, id) and must never see a change land behind its
 * cursor:
 * - SQLite has one writer at a time: one counter row, bumped inside each writing transaction, numbers
 *   changes in commit order.
 * - PostgreSQL commits concurrently, so a counter (or a sequence) is not in commit order. change_seq
 *   is the writing transaction's id instead, and the feed reads only ids below its snapshot's xmin
 *   (every transaction there has ended): a change still in flight has an id at or above that xmin,
 *   so it lands ahead of any cursor handed out. No lock is taken; a long-running transaction only
 *   delays the feed until it ends.
 * Rows stored before get 0 (a default: instant on both engines), so a first read lists them by id.
 * Additive: an older instance writes as before and the triggers number its writes too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').addColumn('change_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('responses_survey_change').on('responses').columns(['survey_id', 'change_seq', 'id']).execute();
  const changed = 'answers, revision, version, status, review_comment, reviewed_at';
  if (isSqlite(db)) {
    await sql`create table change_counter (id integer primary key check (id = 1), seq integer not null)`.execute(db);
    await sql`insert into change_counter (id, seq) values (1, 0)`.execute(db);
    const bump = `update change_counter set seq = seq + 1 where id = 1;`;
    const seq = `(select seq from change_counter where id = 1)`;
    await sql.raw(`create trigger responses_change_insert after insert on responses begin ${bump} update responses set change_seq = ${seq} where rowid = new.rowid; end`).execute(db);
    await sql.raw(`create trigger responses_change_update after update of ${changed} on responses begin ${bump} update responses set change_seq = ${seq} where rowid = new.rowid; end`).execute(db);
    await sql.raw(`create trigger payouts_change_paid after update of status on payouts when new.status = 'paid' and old.status is not 'paid' begin ${bump}
      update responses set change_seq = ${seq} where id in (select response_id from payout_items where payout_id = new.id); end`).execute(db);
    return;
  }
  // `set search_path from current`: the functions find the tables of the schema they were created in.
  await sql`create function responses_change_seq() returns trigger language plpgsql set search_path from current as $$
    begin new.change_seq := pg_current_xact_id()::text::bigint; return new; end $$`.execute(db);
  await sql`create function payouts_change_paid() returns trigger language plpgsql set search_path from current as $$
    begin update responses set change_seq = 0 where id in (select response_id from payout_items where payout_id = new.id); return null; end $$`.execute(db);
  await sql`create trigger responses_change_insert before insert on responses for each row execute function responses_change_seq()`.execute(db);
  // change_seq is listed so the payout trigger's update (setting it to 0) is renumbered here too.
  await sql.raw(`create trigger responses_change_update before update of ${changed}, change_seq on responses for each row execute function responses_change_seq()`).execute(db);
  await sql`create trigger payouts_change_paid after update of status on payouts for each row
    when (new.status = 'paid' and old.status is distinct from 'paid') execute function payouts_change_paid()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    for (const t of ['responses_change_insert', 'responses_change_update', 'payouts_change_paid']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
    await sql`drop table if exists change_counter`.execute(db);
  } else {
    await sql`drop trigger if exists responses_change_insert on responses`.execute(db);
    await sql`drop trigger if exists responses_change_update on responses`.execute(db);
    await sql`drop trigger if exists payouts_change_paid on payouts`.execute(db);
    await sql`drop function if exists responses_change_seq()`.execute(db);
    await sql`drop function if exists payouts_change_paid()`.execute(db);
  }
  await db.schema.dropIndex('responses_survey_change').execute();
  await db.schema.alterTable('responses').dropColumn('change_seq').execute();
}

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
