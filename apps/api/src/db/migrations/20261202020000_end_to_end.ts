import type { Kysely } from 'kysely';

/**
 * End-to-end encryption per survey: the organization's public key (SPKI, base64; null: answers
 * arrive in clear) and, per response, the envelope its phone sealed the answers in (JSON of
 * EncryptedAnswers). The server never holds the private key, so it cannot read the envelope.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('surveys').addColumn('encryption_key', 'text').execute();
  await db.schema.alterTable('responses').addColumn('encrypted', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').dropColumn('encrypted').execute();
  await db.schema.alterTable('surveys').dropColumn('encryption_key').execute();
}
