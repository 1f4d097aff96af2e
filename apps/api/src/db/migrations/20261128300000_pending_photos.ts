import type { Kysely } from 'kysely';

/**
 * Responses that arrive before their photos: the placeholders of the photos still to
 * come, JSON `{ [question]: { clientId, size, sha256 } }`; null once every photo is attached (and
 * for every response of a phone that uploads photos first).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').addColumn('pending_photos', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').dropColumn('pending_photos').execute();
}
