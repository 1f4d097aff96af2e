import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * response_counts: how many responses each member has in a survey, and when the newest one was
 * received, kept by triggers in the same transaction as every insert, delete or re-keying update
 * of a response (ingest, batch sync, seeds, cascades), so the dashboard cards read O(members) rows
 * instead of counting the survey's responses.
 *
 * PostgreSQL: a counter row is locked from its update to the commit, so concurrent inserts for one
 * member would queue on it. Each connection adds to its own shard (backend pid mod 16) and readers
 * sum the shards; a delete takes from the member's lowest shard, which may go below zero. (A delete
 * racing an insert of the same member can leave last_created_at behind until that member's next
 * response; the app deletes responses only by cascade.)
 * The triggers are per statement there (one upsert per member for a batch). SQLite has one writer,
 * so it keeps shard 0 and per-row triggers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isSqlite(db)) return create(db);
  // Kysely runs SQLite migrations outside a transaction: one here, so an interrupted backfill
  // leaves nothing behind and the migration simply runs again on the next start.
  await sql`begin immediate`.execute(db);
  try {
    await create(db);
    await sql`commit`.execute(db);
  } catch (err) {
    await sql`rollback`.execute(db);
    throw err;
  }
}

async function create(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('response_counts')
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('member_id', 'varchar(64)', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('responses', 'bigint', (c) => c.notNull())
    .addColumn('last_created_at', 'bigint')
    .addPrimaryKeyConstraint('response_counts_pk', ['survey_id', 'member_id', 'shard'])
    .execute();
  // For the cascade when a member is deleted.
  await db.schema.createIndex('response_counts_member').on('response_counts').column('member_id').execute();
  // Grouped by member alone, the count reads only responses_member_created (1M rows: 1 s, against
  // 29 s grouping by survey too, which reads the table); a member's responses are all in its survey.
  await sql`insert into response_counts (survey_id, member_id, shard, responses, last_created_at)
    select m.survey_id, c.member_id, 0, c.n, c.last_created_at
    from (select member_id, count(*) as n, max(created_at) as last_created_at from responses group by member_id) c
    join members m on m.id = c.member_id`.execute(db);
  if (isSqlite(db)) await sqliteTriggers(db);
  else await postgresTriggers(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['response_counts_insert', 'response_counts_delete', 'response_counts_update']) {
    if (isSqlite(db)) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
    else await sql`drop trigger if exists ${sql.id(t)} on responses`.execute(db);
  }
  if (!isSqlite(db)) for (const f of ['response_counts_insert', 'response_counts_delete', 'response_counts_update']) await sql`drop function if exists ${sql.id(f)}()`.execute(db);
  await db.schema.dropTable('response_counts').execute();
}

/** The member's newest remaining response (one index seek on responses_member_created). */
const newest = (survey: string, member: string) =>
  `(select r.created_at from responses r where r.member_id = ${member} and r.survey_id = ${survey} order by r.created_at desc limit 1)`;

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const add = (p: 'new') => `insert into response_counts (survey_id, member_id, shard, responses, last_created_at)
      values (${p}.survey_id, ${p}.member_id, 0, 1, ${p}.created_at)
      on conflict (survey_id, member_id, shard) do update set
        responses = responses + 1, last_created_at = max(coalesce(last_created_at, excluded.last_created_at), excluded.last_created_at);`;
  const take = (p: 'old') => `update response_counts set responses = responses - 1, last_created_at = ${newest(`${p}.survey_id`, `${p}.member_id`)}
      where survey_id = ${p}.survey_id and member_id = ${p}.member_id and shard = 0;`;
  await sql.raw(`create trigger response_counts_insert after insert on responses begin ${add('new')} end`).execute(db);
  await sql.raw(`create trigger response_counts_delete after delete on responses begin ${take('old')} end`).execute(db);
  await sql.raw(`create trigger response_counts_update after update of survey_id, member_id, created_at on responses begin ${take('old')} ${add('new')} end`).execute(db);
}

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  const shard = 'pg_backend_pid() % 16';
  // Rows in key order, so two statements touching the same members lock them in the same order.
  const add = (from: string) => `insert into response_counts as c (survey_id, member_id, shard, responses, last_created_at)
      select survey_id, member_id, ${shard}, count(*), max(created_at) from ${from} group by survey_id, member_id order by survey_id, member_id
      on conflict (survey_id, member_id, shard) do update set
        responses = c.responses + excluded.responses, last_created_at = greatest(c.last_created_at, excluded.last_created_at);`;
  const take = (from: string) => `update response_counts c set responses = c.responses - d.n
      from (select survey_id, member_id, count(*) as n from ${from} group by survey_id, member_id) d
      where c.survey_id = d.survey_id and c.member_id = d.member_id
        and c.shard = (select min(x.shard) from response_counts x where x.survey_id = d.survey_id and x.member_id = d.member_id);
    update response_counts c set last_created_at = ${newest('c.survey_id', 'c.member_id')}
      where (c.survey_id, c.member_id) in (select survey_id, member_id from ${from});`;
  // `set search_path from current`: the function finds the tables of the schema it was created in.
  const fn = (name: string, body: string) =>
    sql.raw(`create function ${name}() returns trigger language plpgsql set search_path from current as $$ begin ${body} return null; end $$`).execute(db);
  await fn('response_counts_insert', add('inserted'));
  await fn('response_counts_delete', take('deleted'));
  await fn('response_counts_update', `${take('(select old.survey_id as survey_id, old.member_id as member_id) as o')} ${add('(select new.survey_id as survey_id, new.member_id as member_id, new.created_at as created_at) as n')}`);
  await sql`create trigger response_counts_insert after insert on responses referencing new table as inserted for each statement execute function response_counts_insert()`.execute(db);
  await sql`create trigger response_counts_delete after delete on responses referencing old table as deleted for each statement execute function response_counts_delete()`.execute(db);
  // Transition tables cannot go with a column list, so re-keying is per row; nothing in the app re-keys.
  await sql`create trigger response_counts_update after update of survey_id, member_id, created_at on responses for each row
    when (old.survey_id is distinct from new.survey_id or old.member_id is distinct from new.member_id or old.created_at is distinct from new.created_at)
    execute function response_counts_update()`.execute(db);
}

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
