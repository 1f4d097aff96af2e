import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { Role, type QualityFlag } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import type { ComputedFlag, OtherResponse } from './rules.js';

export interface CheckedFacts {
  responseId: string;
  surveyId: string;
  userId: string;
  capturedAt: number;
  position: { lat: number; lng: number } | null;
  answersHash: string;
  durationMs: number | null;
}

export interface PhotoFacts {
  question: string;
  sha256: string | null;
  phash: string | null;
}

/**
 * Queues a response's checks again (an answer changed after it was checked: a photo arrived). A
 * job still waiting gets a new `queued_at` (one more than before, so it differs even within a
 * millisecond): a worker that read the response before this change then fails to take the job
 * (save compares `queued_at`), and the job is checked again with the new answers.
 */
export async function requeueChecks(db: Kysely<Database>, responseId: string, now: number): Promise<void> {
  await db
    .insertInto('flag_jobs')
    .values({ response_id: responseId, queued_at: now })
    .onConflict((oc) => oc.column('response_id').doUpdateSet({ queued_at: sql<number>`flag_jobs.queued_at + 1` }))
    .execute();
}

/** Reads and writes of the flag worker and of the flag routes; ownership is checked by the caller's queries (review/repository.ts). */
export class FlagsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async queued(limit: number): Promise<string[]> {
    // Oldest job first, whatever its id's shape (index flag_jobs_queued_at); the id breaks ties.
    const rows = await this.db.selectFrom('flag_jobs').select('response_id').orderBy('queued_at').orderBy('response_id').limit(limit).execute();
    return rows.map((r) => r.response_id);
  }

  async queuedCount(): Promise<number> {
    const row = await this.db.selectFrom('flag_jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The response to check, with its job's `queued_at` read in the same statement (one snapshot: see
   * requeueChecks). `questions` are those of the response's own version, its answers' keys: the
   * version's `survey_versions` row, else (a version published by an older instance, which wrote
   * none) the survey's latest, the same resolution as ingest (SurveyCache.form) and the export
   * (keysOf). The latest version's would miss a version 1 photo whose question version 2 renamed.
   */
  async subject(responseId: string) {
    return this.db.selectFrom('responses as r')
      .innerJoin('surveys as s', 's.id', 'r.survey_id')
      .innerJoin('members as m', 'm.id', 'r.member_id')
      .leftJoin('survey_versions as v', (join) => join.onRef('v.survey_id', '=', 'r.survey_id').onRef('v.version', '=', 'r.version'))
      .leftJoin('flag_jobs as j', 'j.response_id', 'r.id')
      .select((eb) => [
        'r.id', 'r.survey_id', 'r.organization_id', 'r.member_id', 'r.user_id', 'r.client_id', 'r.answers', 'r.meta', 'r.captured_at', 'r.created_at', 'r.version',
        eb.fn.coalesce('v.questions', 's.questions').as('questions'), 's.min_duration_s', 's.max_accuracy_m', 'j.queued_at',
        's.created_at as survey_created_at', 'm.created_at as invited_at',
      ])
      .where('r.id', '=', responseId)
      .executeTakeFirst();
  }

  async fileSha(fileIds: string[]): Promise<Map<string, string>> {
    if (fileIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('files').select(['id', 'sha256']).where('id', 'in', fileIds).execute();
    return new Map(rows.map((r) => [r.id, r.sha256]));
  }

  private other(db: Kysely<Database> = this.db) {
    return db.selectFrom('responses as o').innerJoin('members as m', 'm.id', 'o.member_id');
  }

  async otherOf(id: string): Promise<OtherResponse | undefined> {
    const row = await this.other().select(['o.id', 'o.created_at', 'm.full_name', 'm.email']).where('o.id', '=', id).executeTakeFirst();
    return row && { id: row.id, fullName: row.full_name || row.email, createdAt: Number(row.created_at) };
  }

  /** The first other response of the organization holding a photo with this SHA-256. */
  async samePhoto(organizationId: string, sha256: string, responseId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('response_photos').select('response_id')
      .where('organization_id', '=', organizationId).where('sha256', '=', sha256).where('response_id', '!=', responseId)
      .orderBy('created_at').limit(1).executeTakeFirst();
    return row?.response_id;
  }

  /** Hashes of the field user's and the survey's latest photos (each at most `limit`), other responses only. */
  async recentHashes(userId: string, surveyId: string, responseId: string, limit: number): Promise<{ response_id: string; phash: string; sha256: string | null }[]> {
    const mine = this.db.selectFrom('response_photos').select(['response_id', 'phash', 'sha256']).where('user_id', '=', userId).where('response_id', '!=', responseId).where('phash', 'is not', null).orderBy('created_at', 'desc').limit(limit);
    const survey = this.db.selectFrom('response_photos').select(['response_id', 'phash', 'sha256']).where('survey_id', '=', surveyId).where('response_id', '!=', responseId).where('phash', 'is not', null).orderBy('created_at', 'desc').limit(limit);
    const [a, b] = await Promise.all([mine.execute(), survey.execute()]);
    return [...a, ...b].map((r) => ({ response_id: r.response_id, phash: r.phash!, sha256: r.sha256 }));
  }

  /** The survey's median duration, once it has at least `min` responses with one. */
  async medianDuration(surveyId: string, min: number): Promise<number | null> {
    const counted = await this.db.selectFrom('response_checks').select((eb) => eb.fn.countAll<number>().as('n')).where('survey_id', '=', surveyId).where('duration_ms', 'is not', null).executeTakeFirstOrThrow();
    const n = Number(counted.n);
    if (n < min) return null;
    const mid = await this.db.selectFrom('response_checks').select('duration_ms').where('survey_id', '=', surveyId).where('duration_ms', 'is not', null)
      .orderBy('duration_ms').limit(1).offset(Math.floor(n / 2)).executeTakeFirst();
    return mid ? Number(mid.duration_ms) : null;
  }

  /** The field user's responses with a position just before and just after `capturedAt`. */
  async neighbours(userId: string, capturedAt: number, responseId: string) {
    const base = () => this.db.selectFrom('response_checks').select(['response_id', 'captured_at', 'lat', 'lng'])
      .where('user_id', '=', userId).where('response_id', '!=', responseId).where('lat', 'is not', null).where('captured_at', 'is not', null);
    const [before, after] = await Promise.all([
      base().where('captured_at', '<=', capturedAt).orderBy('captured_at', 'desc').limit(1).executeTakeFirst(),
      base().where('captured_at', '>', capturedAt).orderBy('captured_at').limit(1).executeTakeFirst(),
    ]);
    return [before, after].flatMap((r) => (r ? [{ id: r.response_id, capturedAt: Number(r.captured_at), lat: Number(r.lat), lng: Number(r.lng) }] : []));
  }

  /**
   * Another checked response of the survey with the same answers. Not "the first": ordering them
   * would read every match, and a form answered the same way a thousand times would make each
   * check read a thousand rows.
   */
  async sameAnswers(surveyId: string, answersHash: string, responseId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('response_checks').select('response_id')
      .where('survey_id', '=', surveyId).where('answers_hash', '=', answersHash).where('response_id', '!=', responseId)
      .limit(1).executeTakeFirst();
    return row?.response_id;
  }

  /**
   * Stores a response's facts and flags and takes its job, in one transaction. The job is taken
   * first: if another instance took it meanwhile (PostgreSQL waits on its row lock, then finds it
   * gone) nothing is written twice. With `queuedAt` (the job as subject read it) a job queued
   * again since (requeueChecks) is not taken either: these facts are already stale. Flags
   * dismissed earlier stay as they are.
   */
  async save(subject: { id: string; survey_id: string; organization_id: string; member_id: string; user_id: string; created_at: number }, facts: CheckedFacts | null, photos: PhotoFacts[], flags: ComputedFlag[], now: number, queuedAt?: number | string | null): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const taken = await trx.deleteFrom('flag_jobs').where('response_id', '=', subject.id)
        .$if(queuedAt !== undefined && queuedAt !== null, (q) => q.where('queued_at', '=', Number(queuedAt)))
        .executeTakeFirst();
      if (Number(taken.numDeletedRows) === 0) return false;
      await trx.deleteFrom('response_checks').where('response_id', '=', subject.id).execute();
      if (facts) {
        await trx.insertInto('response_checks').values({
          response_id: subject.id, survey_id: subject.survey_id, user_id: subject.user_id, captured_at: facts.capturedAt,
          lat: facts.position?.lat ?? null, lng: facts.position?.lng ?? null, answers_hash: facts.answersHash, duration_ms: facts.durationMs,
        }).execute();
      }
      await trx.deleteFrom('response_photos').where('response_id', '=', subject.id).execute();
      if (photos.length > 0) {
        await trx.insertInto('response_photos').values(photos.map((p) => ({
          response_id: subject.id, question: p.question, organization_id: subject.organization_id, survey_id: subject.survey_id, user_id: subject.user_id,
          sha256: p.sha256, phash: p.phash, created_at: Number(subject.created_at),
        }))).execute();
      }
      // A back-check's flag is not the worker's to recompute: it stays across a re-check.
      await trx.deleteFrom('response_flags').where('response_id', '=', subject.id).where('dismissed_at', 'is', null).where('flag', '!=', 'backcheck_mismatch').execute();
      if (flags.length > 0) {
        await trx.insertInto('response_flags').values(flags.map((f) => ({
          response_id: subject.id, flag: f.flag, survey_id: subject.survey_id, member_id: subject.member_id, reason: f.reason, other_response_id: f.otherResponseId, created_at: now,
        }))).onConflict((oc) => oc.columns(['response_id', 'flag']).doNothing()).execute();
      }
      return true;
    });
  }

  /** Flags of these responses, and which of them are still being checked. */
  async flagsOf(responseIds: string[]) {
    if (responseIds.length === 0) return { flags: [], checking: new Set<string>() };
    const [flags, jobs] = await Promise.all([
      this.db.selectFrom('response_flags').selectAll().where('response_id', 'in', responseIds).orderBy('created_at').orderBy('flag').execute(),
      this.db.selectFrom('flag_jobs').select('response_id').where('response_id', 'in', responseIds).execute(),
    ]);
    return { flags, checking: new Set(jobs.map((j) => j.response_id)) };
  }

  /** Sets a flag's dismissal and writes its audit row, in one transaction; false when it is not there or already dismissed. */
  async dismiss(responseId: string, flag: QualityFlag, actor: { userId: string; role: string; name: string }, note: string, now: number, alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.updateTable('response_flags')
        .set({ dismissed_at: now, dismissed_by: actor.name, dismissed_role: actor.role, dismiss_note: note })
        .where('response_id', '=', responseId).where('flag', '=', flag).where('dismissed_at', 'is', null)
        .returning('reason').executeTakeFirst();
      if (!row) return false;
      await trx.insertInto('flag_dismissals').values({
        id: randomUUID(), response_id: responseId, flag, reason: row.reason, note, actor_user_id: actor.userId, actor_role: actor.role, actor_name: actor.name, created_at: now,
      }).execute();
      await alsoInTransaction?.(trx);
      return true;
    });
  }

  async flag(responseId: string, flag: QualityFlag) {
    return this.db.selectFrom('response_flags').selectAll().where('response_id', '=', responseId).where('flag', '=', flag).executeTakeFirst();
  }

  async photosOf(responseId: string): Promise<PhotoFacts[]> {
    return this.db.selectFrom('response_photos').select(['question', 'sha256', 'phash']).where('response_id', '=', responseId).orderBy('question').execute();
  }

  dismissals(responseId: string) {
    return this.db.selectFrom('flag_dismissals').selectAll().where('response_id', '=', responseId).orderBy('created_at').orderBy(sql`id`).execute();
  }

  /** Responses of a survey with an open flag (a supervisor: of their field users). */
  async flaggedCount(surveyId: string, supervisorMemberId: string | null): Promise<number> {
    const row = await this.db.selectFrom('response_flags as f')
      .select(sql<number>`count(distinct f.response_id)`.as('n'))
      .where('f.survey_id', '=', surveyId).where('f.dismissed_at', 'is', null)
      .$if(supervisorMemberId !== null, (q) => q.where('f.member_id', 'in', (eb) => eb.selectFrom('members as fu').select('fu.id').where('fu.survey_id', '=', surveyId).where('fu.role', '=', Role.fieldUser).where('fu.supervisor_id', '=', supervisorMemberId!)))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Open flags per member of a survey. */
  async flagsPerMember(surveyId: string, memberIds: string[]): Promise<Map<string, number>> {
    if (memberIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('response_flags').select(['member_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('survey_id', '=', surveyId).where('member_id', 'in', memberIds).where('dismissed_at', 'is', null).groupBy('member_id').execute();
    return new Map(rows.map((r) => [r.member_id, Number(r.n)]));
  }
}
