import type { Kysely } from 'kysely';

/**
 * Back-checks (modules/backchecks). `backcheck_settings`: a survey's sampling and comparison
 * settings and the seed of its random selection, with the sampler's cursor. `backcheck_forms`: every
 * published version of its back-check form (the stable questions as the survey had them, then its
 * own). `backcheckers`: the field-user memberships invited as back-checkers. `backcheck_assignments`:
 * one row per selected response (the unique response_id makes a selection happen once), who revisits
 * it, and once done its comparison totals. `backcheck_responses`: the answers a back-checker sent,
 * one per assignment. `backcheck_diffs`: one row per compared stable question. All new tables: an
 * older instance ignores them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('backcheck_settings')
    .ifNotExists()
    .addColumn('survey_id', 'varchar(64)', (c) => c.primaryKey().references('surveys.id').onDelete('cascade'))
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('percent_bp', 'integer', (c) => c.notNull())
    .addColumn('min_per_week', 'integer', (c) => c.notNull())
    .addColumn('include_flagged', 'integer', (c) => c.notNull())
    .addColumn('threshold_bp', 'integer', (c) => c.notNull())
    .addColumn('auto_return', 'integer', (c) => c.notNull())
    .addColumn('stable_question_ids', 'text', (c) => c.notNull())
    .addColumn('seed', 'varchar(64)', (c) => c.notNull())
    .addColumn('sampled_until', 'bigint', (c) => c.notNull())
    .addColumn('sampled_until_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('backcheck_forms')
    .ifNotExists()
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('stable_question_ids', 'text', (c) => c.notNull())
    .addColumn('own_question_ids', 'text', (c) => c.notNull())
    .addColumn('tolerances', 'text', (c) => c.notNull())
    .addColumn('respondent_question_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('backcheck_forms_pk', ['survey_id', 'version'])
    .execute();
  await db.schema
    .createTable('backcheckers')
    .ifNotExists()
    .addColumn('member_id', 'varchar(64)', (c) => c.primaryKey().references('members.id').onDelete('cascade'))
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('backcheckers_survey').ifNotExists().on('backcheckers').columns(['survey_id']).execute();
  await db.schema
    .createTable('backcheck_assignments')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('response_id', 'varchar(64)', (c) => c.notNull().unique().references('responses.id').onDelete('cascade'))
    .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('response_created_at', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'varchar(20)', (c) => c.notNull())
    .addColumn('draw', 'double precision', (c) => c.notNull())
    .addColumn('selected_at', 'bigint', (c) => c.notNull())
    .addColumn('backchecker_member_id', 'varchar(64)')
    .addColumn('backchecker_user_id', 'varchar(64)')
    .addColumn('assigned_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('compared', 'integer')
    .addColumn('mismatched', 'integer')
    .addColumn('mismatch', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('returned', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('backcheck_assignments_survey').ifNotExists().on('backcheck_assignments').columns(['survey_id', 'selected_at']).execute();
  await db.schema.createIndex('backcheck_assignments_member').ifNotExists().on('backcheck_assignments').columns(['member_id', 'completed_at']).execute();
  await db.schema.createIndex('backcheck_assignments_backchecker').ifNotExists().on('backcheck_assignments').columns(['backchecker_user_id', 'completed_at']).execute();
  await db.schema
    .createTable('backcheck_responses')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('assignment_id', 'varchar(64)', (c) => c.notNull().unique().references('backcheck_assignments.id').onDelete('cascade'))
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('form_version', 'integer', (c) => c.notNull())
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('captured_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('backcheck_diffs')
    .ifNotExists()
    .addColumn('assignment_id', 'varchar(64)', (c) => c.notNull().references('backcheck_assignments.id').onDelete('cascade'))
    .addColumn('question_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('matched', 'integer', (c) => c.notNull())
    .addColumn('original', 'text')
    .addColumn('backcheck', 'text')
    .addPrimaryKeyConstraint('backcheck_diffs_pk', ['assignment_id', 'question_id'])
    .execute();
  await db.schema.createIndex('backcheck_diffs_survey').ifNotExists().on('backcheck_diffs').columns(['survey_id', 'question_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['backcheck_diffs', 'backcheck_responses', 'backcheck_assignments', 'backcheckers', 'backcheck_forms', 'backcheck_settings']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
