import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { ResponseStatus, Role } from '@survey-bird/contracts';
import { inOffice } from '../../db/actor-scope.js';
import type { Database } from '../../db/schema.js';
import type { OfficeActor, SupervisorActor } from '../../plugins/auth.js';
import { inPayout, paidAtOf } from '../payouts/paid.js';
import { contains } from '../../db/sql.js';

/** Who reviews: an office user (their organization's surveys in their scope) or a supervisor (their assigned field users only). */
export type ReviewingActor = OfficeActor | SupervisorActor;

export interface ReviewTarget {
  id: string;
  survey_id: string;
  organization_id: string;
  status: string;
  paid_at: number | null;
  /** 1 when a draft or paid payout holds the response. */
  in_payout: number;
}

/** A response a transition changed, with where it belongs (for the audit log). */
export interface Changed {
  id: string;
  survey_id: string;
  organization_id: string;
}

/** Ids per statement: far below both engines' bound-parameter limits. */
const CHUNK = 500;


export class ReviewRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Kysely<Database>) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /** The responses the reviewer may see; a supervisor's are those of field users assigned to them (none once withdrawn). */
  private visible(reviewer: ReviewingActor, db: Kysely<Database> = this.db) {
    let q = db.selectFrom('responses as r');
    if (reviewer.role === Role.organization) return q.where(inOffice(reviewer, 'r.organization_id', 'r.survey_id'));
    q = q.where('r.member_id', 'in', (eb) =>
      eb.selectFrom('members as f').innerJoin('members as s', 's.id', 'f.supervisor_id').select('f.id').where('s.user_id', '=', reviewer.userId).where('s.role', '=', Role.supervisor).where('s.withdrawn_at', 'is', null));
    return q;
  }

  async targets(reviewer: ReviewingActor, ids: string[], db: Kysely<Database> = this.db): Promise<ReviewTarget[]> {
    const out: ReviewTarget[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await this.visible(reviewer, db)
        .select(['r.id', 'r.survey_id', 'r.organization_id', 'r.status', paidAtOf('r.id', 'r.paid_at').as('paid_at'), sql<number>`case when ${inPayout('r.id')} then 1 else 0 end`.as('in_payout')])
        .where('r.id', 'in', ids.slice(i, i + CHUNK)).execute();
      out.push(...rows.map((r) => ({ ...r, in_payout: Number(r.in_payout) })));
    }
    return out;
  }

  /** Pending responses of one survey matching a search, newest first, at most `limit`. */
  async pendingMatching(reviewer: ReviewingActor, surveyId: string, search: string, limit: number): Promise<string[]> {
    let q = this.visible(reviewer).select('r.id').where('r.survey_id', '=', surveyId).where('r.status', '=', ResponseStatus.pending);
    if (search) q = q.where(contains('r.search_text', search));
    return (await q.orderBy('r.created_at', 'desc').limit(limit).execute()).map((r) => r.id);
  }

  /** Whether the reviewer may see this survey at all (an organization's own, or one they supervise on). */
  async canSeeSurvey(reviewer: ReviewingActor, surveyId: string): Promise<boolean> {
    let q = this.db.selectFrom('surveys as s').select('s.id').where('s.id', '=', surveyId);
    if (reviewer.role === Role.organization) q = q.where(inOffice(reviewer, 's.organization_id', 's.id'));
    else q = q.where((eb) => eb.exists(eb.selectFrom('members as m').select('m.id').whereRef('m.survey_id', '=', 's.id').where('m.user_id', '=', reviewer.userId).where('m.role', '=', Role.supervisor).where('m.withdrawn_at', 'is', null)));
    return (await q.executeTakeFirst()) !== undefined;
  }

  /**
   * Moves every response of `ids` still in `from` (and neither paid nor in a payout) to `to`, with
   * an audit row each, in one transaction. The conditions sit in the UPDATE itself, so a payout or
   * another reviewer racing this one is decided by the database. Answers the ids it changed.
   */
  async transition(reviewer: ReviewingActor & { name: string }, from: string, to: string, ids: string[], comment: string | null, now: number, audit?: (changed: Changed[], trx: Kysely<Database>) => Promise<void>): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      // A payout create freezes responses by inserting payout_items, which takes no lock on the
      // response rows; both take their surveys' row locks first (PostgreSQL; SQLite has one writer), so a
      // status change and a payout of the same survey run one after the other, each seeing the other's commit.
      if (this.postgres) {
        await trx.selectFrom('surveys').select('id').where('id', 'in', (eb) => eb.selectFrom('responses').select('survey_id').where('id', 'in', ids))
          .orderBy('id').forNoKeyUpdate().execute();
      }
      const changedRows: Changed[] = [];
      for (let i = 0; i < ids.length; i += CHUNK) {
        const rows = await trx.updateTable('responses')
          .set({ status: to, review_comment: comment, reviewed_by: reviewer.name, reviewed_at: now, changed_at: now })
          .where('id', 'in', ids.slice(i, i + CHUNK))
          .where('status', '=', from)
          .where('paid_at', 'is', null)
          .where(sql<boolean>`not ${inPayout('responses.id')}`)
          .returning(['id', 'survey_id', 'organization_id'])
          .execute();
        changedRows.push(...rows);
      }
      const changed = changedRows.map((r) => r.id);
      for (let i = 0; i < changed.length; i += CHUNK) {
        await trx.insertInto('response_reviews').values(changed.slice(i, i + CHUNK).map((id) => ({
          id: randomUUID(), response_id: id, actor_user_id: reviewer.userId, actor_role: reviewer.role, actor_name: reviewer.name,
          from_status: from, to_status: to, comment, created_at: now,
        }))).execute();
      }
      await audit?.(changedRows, trx);
      return changed;
    });
  }

  /** The response when the reviewer may see it: its ids, audio facts and meta. */
  visibleResponse(reviewer: ReviewingActor, id: string) {
    return this.visible(reviewer).select(['r.id', 'r.survey_id', 'r.organization_id', 'r.audio', 'r.meta']).where('r.id', '=', id).executeTakeFirst();
  }

  async detail(reviewer: ReviewingActor, id: string) {
    return this.visible(reviewer)
      .innerJoin('members as m', 'm.id', 'r.member_id')
      .select(['r.id', 'r.survey_id', 'r.answers', 'r.status', 'r.review_comment', paidAtOf('r.id', 'r.paid_at').as('paid_at'), 'r.created_at', 'r.revision', 'r.version', 'r.meta', 'r.captured_at', 'r.erased_at', 'r.audio', 'r.encrypted', 'm.full_name', 'm.email'])
      .where('r.id', '=', id)
      .executeTakeFirst();
  }

  audit(responseId: string) {
    return this.db.selectFrom('response_reviews').selectAll().where('response_id', '=', responseId).orderBy('created_at').orderBy(sql`id`).execute();
  }

  /** Every revision of a response, oldest first (none for a response never fixed). */
  revisions(responseId: string) {
    return this.db.selectFrom('response_revisions').select(['revision', 'answers', 'submitted_at']).where('response_id', '=', responseId).orderBy('revision').execute();
  }

  async reviewerName(userId: string): Promise<string> {
    const user = await this.db.selectFrom('users').select(['full_name', 'email']).where('id', '=', userId).executeTakeFirst();
    return user?.full_name || user?.email || userId;
  }
}
