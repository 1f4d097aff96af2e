import { Limits, type ReviewResult } from '@survey-bird/contracts';
import { api } from '../../api';
import { t } from '../../lib/i18n';

export type Verdict = 'approved' | 'returned' | 'rejected';

export interface ReviewOutcome {
  done: number;
  /** Per id that could not change: the server's reason (404, 409). */
  failed: ReviewResult[];
}

const tally = (results: ReviewResult[], into: ReviewOutcome) => {
  for (const r of results) {
    if (r.status === 200) into.done++;
    else into.failed.push(r);
  }
};

/** The selected rows, in chunks the route accepts. */
export async function reviewIds(ids: string[], status: Verdict, comment?: string): Promise<ReviewOutcome> {
  const out: ReviewOutcome = { done: 0, failed: [] };
  for (let i = 0; i < ids.length; i += Limits.maxReviewBatch) {
    const reply = await api.call('reviewResponses', { body: { responseIds: ids.slice(i, i + Limits.maxReviewBatch), status, ...(comment ? { comment } : {}) } });
    tally(reply.results, out);
  }
  return out;
}

/**
 * Every pending response of the survey matching the search, chosen by the server (not only the
 * page on screen). One call changes at most Limits.maxReviewBySearch; a full answer means some may
 * remain, so it asks again until a call changes nothing more.
 */
export async function reviewMatching(surveyId: string, searchQuery: string, status: Verdict, comment?: string): Promise<ReviewOutcome> {
  const out: ReviewOutcome = { done: 0, failed: [] };
  for (;;) {
    const reply = await api.call('reviewResponses', { body: { survey_id: surveyId, searchQuery, status, ...(comment ? { comment } : {}) } });
    const before = out.done;
    tally(reply.results, out);
    if (reply.results.length < Limits.maxReviewBySearch || out.done === before) return out;
  }
}

export function outcomeText(outcome: ReviewOutcome, status: Verdict): string {
  const count = outcome.done;
  const head = status === 'approved' ? t('office.review.doneApproved', { count }) : status === 'returned' ? t('office.review.doneReturned', { count }) : t('office.review.doneRejected', { count });
  if (outcome.failed.length === 0) return head;
  return t('office.review.doneWithFailures', { head, failed: outcome.failed.length, reason: outcome.failed[0]!.msg });
}
