import type { Kysely } from 'kysely';

/**
 * The option lists a large select used in earlier versions: publishing a version that changes a
 * list keeps the outgoing one here, marked with the last version that used it, so an answer a phone
 * filled against an older version is checked against that version's list. dataset_options keeps
 * the current lists only, as before (an older instance during a rolling deploy reads and writes it
 * unchanged; a list it replaces is not kept, and answers of those versions meet the current list).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dataset_option_history')
    .ifNotExists()
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('until_version', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dataset_option_history_pk', ['survey_id', 'question', 'until_version', 'position'])
    .execute();
  await db.schema.createIndex('dataset_option_history_value').ifNotExists().on('dataset_option_history').columns(['survey_id', 'question', 'until_version', 'value']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dataset_option_history').ifExists().execute();
}
