import { sql, type Kysely } from 'kysely';

/**
 * Editing and closing a published survey. `surveys.questions` stays the latest
 * version's questions, so every reader that knew only one version keeps working; `survey_versions`
 * keeps every version, the first one copied from the surveys already published. A response records
 * the version it was filled against (1 for every response before this). `closed_at` is when the
 * survey was closed, null while open. Additive: an older instance ignores the new columns and table
 * (it would publish without a version row; readers fall back to `surveys.questions` then).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('surveys').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('surveys').addColumn('closed_at', 'bigint').execute();
  await db.schema.alterTable('responses').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema
    .createTable('survey_versions')
    .ifNotExists()
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_versions_pk', ['survey_id', 'version'])
    .execute();
  await sql`insert into survey_versions (survey_id, version, title, description, questions, created_at)
    select id, 1, title, description, questions, created_at from surveys`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('survey_versions').ifExists().execute();
  await db.schema.alterTable('responses').dropColumn('version').execute();
  await db.schema.alterTable('surveys').dropColumn('closed_at').execute();
  await db.schema.alterTable('surveys').dropColumn('version').execute();
}
