import type { Kysely } from 'kysely';

/**
 * A survey's form-wide settings as JSON (SurveyFormSettings: languages, default language, and the
 * XLSForm form_id and instance_name it writes back), on the survey and on each version. Nullable
 * and additive: surveys from before read as having none, and an older instance that does not
 * write it keeps working (its versions simply have none).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('surveys').addColumn('form_settings', 'text').execute();
  await db.schema.alterTable('survey_versions').addColumn('form_settings', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('survey_versions').dropColumn('form_settings').execute();
  await db.schema.alterTable('surveys').dropColumn('form_settings').execute();
}
