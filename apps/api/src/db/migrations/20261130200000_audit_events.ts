import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * The audit log: one row per office action on people, money, surveys and exports, and per office
 * sign-in. Append-only: no code path updates or deletes a row (modules/audit/append-only.test.ts
 * scans the sources) and the database refuses an UPDATE or DELETE by trigger, so even a slip in a
 * later query cannot rewrite who changed a bank account. Every list reads one organization newest
 * first, so each index leads with organization_id and ends with created_at.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(60)', (c) => c.notNull())
    .addColumn('actor_user_id', 'varchar(64)')
    .addColumn('actor_email', 'varchar(320)', (c) => c.notNull())
    .addColumn('actor_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('actor_role', 'varchar(40)', (c) => c.notNull())
    .addColumn('actor_office_role', 'varchar(40)')
    .addColumn('survey_id', 'varchar(64)')
    .addColumn('target_type', 'varchar(40)')
    .addColumn('target_id', 'varchar(64)')
    .addColumn('target_label', 'varchar(320)')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_org').on('audit_events').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('audit_events_action').on('audit_events').columns(['organization_id', 'action', 'created_at']).execute();
  await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['organization_id', 'actor_user_id', 'created_at']).execute();
  await db.schema.createIndex('audit_events_survey').on('audit_events').columns(['organization_id', 'survey_id', 'created_at']).execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`create trigger audit_events_no_update before update on audit_events begin select raise(abort, 'audit_events is append-only'); end`.execute(db);
    await sql`create trigger audit_events_no_delete before delete on audit_events begin select raise(abort, 'audit_events is append-only'); end`.execute(db);
  } else {
    await sql.raw(`create function audit_events_append_only() returns trigger language plpgsql as $$ begin raise exception 'audit_events is append-only'; end $$`).execute(db);
    await sql`create trigger audit_events_append_only before update or delete on audit_events for each row execute function audit_events_append_only()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`drop trigger if exists audit_events_no_update`.execute(db);
    await sql`drop trigger if exists audit_events_no_delete`.execute(db);
  } else {
    await sql`drop trigger if exists audit_events_append_only on audit_events`.execute(db);
    await sql`drop function if exists audit_events_append_only()`.execute(db);
  }
  await db.schema.dropTable('audit_events').execute();
}
