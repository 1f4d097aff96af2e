import type { Kysely } from 'kysely';

/**
 * Fix and resubmit. A response stays one `responses` row whose answers are always its
 * latest revision (`revision`, 1 for originals), so lists, counts, cards, search and export read
 * the latest without a filter, and the response_counts triggers (which fire on insert, delete and
 * re-keying only) never count a revision as a second response. Every submitted revision is kept
 * in `response_revisions` (revision 1 is copied there when the first fix arrives): its unique
 * (survey_id, client_id) makes a replayed resubmit store one revision, its unique
 * (response_id, revision) lets only one of two racing fixes of the same revision win.
 * An ordinary ingest writes nothing here and no index of responses changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema
    .createTable('response_revisions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('response_id', 'varchar(64)', (c) => c.notNull().references('responses.id').onDelete('cascade'))
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('captured_at', 'bigint')
    .addColumn('submitted_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('response_revisions_key', ['survey_id', 'client_id'])
    .addUniqueConstraint('response_revisions_number', ['response_id', 'revision'])
    .execute();

  // One row per field user per UTC day a "responses need a fix" mail was due: the claim that keeps
  // it to one a day across restarts and instances; mailed_at is set once the mail is recorded.
  await db.schema
    .createTable('return_digests')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('returned', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('mailed_at', 'bigint')
    .addPrimaryKeyConstraint('return_digests_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('return_digests').execute();
  await db.schema.dropTable('response_revisions').execute();
  await db.schema.alterTable('responses').dropColumn('revision').execute();
}
