import type { Kysely } from 'kysely';

/**
 * When the organization withdrew the member from the survey (the Access delete icon), null while
 * active. The row stays so its responses, money owed and payouts keep their owner; additive, so an
 * older instance simply ignores it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').addColumn('withdrawn_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').dropColumn('withdrawn_at').execute();
}
