import type { FastifyInstance } from 'fastify';
import { ApiMsg, Limits, type ResponseDetailReply, ResponseStatus, ReviewBody, type ReviewResult } from '@survey-bird/contracts';
import type { z } from 'zod';
import type { AuthContext } from '../../plugins/auth.js';
import { notFound } from '../../http/errors.js';
import type { FlagsService } from '../flags/service.js';
import { shownAnswers, type InsightService } from '../insight/service.js';
import { ReviewRepository, type Reviewer, type ReviewTarget } from './repository.js';

type Review = z.output<typeof ReviewBody>;

export const ReviewMsg = {
  responseNotFound: 'Response not found',
  paid: 'This response has been paid; a paid response cannot change status',
  inPayout: 'This response is in a payout being prepared; cancel that payout to change its status',
  rejectedIsFinal: 'This response was rejected; a rejection is final',
  changedMeanwhile: 'This response was changed by someone else meanwhile; reload and try again',
  done: { approved: 'Response approved', returned: 'Response returned to the field user', rejected: 'Response rejected', pending: 'Response pending' },
} as const;

/**
 * Approving, returning and rejecting responses. Each id is answered on its own; the status change
 * itself is one conditional UPDATE per starting status (repository.transition), so a response that
 * was paid or put in a payout meanwhile is never changed.
 */
export class ReviewService {
  private readonly repo: ReviewRepository;

  constructor(app: FastifyInstance, private readonly flags: FlagsService, private readonly insight: InsightService) {
    this.repo = new ReviewRepository(app.db.kysely);
  }

  async reviewer(auth: AuthContext): Promise<Reviewer> {
    return { userId: auth.user.id, role: auth.user.role, organizationId: auth.organizationId, name: await this.repo.reviewerName(auth.user.id) };
  }

  async review(reviewer: Reviewer, body: Review, now = Date.now()): Promise<ReviewResult[]> {
    let ids = body.responseIds ? [...new Set(body.responseIds)] : [];
    if (body.survey_id !== undefined) {
      if (!(await this.repo.canSeeSurvey(reviewer, body.survey_id))) throw notFound(ApiMsg.surveyNotFound);
      ids = await this.repo.pendingMatching(reviewer, body.survey_id, body.searchQuery ?? '', Limits.maxReviewBySearch);
    }
    const to = body.status;
    const comment = body.comment ? body.comment : null;
    const found = new Map((await this.repo.targets(reviewer, ids)).map((t) => [t.id, t]));
    const results = new Map<string, ReviewResult>();
    const byFrom = new Map<string, string[]>();
    for (const id of ids) {
      const target = found.get(id);
      const refusal = target ? refusalOf(target, to) : { status: 404, msg: ReviewMsg.responseNotFound };
      if (refusal) results.set(id, { _id: id, ...refusal });
      else if (target!.status === to) results.set(id, { _id: id, status: 200, msg: ReviewMsg.done[to], reviewStatus: to });
      else byFrom.set(target!.status, [...(byFrom.get(target!.status) ?? []), id]);
    }
    for (const [from, group] of byFrom) {
      const changed = new Set(await this.repo.transition(reviewer, from, to, group, comment, now));
      for (const id of group) results.set(id, changed.has(id) ? { _id: id, status: 200, msg: ReviewMsg.done[to], reviewStatus: to } : { _id: id, status: 409, msg: ReviewMsg.changedMeanwhile });
    }
    // What lost a race is answered with the reason it lost, read again.
    const raced = ids.filter((id) => results.get(id)?.msg === ReviewMsg.changedMeanwhile);
    for (const t of raced.length ? await this.repo.targets(reviewer, raced) : []) {
      const refusal = refusalOf(t, to);
      if (refusal) results.set(t.id, { _id: t.id, ...refusal });
    }
    return ids.map((id) => results.get(id)!);
  }

  async detail(reviewer: Reviewer, id: string): Promise<ResponseDetailReply> {
    const row = await this.repo.detail(reviewer, id);
    if (!row) throw notFound(ReviewMsg.responseNotFound);
    const answerColumns = this.insight.answerColumns(row.survey_id);
    const [audit, stored, flagState, meta, columns] = await Promise.all([this.repo.audit(row.id), this.repo.revisions(row.id), this.flags.stateOf([row.id]), answerColumns.then((c) => this.flags.metaOf(row, row.id, c)), answerColumns]);
    const fieldUser = { fullName: row.full_name, email: row.email };
    const status = row.status as ResponseStatus;
    const revision = Number(row.revision);
    type Answers = ResponseDetailReply['answers'];
    // Keyed as the table and the export head them: a question renamed since shows its answer under its new name.
    const answersOf = (json: string) => shownAnswers<Answers[string]>(columns, Number(row.version), json);
    // A response never fixed is its own revision 1; a fixed one has every revision stored, and
    // each before the latest was superseded while returned (only a returned response is fixed).
    const revisions = stored.length === 0
      ? [{ revision: 1, answers: answersOf(row.answers), submittedAt: new Date(Number(row.created_at)).toISOString(), status }]
      : stored.map((r) => ({ revision: Number(r.revision), answers: answersOf(r.answers), submittedAt: new Date(Number(r.submitted_at)).toISOString(), status: Number(r.revision) === revision ? status : ResponseStatus.returned }));
    return {
      _id: row.id,
      survey_id: row.survey_id,
      answers: answersOf(row.answers),
      fieldUser,
      status,
      comment: row.review_comment,
      paid: row.paid_at !== null,
      createdAt: new Date(Number(row.created_at)).toISOString(),
      audit: audit.map((a) => ({ by: a.actor_name, role: a.actor_role, at: new Date(Number(a.created_at)).toISOString(), from: a.from_status as ResponseStatus, to: a.to_status as ResponseStatus, comment: a.comment })),
      revision,
      revisions,
      meta,
      ...flagState.get(row.id)!,
    };
  }
}

function refusalOf(t: ReviewTarget, to: string): { status: number; msg: string } | null {
  if (t.paid_at !== null) return { status: 409, msg: ReviewMsg.paid };
  if (t.in_payout) return { status: 409, msg: ReviewMsg.inPayout };
  if (t.status === ResponseStatus.rejected && to !== ResponseStatus.rejected) return { status: 409, msg: ReviewMsg.rejectedIsFinal };
  return null;
}

