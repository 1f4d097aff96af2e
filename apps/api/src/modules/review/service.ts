import type { Deps } from '../../plugins/deps.js';
import { ApiMsg, AuditAction, Limits, type EncryptedAnswers, type ResponseDetailReply, ResponseStatus, ReviewBody, type ReviewResult } from '@survey-bird/contracts';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema.js';
import { audioAuditOf } from '../audio/repository.js';
import { heldReasonsOf } from '../payouts/holds.js';
import { notFound } from '../../http/errors.js';
import type { FlagsService } from '../flags/service.js';
import { visibleAnswers, type InsightService } from '../insight/service.js';
import { hidesPersonal } from '../privacy/personal-keys.js';
import { recordAudits, type AuditActor } from '../audit/record.js';
import { ReviewRepository, type ReviewingActor, type ReviewTarget } from './repository.js';

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

  private readonly db: Kysely<Database>;

  constructor(deps: Pick<Deps, 'db'>, private readonly flags: FlagsService, private readonly insight: InsightService) {
    this.db = deps.db.kysely;
    this.repo = new ReviewRepository(deps.db.kysely);
  }

  /** The name a verdict or a dismissal is recorded under: the account's full name, else its e-mail. */
  nameOf(actor: ReviewingActor): Promise<string> {
    return this.repo.reviewerName(actor.userId);
  }

  async review(reviewer: ReviewingActor, body: Review, actor: AuditActor, now = Date.now()): Promise<ReviewResult[]> {
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
    // Read once, and only when something changes: the name is what the audit row keeps.
    const named = { ...reviewer, name: byFrom.size ? await this.nameOf(reviewer) : reviewer.email };
    for (const [from, group] of byFrom) {
      const changed = new Set(await this.repo.transition(named, from, to, group, comment, now, (rows, trx) => recordAudits(trx, actor, rows.map((r) => ({
        organizationId: r.organization_id, action: AuditAction.reviewVerdict, surveyId: r.survey_id, target: { type: 'response', id: r.id },
        before: { status: from }, after: { status: to, ...(comment === null ? {} : { comment }) },
      })), now)));
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

  /** The response when the reviewer may see it (its organization's office, or its field user's supervisor). */
  visibleResponse(reviewer: ReviewingActor, id: string) {
    return this.repo.visibleResponse(reviewer, id);
  }

  async detail(reviewer: ReviewingActor, id: string): Promise<ResponseDetailReply> {
    const row = await this.repo.detail(reviewer, id);
    if (!row) throw notFound(ReviewMsg.responseNotFound);
    const answerColumns = this.insight.answerColumns(row.survey_id);
    const [audit, stored, flagState, meta, columns, hidden, audioAudit, held] = await Promise.all([
      this.repo.audit(row.id), this.repo.revisions(row.id), this.flags.stateOf([row.id]), answerColumns.then((c) => this.flags.metaOf(row, row.id, c)), answerColumns,
      hidesPersonal(reviewer) ? this.insight.personalKeysById(row.survey_id) : null,
      audioAuditOf(this.db, row), heldReasonsOf(this.db, row),
    ]);
    const fieldUser = { fullName: row.full_name, email: row.email };
    const status = row.status as ResponseStatus;
    const revision = Number(row.revision);
    type Answers = ResponseDetailReply['answers'];
    // Keyed as the table and the export head them: a question renamed since shows its answer under its new name.
    const answersOf = (json: string) => visibleAnswers<Answers[string]>(columns, Number(row.version), json, hidden);
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
      // A hidden photo's hashes are a fingerprint of it: gone with it.
      meta: hidden ? { ...meta, photos: meta.photos.filter((p) => !hidden.has(p.question)) } : meta,
      erasedAt: row.erased_at === null || row.erased_at === undefined ? null : new Date(Number(row.erased_at)).toISOString(),
      hiddenPersonal: hidden !== null && hidden.size > 0,
      // The server cannot mask inside an envelope: a reader kept from personal answers does not get it.
      encrypted: row.encrypted && !hidden ? (JSON.parse(row.encrypted) as EncryptedAnswers) : null,
      audioAudit,
      held,
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

