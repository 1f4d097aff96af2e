import type { Kysely } from 'kysely';

/**
 * Audio audits and the pay gate.
 * - surveys.audio_audit: JSON `{ percent, consentText, seed, alwaysFieldUserIds }`, null when off.
 * - surveys.pay_gate: JSON `{ approved, audioReviewed, backcheck }`, null: nothing beyond approved.
 * - responses.audio: what became of a selected interview's audio (AudioStatus, or not_reported),
 *   null when not selected; nullable without a default, so adding it rewrites no row and an older
 *   instance's inserts leave it null.
 * - audio_audits: one row per response whose clip arrived: the file, and the reviewer's verdict.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('surveys').addColumn('audio_audit', 'text').execute();
  await db.schema.alterTable('surveys').addColumn('pay_gate', 'text').execute();
  await db.schema.alterTable('responses').addColumn('audio', 'varchar(16)').execute();
  await db.schema
    .createTable('audio_audits')
    .ifNotExists()
    .addColumn('response_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_id', 'varchar(64)')
    .addColumn('uploaded_at', 'bigint')
    .addColumn('verdict', 'varchar(16)')
    .addColumn('note', 'text')
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audio_audits').ifExists().execute();
  await db.schema.alterTable('responses').dropColumn('audio').execute();
  await db.schema.alterTable('surveys').dropColumn('pay_gate').execute();
  await db.schema.alterTable('surveys').dropColumn('audio_audit').execute();
}
