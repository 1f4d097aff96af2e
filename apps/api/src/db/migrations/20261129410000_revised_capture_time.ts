import { sql, type Kysely } from 'kysely';

/**
 * A fix used to overwrite a response's captured_at with the fix's capture time while created_at
 * (Received) stayed the original's, so a fixed response showed a capture after its receipt. A fixed
 * response takes back its original's capture time, kept as its revision 1 (copied in at the first fix).
 * Only responses with revisions are touched (found from response_revisions, not by a scan of responses).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update responses set captured_at = (select rr.captured_at from response_revisions rr where rr.response_id = responses.id and rr.revision = 1)
    where id in (select response_id from response_revisions where revision = 1)`.execute(db);
}

export async function down(): Promise<void> {
  // The fixes' capture times stay in response_revisions; nothing to undo.
}
