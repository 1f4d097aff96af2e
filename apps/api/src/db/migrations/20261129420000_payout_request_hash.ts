import type { Kysely } from 'kysely';

/**
 * What each payout's create asked for (a SHA-256 of survey and field users), so its key reused with
 * another request is refused instead of answering the first payout. Nullable and additive: rows
 * from before, and an older instance that does not write it, keep working.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payouts').addColumn('request_hash', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payouts').dropColumn('request_hash').execute();
}
