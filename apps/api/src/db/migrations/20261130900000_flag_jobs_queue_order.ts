import type { Kysely } from 'kysely';

/**
 * The flag worker takes the oldest waiting jobs first by `queued_at`, not by response id: ids
 * written before time-ordered ids (the demo seed, imports) sort after every newer UUIDv7 and waited
 * behind steady traffic. The index keeps the take an index range scan: 10,000 waiting jobs, 60 a tick.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('flag_jobs_queued_at').on('flag_jobs').columns(['queued_at', 'response_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('flag_jobs_queued_at').execute();
}
