import type { Deps } from '../../plugins/deps.js';
import type { Kysely } from 'kysely';
import { ResponseStatus, type ChangesReply, type EarningsReply, type HoldReason, type MyResponsesReply } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import { bucketsOf, heldOf, heldReasonsByIds, holdRuleOf, type MemberHeld } from '../payouts/holds.js';
import { pageOf, pagingReply } from '../../http/paging.js';
import { CHANGES_PAGE, EarningsRepository } from './repository.js';
import { iso } from '../../lib/time.js';

/** A field user's view of their own money: what changed since their last sync, and the totals. */
export class EarningsService {
  private readonly repo: EarningsRepository;

  private readonly db: Kysely<Database>;

  constructor(deps: Pick<Deps, 'db'>) {
    this.db = deps.db.kysely;
    this.repo = new EarningsRepository(deps.db.kysely);
  }

  async changes(userId: string, since: string | undefined): Promise<ChangesReply> {
    const after = cursorOf(since);
    const [changed, paid] = await Promise.all([this.repo.changed(userId, after, CHANGES_PAGE + 1), this.repo.paid(userId, after, CHANGES_PAGE + 1)]);
    // One stream ordered by (time of the change, id): a response both reviewed and paid since the
    // cursor is listed once, at its later change (each row carries the response as it is now).
    const latest = new Map<string, (typeof changed)[number]>();
    for (const r of [...changed, ...paid]) {
      const seen = latest.get(r.id);
      if (!seen || Number(r.at) > Number(seen.at)) latest.set(r.id, r);
    }
    const rows = [...latest.values()].sort((a, b) => Number(a.at) - Number(b.at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const page = rows.slice(0, CHANGES_PAGE);
    const last = page[page.length - 1];
    return {
      changes: page.map((r) => ({
        _id: r.id, clientId: r.client_id, survey_id: r.survey_id, status: r.status as ResponseStatus, comment: r.review_comment,
        revision: Number(r.revision), paid: r.paid_at !== null, changedAt: new Date(Number(r.at)).toISOString(),
        ...(r.returned_answers !== null ? { answers: JSON.parse(r.returned_answers) as Record<string, string | string[]> } : {}),
      })),
      cursor: last ? `${Number(last.at)}_${last.id}` : since ?? '0_',
      hasMore: rows.length > CHANGES_PAGE,
    };
  }

  async mine(userId: string, page: number): Promise<MyResponsesReply> {
    const p = pageOf(page);
    const { rows, total } = await this.repo.mine(userId, p);
    const held = await this.heldOnPage(rows);
    return {
      responses: rows.map((r) => ({
        _id: r.id, clientId: r.client_id, survey_id: r.survey_id, status: r.status as ResponseStatus, comment: r.review_comment,
        revision: Number(r.revision), amount: Number(r.rate), paid: r.paid_at !== null,
        capturedAt: iso(r.captured_at), submittedAt: iso(r.created_at),
        // A fix puts the response back to pending: the earlier decision is no longer its state.
        reviewedAt: r.status === ResponseStatus.pending ? null : iso(r.reviewed_at), paidAt: iso(r.paid_at),
        ...(held.has(r.id) ? { held: held.get(r.id)! } : {}),
      })),
      ...pagingReply(p, total),
    };
  }

  async earnings(userId: string): Promise<EarningsReply> {
    const out: EarningsReply = { awaitingReview: zero(), owed: zero(), paid: { ...zero(), lastPaidAt: null }, returned: zero(), rejected: zero(), held: [] };
    // The same sums the payout dialog leaves out for this field user (payouts/holds.ts).
    const held: MemberHeld[] = [];
    for (const m of await this.repo.gatedMemberships(userId)) held.push(...(await heldOf(this.db, m.survey_id, await holdRuleOf(this.db, m.survey_id), [m.id])));
    out.held = bucketsOf(held);
    let lastPaid = 0;
    for (const r of await this.repo.totals(userId)) {
      const bucket = Number(r.paid) === 1 ? out.paid
        : r.status === ResponseStatus.approved ? out.owed
          : r.status === ResponseStatus.pending ? out.awaitingReview
            : r.status === ResponseStatus.returned ? out.returned : out.rejected;
      bucket.count += Number(r.count);
      bucket.amount += Number(r.amount ?? 0);
      if (r.last_paid_at !== null) lastPaid = Math.max(lastPaid, Number(r.last_paid_at));
    }
    out.paid.lastPaidAt = lastPaid ? new Date(lastPaid).toISOString() : null;
    return out;
  }

  /** Why each approved, unpaid response of a page is held, by its survey's rule. */
  private async heldOnPage(rows: { id: string; survey_id: string; status: string; paid_at: unknown }[]): Promise<Map<string, HoldReason>> {
    const out = new Map<string, HoldReason>();
    const bySurvey = new Map<string, string[]>();
    for (const r of rows) if (r.status === ResponseStatus.approved && r.paid_at === null) bySurvey.set(r.survey_id, [...(bySurvey.get(r.survey_id) ?? []), r.id]);
    for (const [surveyId, ids] of bySurvey) {
      const rule = await holdRuleOf(this.db, surveyId);
      if (!rule) continue;
      for (const [id, reason] of await heldReasonsByIds(this.db, rule, ids)) out.set(id, reason);
    }
    return out;
  }
}

const zero = () => ({ count: 0, amount: 0 });

/** A changes cursor `<epoch ms>_<response id>`; the first page starts before every id (the empty string sorts first). */
function cursorOf(since: string | undefined): { changedAt: number; id: string } {
  if (!since) return { changedAt: 0, id: '' };
  const cut = since.indexOf('_');
  return cut < 0 ? { changedAt: Number(since), id: '' } : { changedAt: Number(since.slice(0, cut)), id: since.slice(cut + 1) };
}
