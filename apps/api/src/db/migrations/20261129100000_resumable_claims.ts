import type { Kysely } from 'kysely';

/**
 * Which unfinished resumable upload holds each photo placeholder (one per user, survey, response
 * and question), with the length it declared: one active upload per placeholder, and the sum of a
 * user's lengths bounds the bytes their unfinished uploads can take. Kept in the database for
 * either place partial uploads live (DATA_DIR/resumable or resumable_uploads). Additive: an older
 * instance neither reads nor writes it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('resumable_claims')
    .ifNotExists()
    .addColumn('upload_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('resumable_claims_placeholder', ['user_id', 'survey_id', 'client_id', 'question'])
    .execute();
  await db.schema.createIndex('resumable_claims_created_at').ifNotExists().on('resumable_claims').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('resumable_claims').ifExists().execute();
}
