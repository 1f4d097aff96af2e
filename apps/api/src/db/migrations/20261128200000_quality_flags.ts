import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Quality flags. Ingest writes only `responses.meta` (what the phone recorded, JSON)
 * and, by trigger in the same transaction, a `flag_jobs` row: the durable queue an in-process
 * worker (modules/flags) empties just after commit. A crash loses no job: a restart finds it.
 * The worker writes the facts it compares (`response_checks`, `response_photos`, with their
 * indexes), the flags and, last, deletes the job, all in one transaction; nothing here costs
 * an ingested row more than one small insert. A fix and resubmit (a new revision) queues it again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').addColumn('meta', 'text').execute();
  await db.schema.alterTable('surveys').addColumn('min_duration_s', 'integer').execute();
  await db.schema.alterTable('surveys').addColumn('max_accuracy_m', 'integer').execute();

  await db.schema
    .createTable('flag_jobs')
    .addColumn('response_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('queued_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('response_checks')
    .addColumn('response_id', 'varchar(64)', (c) => c.primaryKey().references('responses.id').onDelete('cascade'))
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('captured_at', 'bigint')
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('answers_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint')
    .execute();
  await db.schema.createIndex('response_checks_user_captured').on('response_checks').columns(['user_id', 'captured_at']).execute();
  await db.schema.createIndex('response_checks_answers').on('response_checks').columns(['survey_id', 'answers_hash']).execute();
  await db.schema.createIndex('response_checks_duration').on('response_checks').columns(['survey_id', 'duration_ms']).execute();

  await db.schema
    .createTable('response_photos')
    .addColumn('response_id', 'varchar(64)', (c) => c.notNull().references('responses.id').onDelete('cascade'))
    .addColumn('question', 'varchar(500)', (c) => c.notNull())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)')
    .addColumn('phash', 'varchar(16)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('response_photos_pk', ['response_id', 'question'])
    .execute();
  // The first response holding a photo is found at the start of its key's range, however many share it.
  await db.schema.createIndex('response_photos_sha').on('response_photos').columns(['organization_id', 'sha256', 'created_at']).execute();
  await db.schema.createIndex('response_photos_user').on('response_photos').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('response_photos_survey').on('response_photos').columns(['survey_id', 'created_at']).execute();

  await db.schema
    .createTable('response_flags')
    .addColumn('response_id', 'varchar(64)', (c) => c.notNull().references('responses.id').onDelete('cascade'))
    .addColumn('flag', 'varchar(40)', (c) => c.notNull())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('other_response_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('dismissed_at', 'bigint')
    .addColumn('dismissed_by', 'varchar(200)')
    .addColumn('dismissed_role', 'varchar(40)')
    .addColumn('dismiss_note', 'text')
    .addPrimaryKeyConstraint('response_flags_pk', ['response_id', 'flag'])
    .execute();
  await db.schema.createIndex('response_flags_survey').on('response_flags').columns(['survey_id', 'member_id']).execute();

  // The audit of dismissals: kept even if the flag row is recomputed after a fix.
  await db.schema
    .createTable('flag_dismissals')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('response_id', 'varchar(64)', (c) => c.notNull().references('responses.id').onDelete('cascade'))
    .addColumn('flag', 'varchar(40)', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('actor_role', 'varchar(40)', (c) => c.notNull())
    .addColumn('actor_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('flag_dismissals_response').on('flag_dismissals').columns(['response_id', 'created_at']).execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`create trigger flag_jobs_insert after insert on responses begin
      insert into flag_jobs (response_id, queued_at) values (new.id, new.created_at) on conflict do nothing; end`.execute(db);
    await sql`create trigger flag_jobs_revision after update of revision on responses when old.revision is not new.revision begin
      insert into flag_jobs (response_id, queued_at) values (new.id, new.created_at) on conflict do nothing; end`.execute(db);
  } else {
    const fn = (name: string, body: string) =>
      sql.raw(`create function ${name}() returns trigger language plpgsql set search_path from current as $$ begin ${body} return null; end $$`).execute(db);
    await fn('flag_jobs_insert', 'insert into flag_jobs (response_id, queued_at) select id, created_at from inserted on conflict do nothing;');
    await fn('flag_jobs_revision', 'insert into flag_jobs (response_id, queued_at) values (new.id, new.created_at) on conflict do nothing;');
    // Per statement: a batch of 50 is one insert into flag_jobs.
    await sql`create trigger flag_jobs_insert after insert on responses referencing new table as inserted for each statement execute function flag_jobs_insert()`.execute(db);
    await sql`create trigger flag_jobs_revision after update of revision on responses for each row when (old.revision is distinct from new.revision) execute function flag_jobs_revision()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`drop trigger if exists flag_jobs_insert`.execute(db);
    await sql`drop trigger if exists flag_jobs_revision`.execute(db);
  } else {
    await sql`drop trigger if exists flag_jobs_insert on responses`.execute(db);
    await sql`drop trigger if exists flag_jobs_revision on responses`.execute(db);
    await sql`drop function if exists flag_jobs_insert()`.execute(db);
    await sql`drop function if exists flag_jobs_revision()`.execute(db);
  }
  for (const t of ['flag_dismissals', 'response_flags', 'response_photos', 'response_checks', 'flag_jobs']) await db.schema.dropTable(t).execute();
  await db.schema.alterTable('surveys').dropColumn('max_accuracy_m').execute();
  await db.schema.alterTable('surveys').dropColumn('min_duration_s').execute();
  await db.schema.alterTable('responses').dropColumn('meta').execute();
}
