import type { Kysely } from 'kysely';

/**
 * Personal data: a survey's retention (days after it closes before its photos, files and personal
 * answers are deleted; null: kept) with when its owner was warned and when it ran; when a response's
 * personal data was erased; whether a webhook's payloads carry personal answers masked. All
 * nullable or defaulted: an older instance ignores them (its exports simply do not mask).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('surveys').addColumn('retention_days', 'integer').execute();
  await db.schema.alterTable('surveys').addColumn('retention_warned_at', 'bigint').execute();
  await db.schema.alterTable('surveys').addColumn('retention_done_at', 'bigint').execute();
  await db.schema.alterTable('responses').addColumn('erased_at', 'bigint').execute();
  await db.schema.alterTable('webhooks').addColumn('without_personal', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('without_personal').execute();
  await db.schema.alterTable('responses').dropColumn('erased_at').execute();
  await db.schema.alterTable('surveys').dropColumn('retention_done_at').execute();
  await db.schema.alterTable('surveys').dropColumn('retention_warned_at').execute();
  await db.schema.alterTable('surveys').dropColumn('retention_days').execute();
}
