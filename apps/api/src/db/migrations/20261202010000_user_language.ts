import type { Kysely } from 'kysely';

/**
 * The app's language per account (en, ha, yo, ig, pcm): the phone shows it after sign-in on any
 * device and mails go out in it. Existing accounts read English, what they have seen so far.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text', (c) => c.notNull().defaultTo('en')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('language').execute();
}
