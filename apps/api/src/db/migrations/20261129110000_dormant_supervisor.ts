import type { Kysely } from 'kysely';

/**
 * The supervisor assignment a withdrawal set aside (the field user's, or the withdrawn supervisor's
 * field users'), null otherwise. A re-invitation puts it back once both rows are active again, so
 * withdraw + re-invite never silently drops a supervisor. Additive: an older instance ignores it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').addColumn('dormant_supervisor_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').dropColumn('dormant_supervisor_id').execute();
}
