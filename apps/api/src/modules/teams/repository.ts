import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { PayoutStatus, ResponseStatus, Role } from '@survey-bird/contracts';
import type { Database, NewMember } from '../../db/schema.js';
import { inOffice } from '../../db/actor-scope.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { contains } from '../../db/sql.js';
import type { Page } from '../../http/paging.js';

/** Work a caller adds to a repository's transaction (an audit event), committed or rolled back with it. */
export type InTransaction = (trx: Kysely<Database>) => Promise<void>;

type Members = ExpressionBuilder<Database & { m: Database['members'] }, 'm'>;

/** Which field users of one survey a list covers: all of them, or those of some supervisor rows. */
export interface FieldUserScope {
  surveyId: string;
  supervisorIds?: string[];
  search: string;
}

const zero = sql<number>`0`;

/**
 * Naira owed to the member `m`: the rates of their approved responses not yet paid (docs/decisions.md,
 * "Money"). A paid payout holds only approved responses with no `paid_at` (none can change status
 * once held), so subtracting its lines' amounts from the approved, unpaid-before-payouts sum is exact
 * and costs one read per line instead of a payout lookup per response.
 */
function outstandingOf(eb: Members) {
  return sql<number>`(${approvedSumOf(eb)}) - (${paidLinesOf(eb)})`;
}

function approvedSumOf(eb: Members) {
  return eb.selectFrom('responses as r').select((r) => r.fn.coalesce(r.fn.sum<number>('r.rate'), zero).as('n')).whereRef('r.member_id', '=', 'm.id').where('r.status', '=', ResponseStatus.approved).where('r.paid_at', 'is', null);
}

/** What paid payouts paid the member `m`. */
function paidLinesOf(eb: Members) {
  return eb.selectFrom('payout_lines as l').innerJoin('payouts as p', 'p.id', 'l.payout_id')
    .select((l) => l.fn.coalesce(l.fn.sum<number>('l.amount'), zero).as('n')).whereRef('l.member_id', '=', 'm.id').where('p.status', '=', PayoutStatus.paid);
}

/** Naira the member `m` is owed once their pending responses are approved. */
function awaitingReviewOf(eb: Members) {
  return eb.selectFrom('responses as r').select((r) => r.fn.coalesce(r.fn.sum<number>('r.rate'), zero).as('n')).whereRef('r.member_id', '=', 'm.id').where('r.status', '=', ResponseStatus.pending);
}

function memberSearch(eb: Members, search: string) {
  return eb.or([contains('m.full_name', search), contains('m.email', search), contains('m.phone_number', search)]);
}

