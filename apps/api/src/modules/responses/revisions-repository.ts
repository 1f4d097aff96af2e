import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ResponseStatus, Role } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import type { ResponseInsert } from './responses-repository.js';

/** What became of a fix: stored now or before (ok), or why not. */
export type ReviseOutcome =
  | { kind: 'ok'; id: string }
  | { kind: 'conflict' }
  | { kind: 'notFound' }
  | { kind: 'notReturned' };

export interface ReviseInput {
  /** The new revision as an ingest row (its id unused: the response keeps its own). */
  row: ResponseInsert;
  responseId: string;
  /** The field user's name, for the audit row. */
  actorName: string;
}

/** Thrown inside the transaction to roll it back when the response changed under the fix. */
class Lost extends Error {}

/**
 * Fix and resubmit. Rare next to ingest, so plain Kysely on both engines, one transaction per fix.
 * Exactly-once is the unique (survey_id, client_id) of response_revisions plus a verdict, as for
 * responses: a replay finds its own row and is answered as the first time; the conditional UPDATE
 * (still returned, still at the revision it read) decides a fix racing a review or another fix.
 * The response takes the fix's survey version: its answers are now that version's. It
 * keeps its capture and receipt times (captured_at, created_at), those of the original: a fix's own
 * capture time is its revision's, beside its submitted_at, so a capture is never shown after its receipt.
 */
export class RevisionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async revise({ row, responseId, actorName }: ReviseInput): Promise<ReviseOutcome> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const replay = await this.byKey(trx, row, responseId);
        if (replay) return replay;
        const target = await trx.selectFrom('responses')
          .select(['id', 'user_id', 'survey_id', 'client_id', 'status', 'revision', 'answers', 'body_hash', 'captured_at', 'created_at'])
          .where('id', '=', responseId).executeTakeFirst();
        if (!target || target.user_id !== row.user_id || target.survey_id !== row.survey_id) return { kind: 'notFound' };
        // The key is a response's own (the original's, or another response's): never a revision too.
        const taken = await trx.selectFrom('responses').select('id').where('survey_id', '=', row.survey_id).where('client_id', '=', row.client_id).executeTakeFirst();
        if (taken) return { kind: 'conflict' };
        if (target.status !== ResponseStatus.returned) return { kind: 'notReturned' };
        const from = Number(target.revision);
        if (from === 1) {
          await trx.insertInto('response_revisions').values({
            id: randomUUID(), response_id: target.id, survey_id: target.survey_id, client_id: target.client_id, user_id: target.user_id, revision: 1,
            answers: target.answers, body_hash: target.body_hash, captured_at: target.captured_at, submitted_at: Number(target.created_at),
          }).onConflict((oc) => oc.doNothing()).execute();
        }
        const inserted = await trx.insertInto('response_revisions').values({
          id: row.id, response_id: target.id, survey_id: row.survey_id, client_id: row.client_id, user_id: row.user_id, revision: from + 1,
          answers: row.answers, body_hash: row.body_hash, captured_at: row.captured_at, submitted_at: row.created_at,
        }).onConflict((oc) => oc.doNothing()).returning('id').executeTakeFirst();
        // Another fix of this revision won (or this very one, sent twice at once): read it again.
        if (!inserted) return (await this.byKey(trx, row, responseId)) ?? { kind: 'notReturned' };
        const updated = await trx.updateTable('responses')
          .set({ answers: row.answers, search_text: row.search_text, version: row.version, meta: row.meta, revision: from + 1, status: row.status, review_comment: null, changed_at: row.created_at })
          .where('id', '=', target.id).where('status', '=', ResponseStatus.returned).where('revision', '=', from)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new Lost();
        await trx.insertInto('response_reviews').values({
          id: randomUUID(), response_id: target.id, actor_user_id: row.user_id, actor_role: Role.fieldUser, actor_name: actorName,
          from_status: ResponseStatus.returned, to_status: row.status, comment: `Fixed and sent again (revision ${from + 1})`, created_at: row.created_at,
        }).execute();
        return { kind: 'ok', id: target.id };
      });
    } catch (err) {
      if (err instanceof Lost) return { kind: 'notReturned' };
      throw err;
    }
  }

  /** The revision already stored under this key: the same fix again (ok) or another body (conflict). */
  private async byKey(trx: Kysely<Database>, row: ResponseInsert, responseId: string): Promise<ReviseOutcome | undefined> {
    const held = await trx.selectFrom('response_revisions').select(['response_id', 'user_id', 'body_hash', 'revision'])
      .where('survey_id', '=', row.survey_id).where('client_id', '=', row.client_id).executeTakeFirst();
    if (!held) return undefined;
    // Revision 1 is the original's copy, keyed by the original's clientId: never a fix's key.
    return held.response_id === responseId && held.user_id === row.user_id && held.body_hash === row.body_hash && Number(held.revision) > 1 ? { kind: 'ok', id: held.response_id } : { kind: 'conflict' };
  }
}
