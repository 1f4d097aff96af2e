import { PostgresAdapter, sql, type Kysely, type SqlBool } from 'kysely';
import { isHeld, type HoldRule } from './holds.js';
import { PayoutStatus, ResponseStatus, Role } from '@survey-bird/contracts';
import type { Database, PayoutLinesTable, PayoutsTable } from '../../db/schema.js';
import { inOffice } from '../../db/actor-scope.js';
import type { OfficeActor, SupervisorActor } from '../../plugins/auth.js';
import type { Page } from '../../http/paging.js';

export interface PayMember {
  id: string;
  bank_changed_at: number | null;
  full_name: string;
  email: string;
  bank: string;
  account_number: string;
  account_name: string;
}

export interface Owed {
  member_id: string;
  amount: number;
  count: number;
}

/** Thrown inside the create transaction to roll it back when it froze nothing. */
export class NothingToPay extends Error {}

/** Members per statement: far below both engines' bound-parameter limits. */
const CHUNK = 1000;

/**
 * Payouts and the responses they hold. A response is in at most one draft or paid payout because
 * `payout_items.response_id` is its primary key: the database, not this code, decides which of two
 * racing creates gets it. Freezing inserts narrow item rows and never rewrites a response row.
 */
export class PayoutsRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Kysely<Database>) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /** The survey when it is in the office user's scope. */
  surveyOfOffice(surveyId: string, actor: OfficeActor) {
    return this.db.selectFrom('surveys').select(['id', 'title', 'organization_id']).where('id', '=', surveyId).where(inOffice(actor, 'organization_id', 'id')).executeTakeFirst();
  }

  /** The caller's supervisor rows on the survey (empty: not a supervisor there). */
  async supervisorRows(surveyId: string, userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('members').select('id').where('survey_id', '=', surveyId).where('user_id', '=', userId).where('role', '=', Role.supervisor).where('withdrawn_at', 'is', null).execute();
    return rows.map((r) => r.id);
  }

  async fieldUsersOf(supervisorIds: string[]): Promise<string[]> {
    if (supervisorIds.length === 0) return [];
    const rows = await this.db.selectFrom('members').select('id').where('supervisor_id', 'in', supervisorIds).execute();
    return rows.map((r) => r.id);
  }

  /** Field users of the survey (those of `ids` only when given) with bank details. */
  members(surveyId: string, ids?: string[]): Promise<PayMember[]> {
    let q = this.db.selectFrom('members').select(['id', 'full_name', 'email', 'bank', 'account_number', 'account_name', 'bank_changed_at']).where('survey_id', '=', surveyId).where('role', '=', Role.fieldUser);
    if (ids) q = q.where('id', 'in', ids.length ? ids : ['']);
    return q.execute();
  }

  /** What each field user of the survey is owed: approved, unpaid, not in a payout, rate above 0. */
  async owed(surveyId: string, rule: HoldRule | undefined): Promise<Owed[]> {
    const rows = await this.unpaid(this.db, surveyId, rule)
      .select(['member_id', (eb) => eb.fn.sum<number>('rate').as('amount'), (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('member_id').execute();
    return rows.map((r) => ({ member_id: r.member_id, amount: Number(r.amount), count: Number(r.count) }));
  }

  private unpaid(db: Kysely<Database>, surveyId: string, rule: HoldRule | undefined) {
    return this.approvedUnpaid(db, surveyId, rule)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('payout_items as i').select('i.response_id').whereRef('i.response_id', '=', 'responses.id'))));
  }

  /** Approved, with a rate, not paid before payouts existed (`paid_at`) and not held (holds.ts); payout items not looked at. */
  private approvedUnpaid(db: Kysely<Database>, surveyId: string, rule: HoldRule | undefined) {
    const q = db.selectFrom('responses').where('survey_id', '=', surveyId).where('status', '=', ResponseStatus.approved)
      .where('paid_at', 'is', null).where('rate', '>', 0);
    return rule ? q.where(sql<SqlBool>`not ${isHeld(rule, 'responses.id')}`) : q;
  }

  byKey(organizationId: string, key: string) {
    return this.db.selectFrom('payouts').selectAll().where('organization_id', '=', organizationId).where('idempotency_key', '=', key).executeTakeFirst();
  }

  /**
   * Creates the payout and freezes the members' owed responses into it, in one transaction. Answers
   * undefined when another create already holds `key` (the caller reads that one), and throws
   * NothingToPay (rolling back) when no response was left to take.
   */
  async create(payout: PayoutsTable, members: PayMember[], rule: HoldRule | undefined, audit?: (created: PayoutsTable, lines: PayoutLinesTable[], trx: Kysely<Database>) => Promise<void>): Promise<PayoutsTable | undefined> {
    return this.db.transaction().execute(async (trx) => {
      // Creates for one survey take its row lock first (PostgreSQL), so two of them never update
      // the same responses in different orders (a deadlock); the UPDATE's condition still decides.
      // NO KEY UPDATE: it does not conflict with the key-share lock the payouts foreign key takes.
      if (this.postgres) await trx.selectFrom('surveys').select('id').where('id', '=', payout.survey_id).forNoKeyUpdate().execute();
      const inserted = await trx.insertInto('payouts').values(payout).onConflict((oc) => oc.columns(['organization_id', 'idempotency_key']).doNothing()).returning('id').executeTakeFirst();
      if (!inserted) return undefined;
      const byId = new Map(members.map((m) => [m.id, m]));
      const ids = [...byId.keys()];
      for (let i = 0; i < ids.length; i += CHUNK) {
        // ON CONFLICT: a response another payout holds (PostgreSQL waits for an uncommitted one
        // and skips the row once it commits) is simply not in this one. No NOT EXISTS here: on
        // PostgreSQL it was planned as a scan of payout_items per row, quadratic in the payout's size.
        await trx.insertInto('payout_items').columns(['response_id', 'payout_id', 'member_id', 'rate'])
          .expression(this.approvedUnpaid(trx, payout.survey_id, rule).where('member_id', 'in', ids.slice(i, i + CHUNK))
            .select((eb) => [eb.ref('id').as('response_id'), eb.val(payout.id).as('payout_id'), eb.ref('member_id').as('member_id'), eb.ref('rate').as('rate')]))
          .onConflict((oc) => oc.column('response_id').doNothing())
          .execute();
      }
      const sums = await trx.selectFrom('payout_items as i')
        .select(['i.member_id', (eb) => eb.fn.sum<number>('i.rate').as('amount'), (eb) => eb.fn.countAll<number>().as('count')])
        .where('i.payout_id', '=', payout.id).groupBy('i.member_id').execute();
      if (sums.length === 0) throw new NothingToPay();
      // Fresh statistics after a large freeze, so the next owed() plans its anti-join by what is there.
      if (this.postgres && sums.reduce((n, s) => n + Number(s.count), 0) > 1000) await sql`analyze payout_items`.execute(trx);
      const lines: PayoutLinesTable[] = sums.map((s) => {
        const m = byId.get(s.member_id)!;
        return { payout_id: payout.id, member_id: m.id, full_name: m.full_name, email: m.email, bank: m.bank, account_number: m.account_number, account_name: m.account_name, amount: Number(s.amount), response_count: Number(s.count), bank_changed_at: m.bank_changed_at };
      });
      for (let i = 0; i < lines.length; i += 200) await trx.insertInto('payout_lines').values(lines.slice(i, i + 200)).execute();
      const total = lines.reduce((n, l) => n + l.amount, 0);
      const count = lines.reduce((n, l) => n + l.response_count, 0);
      await trx.updateTable('payouts').set({ total, response_count: count }).where('id', '=', payout.id).execute();
      const created = { ...payout, total, response_count: count };
      await audit?.(created, lines, trx);
      return created;
    });
  }

  /** The payout when the caller may see it: an office user's scope, or a survey the supervisor supervises on (their lines are picked later). */
  find(id: string, actor: OfficeActor | SupervisorActor) {
    const q = this.db.selectFrom('payouts').selectAll().where('id', '=', id);
    if (actor.role === Role.organization) return q.where(inOffice(actor, 'organization_id', 'survey_id')).executeTakeFirst();
    return q.where('survey_id', 'in', (eb) => eb.selectFrom('members').select('survey_id').where('user_id', '=', actor.userId).where('role', '=', Role.supervisor).where('withdrawn_at', 'is', null)).executeTakeFirst();
  }

  lines(payoutId: string, memberIds?: string[]) {
    let q = this.db.selectFrom('payout_lines').selectAll().where('payout_id', '=', payoutId);
    if (memberIds) q = q.where('member_id', 'in', memberIds.length ? memberIds : ['']);
    return q.orderBy('full_name').orderBy('member_id').execute();
  }

  /**
   * draft -> paid; false when it was not a draft. The responses it holds are paid from then on
   * because their payout is (paid.ts): no response row is rewritten.
   */
  async markPaid(id: string, actor: OfficeActor, reference: string, now: number, audit?: (payout: PayoutsTable, trx: Kysely<Database>) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const paid = await trx.updateTable('payouts').set({ status: PayoutStatus.paid, reference, paid_by: actor.userId, paid_at: now })
        .where('id', '=', id).where(inOffice(actor, 'organization_id', 'survey_id')).where('status', '=', PayoutStatus.draft).returningAll().executeTakeFirst();
      if (paid) await audit?.(paid, trx);
      return paid !== undefined;
    });
  }

  /** draft -> cancelled, releasing its responses; false when it was not a draft. */
  async cancel(id: string, actor: OfficeActor, now: number, audit?: (payout: PayoutsTable, trx: Kysely<Database>) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const cancelled = await trx.updateTable('payouts').set({ status: PayoutStatus.cancelled, cancelled_at: now })
        .where('id', '=', id).where(inOffice(actor, 'organization_id', 'survey_id')).where('status', '=', PayoutStatus.draft).returningAll().executeTakeFirst();
      if (!cancelled) return false;
      await trx.deleteFrom('payout_items').where('payout_id', '=', id).execute();
      await audit?.(cancelled, trx);
      return true;
    });
  }

  /** A page of the survey's payouts, newest first; a supervisor's only those paying their field users. */
  async list(surveyId: string, page: Page, memberIds?: string[]) {
    let q = this.db.selectFrom('payouts as p').where('p.survey_id', '=', surveyId);
    if (memberIds) q = q.where((eb) => eb.exists(eb.selectFrom('payout_lines as l').select('l.member_id').whereRef('l.payout_id', '=', 'p.id').where('l.member_id', 'in', memberIds.length ? memberIds : [''])));
    // A supervisor's totals are of their field users' lines, over every payout, not just the page.
    const sums = memberIds
      ? this.db.selectFrom('payout_lines as l').innerJoin('payouts as p', 'p.id', 'l.payout_id').where('p.survey_id', '=', surveyId).where('l.member_id', 'in', memberIds.length ? memberIds : [''])
        .select(['p.status', (eb) => eb.fn.sum<number>('l.amount').as('total')]).groupBy('p.status').execute()
      : q.select(['p.status', (eb) => eb.fn.sum<number>('p.total').as('total')]).groupBy('p.status').execute();
    const [rows, total, totals] = await Promise.all([
      q.selectAll('p').orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      sums,
    ]);
    return { rows, total: Number(total.n), totals: new Map(totals.map((t) => [t.status, Number(t.total)])) };
  }

  /** Every response a payout covers, for its second sheet, in pages by id (flat memory). */
  async *responsesOf(payoutId: string, pageSize = 2000) {
    let after = '';
    for (;;) {
      const rows = await this.db.selectFrom('payout_items as i').innerJoin('responses as r', 'r.id', 'i.response_id').innerJoin('members as m', 'm.id', 'r.member_id')
        .select(['r.id', 'r.created_at', 'r.rate', 'm.full_name', 'm.email'])
        .where('i.payout_id', '=', payoutId).where('i.response_id', '>', after).orderBy('i.response_id').limit(pageSize).execute();
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.id;
    }
  }

  surveyTitle(surveyId: string) {
    return this.db.selectFrom('surveys').select('title').where('id', '=', surveyId).executeTakeFirst();
  }
}
