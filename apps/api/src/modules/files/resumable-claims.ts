import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Engine } from '../../db/database.js';

/** The photo placeholder an upload is for: who, which survey, which response (clientId), which question. */
export interface PlaceholderKey {
  userId: string;
  surveyId: string;
  clientId: string;
  question: string;
}

export type ClaimOutcome = { ok: true; replaced: string | undefined } | { ok: false; heldBytes: number };

/**
 * `resumable_claims`: the one unfinished upload per photo placeholder, and the lengths a user's
 * unfinished uploads declared. tus never lets an upload outgrow its length, so the sum of a user's
 * claims bounds the bytes their partial uploads can hold, wherever those live.
 */
export class ResumableClaims {
  constructor(private readonly db: Kysely<Database>, private readonly engine: Engine) {}

  /**
   * Makes `uploadId` (declaring `size` bytes) the placeholder's upload, unless the user's other
   * claims plus `size` would pass `maxBytes`. Answers the upload it replaced, whose bytes the
   * caller removes. The user's claims are read and written under one lock per user (PostgreSQL:
   * a transaction advisory lock; SQLite runs one write transaction at a time), so concurrent
   * creations cannot together pass the cap.
   */
  claim(key: PlaceholderKey, uploadId: string, size: number, maxBytes: number, now: number): Promise<ClaimOutcome> {
    return this.db.transaction().execute(async (trx) => {
      if (this.engine === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${`resumable_claims:${key.userId}`}, 0))`.execute(trx);
      const mine = await trx.selectFrom('resumable_claims').select(['upload_id', 'survey_id', 'client_id', 'question', 'size']).where('user_id', '=', key.userId).execute();
      const old = mine.find((c) => c.survey_id === key.surveyId && c.client_id === key.clientId && c.question === key.question);
      const held = mine.reduce((sum, c) => (c === old ? sum : sum + Number(c.size)), 0);
      if (held + size > maxBytes) return { ok: false, heldBytes: held };
      if (old) await trx.deleteFrom('resumable_claims').where('upload_id', '=', old.upload_id).execute();
      await trx.insertInto('resumable_claims').values({ upload_id: uploadId, user_id: key.userId, survey_id: key.surveyId, client_id: key.clientId, question: key.question, size, created_at: now }).execute();
      return { ok: true, replaced: old?.upload_id };
    });
  }

  /** The upload is over (stored, refused, cancelled or expired): its bytes no longer count. */
  async release(uploadId: string): Promise<void> {
    await this.db.deleteFrom('resumable_claims').where('upload_id', '=', uploadId).execute();
  }

  /** Claims older than `cutoff` (epoch ms): their uploads have expired with them. */
  async releaseCreatedBefore(cutoff: number): Promise<number> {
    const res = await this.db.deleteFrom('resumable_claims').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