export class TeamsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The survey of the organization with its name, for a mail sent after a change (no caller to scope by). */
  surveyOfOrganization(surveyId: string, organizationId: string) {
    return this.db.selectFrom('surveys as v').innerJoin('organizations as o', 'o.id', 'v.organization_id')
      .select(['v.id', 'v.title', 'v.organization_id', 'o.name as organization_name']).where('v.id', '=', surveyId).where('v.organization_id', '=', organizationId).executeTakeFirst();
  }

  /** The survey when it is in the office user's scope, with its organization's name. */
  surveyOfOffice(surveyId: string, actor: OfficeActor) {
    return this.db.selectFrom('surveys as v').innerJoin('organizations as o', 'o.id', 'v.organization_id')
      .select(['v.id', 'v.title', 'v.organization_id', 'o.name as organization_name']).where('v.id', '=', surveyId).where(inOffice(actor, 'v.organization_id', 'v.id')).executeTakeFirst();
  }

  findInvitation(surveyId: string, email: string) {
    return this.db.selectFrom('members').select(['id', 'role', 'withdrawn_at']).where('survey_id', '=', surveyId).where('email', '=', email).executeTakeFirst();
  }

  async insertMember(row: NewMember): Promise<void> {
    await this.db.insertInto('members').values(row).execute();
  }

  findMember(surveyId: string, memberId: string) {
    return this.db.selectFrom('members').select(['id', 'role', 'email', 'supervisor_id']).where('survey_id', '=', surveyId).where('id', '=', memberId).where('withdrawn_at', 'is', null).executeTakeFirst();
  }

  /** Active or withdrawn: withdrawing twice answers the same. */
  anyMember(surveyId: string, memberId: string) {
    return this.db.selectFrom('members').select(['id', 'role', 'email', 'withdrawn_at']).where('survey_id', '=', surveyId).where('id', '=', memberId).executeTakeFirst();
  }

  /**
   * Marks the row withdrawn in one transaction. The assignments it breaks (the field user's own, or
   * a supervisor's field users') are set aside in `dormant_supervisor_id`, not dropped: reads see no
   * supervisor, and the re-invitation puts them back (restoreDormantAssignments).
   */
  async withdraw(surveyId: string, memberId: string, now: number, alsoInTransaction?: InTransaction): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await alsoInTransaction?.(trx);
      await new TeamsRepository(trx).withdrawInTransaction(surveyId, memberId, now);
    });
  }

  /** The withdrawal's two updates, for a caller that holds the transaction. */
  async withdrawInTransaction(surveyId: string, memberId: string, now: number): Promise<void> {
    await this.db.updateTable('members').set((eb) => ({ withdrawn_at: now, dormant_supervisor_id: eb.fn.coalesce('supervisor_id', 'dormant_supervisor_id'), supervisor_id: null }))
      .where('survey_id', '=', surveyId).where('id', '=', memberId).where('withdrawn_at', 'is', null).execute();
    await this.db.updateTable('members').set((eb) => ({ dormant_supervisor_id: eb.ref('supervisor_id'), supervisor_id: null }))
      .where('survey_id', '=', surveyId).where('supervisor_id', '=', memberId).execute();
  }

  /** A re-invitation of a withdrawn e-mail revives its row, so earlier responses keep one owner. */
  async reinstate(memberId: string, row: Pick<NewMember, 'role' | 'user_id' | 'full_name' | 'phone_number' | 'bank' | 'account_number' | 'account_name' | 'rate' | 'created_at'>): Promise<void> {
    const { role, user_id, full_name, phone_number, bank, account_number, account_name, rate, created_at } = row;
    await this.db.updateTable('members').set({ role, user_id, full_name, phone_number, bank, account_number, account_name, rate, created_at, withdrawn_at: null, deactivated_at: null }).where('id', '=', memberId).execute();
  }

  /**
   * Every set-aside assignment of the survey whose field user and supervisor are both active again
   * becomes the assignment: after a field user's re-invitation (their supervisor still active) or a
   * supervisor's (their field users still unassigned). One statement covers both.
   */
  async restoreDormantAssignments(surveyId: string): Promise<void> {
    await this.db.updateTable('members').set((eb) => ({ supervisor_id: eb.ref('dormant_supervisor_id'), dormant_supervisor_id: null }))
      .where('survey_id', '=', surveyId).where('role', '=', Role.fieldUser).where('withdrawn_at', 'is', null).where('supervisor_id', 'is', null)
      .where('dormant_supervisor_id', 'in', (eb) => eb.selectFrom('members as s').select('s.id').where('s.survey_id', '=', surveyId).where('s.role', '=', Role.supervisor).where('s.withdrawn_at', 'is', null))
      .execute();
  }

  /** The organization's choice replaces any assignment a withdrawal set aside. */
  async setSupervisor(fieldUserId: string, supervisorId: string, alsoInTransaction?: InTransaction): Promise<void> {
    if (alsoInTransaction) return this.db.transaction().execute(async (trx) => {
      await alsoInTransaction(trx);
      await new TeamsRepository(trx).setSupervisor(fieldUserId, supervisorId);
    });
    await this.db.updateTable('members').set({ supervisor_id: supervisorId, dormant_supervisor_id: null }).where('id', '=', fieldUserId).execute();
  }

  /** The caller's supervisor rows on a survey (by account, or by e-mail before the row was linked). */
  async supervisorRows(surveyId: string, userId: string, email: string): Promise<string[]> {
    const rows = await this.db.selectFrom('members').select('id')
      .where('survey_id', '=', surveyId).where('role', '=', Role.supervisor).where('withdrawn_at', 'is', null)
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('email', '=', email)]))
      .execute();
    return rows.map((r) => r.id);
  }

  /** The name on the supervisor's latest invitation, else the account's. */
  async supervisorName(userId: string, email: string): Promise<string | null> {
    const member = await this.db.selectFrom('members').select('full_name')
      .where('role', '=', Role.supervisor)
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('email', '=', email)]))
      .orderBy('created_at', 'desc').executeTakeFirst();
    if (member?.full_name) return member.full_name;
    const user = await this.db.selectFrom('users').select('full_name').where('id', '=', userId).executeTakeFirst();
    return user?.full_name ?? null;
  }

  private fieldUsersOf(scope: FieldUserScope) {
    let q = this.db.selectFrom('members as m').where('m.survey_id', '=', scope.surveyId).where('m.role', '=', Role.fieldUser).where('m.withdrawn_at', 'is', null);
    if (scope.supervisorIds) q = q.where('m.supervisor_id', 'in', scope.supervisorIds.length ? scope.supervisorIds : ['']);
    if (scope.search) q = q.where((eb) => memberSearch(eb, scope.search));
    return q;
  }

  private fieldUserRows(q: ReturnType<TeamsRepository['fieldUsersOf']>) {
    return q
      .leftJoin('members as s', 's.id', 'm.supervisor_id')
      .select(['m.id', 'm.user_id', 'm.full_name', 'm.phone_number', 'm.email', 'm.bank', 'm.account_number', 'm.account_name', 'm.rate', 'm.supervisor_id', 's.full_name as supervisor_name'])
      .select((eb) => [
        eb.selectFrom('responses as r').select((r) => r.fn.countAll<number>().as('n')).whereRef('r.member_id', '=', 'm.id').as('responses'),
        outstandingOf(eb).as('outstanding'),
        awaitingReviewOf(eb).as('awaiting_review'),
      ]);
  }

  /** Newest invitation first; totalDue covers every field user the scope and search match, not just the page. */
  async listFieldUsers(scope: FieldUserScope, page: Page) {
    const q = this.fieldUsersOf(scope);
    const [rows, total, due, paid] = await Promise.all([
      this.fieldUserRows(q).orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      q.innerJoin('responses as r', 'r.member_id', 'm.id').where('r.status', '=', ResponseStatus.approved).where('r.paid_at', 'is', null)
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('r.rate'), zero).as('n')).executeTakeFirstOrThrow(),
      q.innerJoin('payout_lines as l', 'l.member_id', 'm.id').innerJoin('payouts as p', 'p.id', 'l.payout_id').where('p.status', '=', PayoutStatus.paid)
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('l.amount'), zero).as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n), totalDue: Number(due.n) - Number(paid.n) };
  }

  /** The threshold of the survey's organization: a supervisor's page follows the organization's setting. */
  async staleSyncDays(surveyId: string): Promise<number> {
    const row = await this.db.selectFrom('surveys as v').innerJoin('organizations as o', 'o.id', 'v.organization_id').select('o.stale_sync_days').where('v.id', '=', surveyId).executeTakeFirstOrThrow();
    return Number(row.stale_sync_days);
  }

  /** What the phones of these accounts last reported, for one page of field users. */
  deviceReports(userIds: string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('device_status').select(['user_id', 'app_version', 'waiting', 'failed', 'photos_waiting', 'last_sync_at', 'reported_at']).where('user_id', 'in', userIds).execute();
  }

  fieldUser(surveyId: string, memberId: string) {
    return this.fieldUserRows(this.fieldUsersOf({ surveyId, search: '' }).where('m.id', '=', memberId)).executeTakeFirst();
  }

  /**
   * Supervisors of a survey, newest first, each with how many field users are assigned to them and
   * what those field users are still owed (the "Svp. (outstanding)" column).
   */
  async listSupervisors(surveyId: string, page: Page, search: string) {
    let q = this.db.selectFrom('members as m').where('m.survey_id', '=', surveyId).where('m.role', '=', Role.supervisor).where('m.withdrawn_at', 'is', null);
    if (search) q = q.where((eb) => memberSearch(eb, search));
    const [rows, total] = await Promise.all([
      q.select(['m.id', 'm.full_name', 'm.phone_number', 'm.email', 'm.bank', 'm.account_number', 'm.account_name'])
        .select((eb) => [
          eb.selectFrom('members as f').select((f) => f.fn.countAll<number>().as('n')).whereRef('f.supervisor_id', '=', 'm.id').as('field_user_count'),
          sql<number>`(${eb.selectFrom('responses as r').innerJoin('members as f', 'f.id', 'r.member_id')
            .select((r) => r.fn.coalesce(r.fn.sum<number>('r.rate'), zero).as('n'))
            .whereRef('f.supervisor_id', '=', 'm.id').where('r.status', '=', ResponseStatus.approved).where('r.paid_at', 'is', null)}) - (${eb.selectFrom('payout_lines as l').innerJoin('payouts as p', 'p.id', 'l.payout_id').innerJoin('members as f', 'f.id', 'l.member_id')
            .select((l) => l.fn.coalesce(l.fn.sum<number>('l.amount'), zero).as('n'))
            .whereRef('f.supervisor_id', '=', 'm.id').where('p.status', '=', PayoutStatus.paid)})`.as('outstanding'),
          eb.selectFrom('responses as r').innerJoin('members as f', 'f.id', 'r.member_id')
            .select((r) => r.fn.coalesce(r.fn.sum<number>('r.rate'), zero).as('n'))
            .whereRef('f.supervisor_id', '=', 'm.id').where('r.status', '=', ResponseStatus.pending).as('awaiting_review'),
        ])
        .orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** Master admin: field users of every organization, newest first. */
  async listAllFieldUsers(page: Page, search: string) {
    let q = this.db.selectFrom('members as m')
      .innerJoin('surveys as sv', 'sv.id', 'm.survey_id')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .where('m.role', '=', Role.fieldUser);
    if (search) {
      q = q.where((eb) => eb.or([
        contains('m.full_name', search), contains('m.email', search), contains('m.phone_number', search),
        contains('o.name', search), contains('sv.title', search),
      ]));
    }
    const [rows, total] = await Promise.all([
      q.select(['m.id', 'm.full_name', 'm.email', 'm.phone_number', 'o.name as organization_name', 'sv.title as survey_title'])
        .select((eb) => [
          eb.selectFrom('responses as r').select((r) => r.fn.countAll<number>().as('n')).whereRef('r.member_id', '=', 'm.id').as('responses'),
          outstandingOf(eb).as('outstanding'),
        ])
        .orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }
}
