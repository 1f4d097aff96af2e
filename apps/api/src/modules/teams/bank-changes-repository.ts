import type { Kysely } from 'kysely';
import { BankChangeStatus, Role } from '@survey-bird/contracts';
import type { BankChangeRequestsTable, Database } from '../../db/schema.js';
import type { Page } from '../../http/paging.js';

export class BankChangesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The caller's active field-user rows with their survey, organization and pending request. */
  async mine(userId: string, page: Page) {
    const q = this.db.selectFrom('members as m').where('m.user_id', '=', userId).where('m.role', '=', Role.fieldUser).where('m.withdrawn_at', 'is', null);
    const [rows, total] = await Promise.all([
      q.innerJoin('surveys as s', 's.id', 'm.survey_id').innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .leftJoin('bank_change_requests as r', (j) => j.onRef('r.member_id', '=', 'm.id').on('r.status', '=', BankChangeStatus.pending))
        .select(['m.id', 'm.survey_id', 's.title', 'o.name as organization_name', 'm.bank', 'm.account_number', 'm.account_name',
          'r.bank as r_bank', 'r.account_number as r_account_number', 'r.account_name as r_account_name', 'r.created_at as r_created_at'])
        .orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** The caller's own active field-user row on a survey. */
  ownMember(userId: string, surveyId: string) {
    return this.db.selectFrom('members').select(['id', 'organization_id', 'survey_id', 'email']).where('user_id', '=', userId).where('survey_id', '=', surveyId).where('role', '=', Role.fieldUser).where('withdrawn_at', 'is', null).executeTakeFirst();
  }

  /** A new pending request; one still pending for the member is marked replaced first. */
  async request(row: BankChangeRequestsTable): Promise<void> {
    await this.db.updateTable('bank_change_requests').set({ status: BankChangeStatus.replaced, decided_at: row.created_at }).where('member_id', '=', row.member_id).where('status', '=', BankChangeStatus.pending).execute();
    await this.db.insertInto('bank_change_requests').values(row).execute();
  }

  async pending(organizationId: string, page: Page) {
    const q = this.db.selectFrom('bank_change_requests as r').where('r.organization_id', '=', organizationId).where('r.status', '=', BankChangeStatus.pending);
    const [rows, total] = await Promise.all([
      q.innerJoin('members as m', 'm.id', 'r.member_id').innerJoin('surveys as s', 's.id', 'r.survey_id')
        .select(['r.id', 'r.survey_id', 's.title', 'r.member_id', 'm.full_name', 'm.email', 'm.bank', 'm.account_number', 'm.account_name',
          'r.bank as r_bank', 'r.account_number as r_account_number', 'r.account_name as r_account_name', 'r.created_at'])
        .orderBy('r.created_at').orderBy('r.id').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** The members' approved or rejected requests, newest decision first per member. */
  lastDecisions(memberIds: string[]) {
    if (memberIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('bank_change_requests').select(['member_id', 'status', 'reason', 'decided_at', 'bank', 'account_number'])
      .where('member_id', 'in', memberIds).where('status', 'in', [BankChangeStatus.approved, BankChangeStatus.rejected])
      .orderBy('member_id').orderBy('decided_at', 'desc').orderBy('id', 'desc').execute();
  }

  findPending(id: string, organizationId: string) {
    return this.db.selectFrom('bank_change_requests').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).where('status', '=', BankChangeStatus.pending).executeTakeFirst();
  }

  /** Decides a pending request of the organization; undefined when there is none (another id, or decided already). */
  decide(id: string, organizationId: string, status: BankChangeStatus, userId: string | null, now: number, reason: string | null = null) {
    return this.db.updateTable('bank_change_requests').set({ status, decided_at: now, decided_by: userId, reason })
      .where('id', '=', id).where('organization_id', '=', organizationId).where('status', '=', BankChangeStatus.pending).returningAll().executeTakeFirst();
  }
}
