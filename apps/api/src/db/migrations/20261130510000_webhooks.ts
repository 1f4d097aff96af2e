import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * Webhooks and their durable delivery queue. Triggers queue a delivery for each active webhook of
 * the survey when a response is inserted (response.created), gets a new revision
 * (response.revised), gets a review time (response.reviewed), or its payout is marked paid
 * (payout.paid), in the writing transaction itself: an event is queued exactly when its change
 * commits, whatever write path made it, and survives a restart. Each event's id is derived from what
 * happened (`response.revised:<id>:<revision>`), so a receiver can drop a repeat, and
 * (webhook_id, event_id) is unique. With no webhook on a survey an insert costs one index seek.
 * New tables and triggers only: additive.
 */
const EVENTS: { name: string; table: 'responses' | 'payouts'; type: string; when: string; eventId: string; responseId: string; payoutId: string; update?: string }[] = [
  { name: 'webhooks_response_created', table: 'responses', type: 'response.created', when: 'true', eventId: `'response.created:' || new.id`, responseId: 'new.id', payoutId: 'null' },
  { name: 'webhooks_response_revised', table: 'responses', type: 'response.revised', update: 'revision', when: 'new.revision > old.revision', eventId: `'response.revised:' || new.id || ':' || new.revision`, responseId: 'new.id', payoutId: 'null' },
  { name: 'webhooks_response_reviewed', table: 'responses', type: 'response.reviewed', update: 'reviewed_at', when: 'new.reviewed_at is not null and (old.reviewed_at is null or new.reviewed_at <> old.reviewed_at)', eventId: `'response.reviewed:' || new.id || ':' || new.reviewed_at`, responseId: 'new.id', payoutId: 'null' },
  { name: 'webhooks_payout_paid', table: 'payouts', type: 'payout.paid', update: 'status', when: `new.status = 'paid' and old.status <> 'paid'`, eventId: `'payout.paid:' || new.id`, responseId: 'null', payoutId: 'new.id' },
];
/** A failing delivery is retried for this long from when it was queued. */
const WINDOW_MS = 86_400_000;

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = isSqlite(db);
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    /** The events, each between commas: ",response.created,payout.paid,". */
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('failing_since', 'bigint')
    .addColumn('disabled_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhooks_survey').on('webhooks').columns(['survey_id']).execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('webhook_id', 'varchar(64)', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('response_id', 'varchar(64)')
    .addColumn('payout_id', 'varchar(64)')
    /** pending, delivered or failed */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('delivered_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('webhook_deliveries_event', ['webhook_id', 'event_id'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();

  const now = sqlite ? `cast((julianday('now') - 2440587.5) * 86400000 as integer)` : `(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  const queue = (e: (typeof EVENTS)[number], surveyId: string) => `insert into webhook_deliveries (webhook_id, event_id, event_type, survey_id, response_id, payout_id, status, attempts, next_attempt_at, expires_at, created_at)
    select w.id, ${e.eventId}, '${e.type}', ${surveyId}, ${e.responseId}, ${e.payoutId}, 'pending', 0, ${now}, ${now} + ${WINDOW_MS}, ${now}
    from webhooks w where w.survey_id = ${surveyId} and w.disabled_at is null and ${sqlite ? `instr(w.events, ',${e.type},') > 0` : `strpos(w.events, ',${e.type},') > 0`}
    ${sqlite ? '' : 'on conflict (webhook_id, event_id) do nothing'};`;
  for (const e of EVENTS) {
    if (sqlite) {
      const on = e.update ? `after update of ${e.update} on ${e.table} when ${e.when}` : `after insert on ${e.table}`;
      await sql.raw(`create trigger ${e.name} ${on} begin ${queue(e, 'new.survey_id').replace('insert into', 'insert or ignore into')} end`).execute(db);
    } else {
      await sql.raw(`create function ${e.name}() returns trigger language plpgsql set search_path from current as $$ begin ${queue(e, 'new.survey_id')} return null; end $$`).execute(db);
      const on = e.update ? `after update of ${e.update} on ${e.table} for each row when (${e.when.replace('<>', 'is distinct from')})` : `after insert on ${e.table} for each row`;
      await sql.raw(`create trigger ${e.name} ${on} execute function ${e.name}()`).execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const e of EVENTS) {
    if (isSqlite(db)) await sql`drop trigger if exists ${sql.id(e.name)}`.execute(db);
    else {
      await sql.raw(`drop trigger if exists ${e.name} on ${e.table}`).execute(db);
      await sql.raw(`drop function if exists ${e.name}()`).execute(db);
    }
  }
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}

function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
