import type { Kysely } from 'kysely';

/**
 * A survey's photo quality: how the phone shrinks its photos, `standard` or `high`.
 * Existing surveys, and those an older instance creates during a rolling deploy, are standard.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('surveys').addColumn('photo_quality', 'varchar(16)', (c) => c.notNull().defaultTo('standard')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('surveys').dropColumn('photo_quality').execute();
}
