import type { Kysely } from 'kysely';

/**
 * Editing people. `members.bank_changed_at`: when the bank details last changed (null since the
 * invitation); a payout line copies it when the payout freezes the details, so a payout made within
 * 24 h of a change warns on that line whatever happens later. `members.deactivated_at`: set on the
 * rows a deactivation of the person withdrew, so reactivation gives back exactly those. All nullable
 * and additive: an older instance neither reads nor writes them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('members').addColumn('bank_changed_at', 'bigint').execute();
  await db.schema.alterTable('members').addColumn('deactivated_at', 'bigint').execute();
  await db.schema.alterTable('payout_lines').addColumn('bank_changed_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payout_lines').dropColumn('bank_changed_at').execute();
  await db.schema.alterTable('members').dropColumn('deactivated_at').execute();
  await db.schema.alterTable('members').dropColumn('bank_changed_at').execute();
}
