import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { AudioStatus, HOLD_REASONS, HoldReason, ResponseStatus, type HeldBucket, type PayGate } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import { readPayGate } from '../audio/settings.js';
import { backcheckHolds } from '../backchecks/service.js';

/**
 * Pay holds: the one place that says which approved, unpaid responses a payout leaves out and why.
 * The payout create, the payout dialog's preview, the field user's earnings and a response's detail
 * all read it, so the office and the field user see the same naira held for the same reasons.
 *
 * A held response is counted under its first reason in HOLD_REASONS order (not reviewed, audio not
 * reviewed, back-check), so the per-reason sums add up to what is held. A hold is decided when the
 * payout is made: nothing is written on the response, and lifting it (a review, a verdict) makes the
 * response payable at the next payout.
 */
export interface HoldRule {
  gate: PayGate;
  /** Responses held for their field user's back-check discrepancy (backcheckHeldResponseIds). */
  backcheckHeld: readonly string[];
}

/**
 * The responses of the survey whose field user's back-check discrepancy is over the survey's
 * threshold over their last back-checks, with a mismatch still unreviewed (backchecks/service.ts).
 */
export async function backcheckHeldResponseIds(db: Kysely<Database>, survey: { id: string }): Promise<string[]> {
  return [...(await backcheckHolds(db, survey.id)).responseIds];
}

/** The survey's hold rule as it stands now; undefined when the survey holds nothing back. */
export async function holdRuleOf(db: Kysely<Database>, surveyId: string): Promise<HoldRule | undefined> {
  const row = await db.selectFrom('surveys').select('pay_gate').where('id', '=', surveyId).executeTakeFirst();
  const gate = readPayGate(row?.pay_gate);
  if (!gate.approved && !gate.audioReviewed && !gate.backcheck) return undefined;
  return { gate, backcheckHeld: gate.backcheck ? await backcheckHeldResponseIds(db, { id: surveyId }) : [] };
}

/** Per reason, the SQL saying the response (`id` its id column) is held for it; null when the rule does not hold for that reason. */
function conditions(rule: HoldRule, id: 'r.id' | 'responses.id'): Partial<Record<HoldReason, RawBuilder<SqlBool>>> {
  const ref = sql.ref(id);
  const audio = sql.ref(id === 'r.id' ? 'r.audio' : 'responses.audio');
  const out: Partial<Record<HoldReason, RawBuilder<SqlBool>>> = {};
  // Approved by a reviewer: a review row that moved it to approved (arriving approved is not one).
  if (rule.gate.approved) out.not_reviewed = sql<SqlBool>`not exists (select 1 from response_reviews rr where rr.response_id = ${ref} and rr.to_status = ${ResponseStatus.approved})`;
  // coalesce: a NULL here would make the whole `not (...)` NULL and drop every response without audio.
  if (rule.gate.audioReviewed) out.audio_not_reviewed = sql<SqlBool>`(coalesce(${audio}, '') = ${AudioStatus.recorded} and not exists (select 1 from audio_audits aa where aa.response_id = ${ref} and aa.verdict is not null))`;
  if (rule.gate.backcheck && rule.backcheckHeld.length > 0) out.backcheck = sql<SqlBool>`${ref} in (${sql.join(rule.backcheckHeld)})`;
  return out;
}

/** SQL: the response is held for some reason (false when the rule holds nothing). */
export function isHeld(rule: HoldRule | undefined, id: 'r.id' | 'responses.id'): RawBuilder<SqlBool> {
  const parts = rule ? Object.values(conditions(rule, id)) : [];
  return parts.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** SQL: the response's first hold reason, or null. */
export function holdReasonOf(rule: HoldRule, id: 'r.id' | 'responses.id'): RawBuilder<string | null> {
  const c = conditions(rule, id);
  const whens = HOLD_REASONS.flatMap((reason) => (c[reason] ? [sql`when ${c[reason]} then ${reason}`] : []));
  return whens.length === 0 ? sql<null>`null` : sql<string | null>`case ${sql.join(whens, sql` `)} else null end`;
}

export interface MemberHeld {
  memberId: string;
  reason: HoldReason;
  count: number;
  amount: number;
}

/**
 * What the survey's rule holds now, per field user (member) and reason: approved, unpaid, not in
 * a payout, rate above 0 (what a payout would otherwise take). `memberIds` narrows it to some.
 */
export async function heldOf(db: Kysely<Database>, surveyId: string, rule: HoldRule | undefined, memberIds?: readonly string[]): Promise<MemberHeld[]> {
  if (!rule || Object.keys(conditions(rule, 'r.id')).length === 0) return [];
  let inner = db.selectFrom('responses as r')
    .select(['r.member_id', 'r.rate', holdReasonOf(rule, 'r.id').as('reason')])
    .where('r.survey_id', '=', surveyId).where('r.status', '=', ResponseStatus.approved).where('r.paid_at', 'is', null).where('r.rate', '>', 0)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('payout_items as i').select('i.response_id').whereRef('i.response_id', '=', 'r.id'))));
  if (memberIds) inner = inner.where('r.member_id', 'in', memberIds.length ? [...memberIds] : ['']);
  const rows = await db.selectFrom(inner.as('h'))
    .select(['h.member_id', 'h.reason', (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.sum<number>('h.rate').as('amount')])
    .where('h.reason', 'is not', null).groupBy(['h.member_id', 'h.reason']).execute();
  return rows.map((r) => ({ memberId: r.member_id, reason: r.reason as HoldReason, count: Number(r.count), amount: Number(r.amount) }));
}

/** Per reason (in HOLD_REASONS order, only those holding something), summed over members. */
export function bucketsOf(held: readonly MemberHeld[]): HeldBucket[] {
  const sums = new Map<HoldReason, HeldBucket>();
  for (const h of held) {
    const b = sums.get(h.reason) ?? { reason: h.reason, count: 0, amount: 0 };
    b.count += h.count;
    b.amount += h.amount;
    sums.set(h.reason, b);
  }
  return HOLD_REASONS.flatMap((r) => (sums.has(r) ? [sums.get(r)!] : []));
}

/** Of these responses (one survey's), those held now and why. */
export async function heldReasonsByIds(db: Kysely<Database>, rule: HoldRule, ids: readonly string[]): Promise<Map<string, HoldReason>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('responses as r').select(['r.id', holdReasonOf(rule, 'r.id').as('reason')])
    .where('r.id', 'in', [...ids]).where('r.status', '=', ResponseStatus.approved).where('r.paid_at', 'is', null).where('r.rate', '>', 0)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('payout_items as i').select('i.response_id').whereRef('i.response_id', '=', 'r.id'))))
    .execute();
  return new Map(rows.flatMap((r) => (r.reason ? [[r.id, r.reason as HoldReason] as const] : [])));
}

/** Why one response is held now (its first reason only, as it is counted), or nothing. */
export async function heldReasonsOf(db: Kysely<Database>, response: { id: string; survey_id: string }): Promise<HoldReason[]> {
  const rule = await holdRuleOf(db, response.survey_id);
  if (!rule) return [];
  const row = await db.selectFrom('responses as r').select(holdReasonOf(rule, 'r.id').as('reason'))
    .where('r.id', '=', response.id).where('r.status', '=', ResponseStatus.approved).where('r.paid_at', 'is', null).where('r.rate', '>', 0)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('payout_items as i').select('i.response_id').whereRef('i.response_id', '=', 'r.id'))))
    .executeTakeFirst();
  return row?.reason ? [row.reason as HoldReason] : [];
}
