import { sql, type Kysely } from 'kysely';
import { Role } from '@survey-bird/contracts';
import type { Database, MemberRow } from '../../db/schema.js';
import type { Page } from '../../http/paging.js';
import { TeamsRepository } from './repository.js';

export type MemberChange = Partial<Pick<MemberRow, 'rate' | 'phone_number' | 'bank' | 'account_number' | 'account_name' | 'supervisor_id' | 'bank_changed_at'>>;

/** Edits of people already invited: one member row, a selection of a survey's field users, or a person across the organization. */
export class PeopleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** An active member of the organization's survey. */
  member(organizationId: string, surveyId: string, memberId: string): Promise<MemberRow | undefined> {
    return this.db.selectFrom('members').selectAll().where('organization_id', '=', organizationId).where('survey_id', '=', surveyId).where('id', '=', memberId).where('withdrawn_at', 'is', null).executeTakeFirst();
  }

  /** Active members of one survey among `ids`, with their role. */
  members(surveyId: string, ids: string[]) {
    return this.db.selectFrom('members').select(['id', 'role', 'email', 'supervisor_id']).where('survey_id', '=', surveyId).where('id', 'in', ids.length ? ids : ['']).where('withdrawn_at', 'is', null).execute();
  }

  async update(memberId: string, change: MemberChange): Promise<MemberRow> {
    const set = { ...change, ...(change.supervisor_id !== undefined ? { dormant_supervisor_id: null } : {}) };
    await this.db.updateTable('members').set(set).where('id', '=', memberId).execute();
    return this.db.selectFrom('members').selectAll().where('id', '=', memberId).executeTakeFirstOrThrow();
  }

  async setSupervisors(surveyId: string, fieldUserIds: string[], supervisorId: string): Promise<void> {
    await this.db.updateTable('members').set({ supervisor_id: supervisorId, dormant_supervisor_id: null })
      .where('survey_id', '=', surveyId).where('role', '=', Role.fieldUser).where('withdrawn_at', 'is', null).where('id', 'in', fieldUserIds).execute();
  }

  /** The person's active member rows in the organization (field user or supervisor). */
  activeRowsOf(organizationId: string, email: string) {
    return this.db.selectFrom('members').select(['id', 'survey_id', 'role', 'full_name']).where('organization_id', '=', organizationId).where('email', '=', email).where('withdrawn_at', 'is', null).execute();
  }

  deactivatedRowsOf(organizationId: string, email: string) {
    return this.db.selectFrom('members').select(['id', 'survey_id', 'role', 'full_name']).where('organization_id', '=', organizationId).where('email', '=', email).where('deactivated_at', 'is not', null).execute();
  }

  async markDeactivated(memberIds: string[], now: number): Promise<void> {
    await this.db.updateTable('members').set({ deactivated_at: now }).where('id', 'in', memberIds).execute();
  }

  /** Back on its survey; the row's set-aside supervisor comes back with TeamsRepository.restoreDormantAssignments. */
  async reinstate(memberIds: string[]): Promise<void> {
    await this.db.updateTable('members').set({ withdrawn_at: null, deactivated_at: null }).where('id', 'in', memberIds).execute();
  }

  /** One line per deactivated person (e-mail), newest deactivation first. */
  async deactivated(organizationId: string, page: Page) {
    const q = this.db.selectFrom('members').where('organization_id', '=', organizationId).where('deactivated_at', 'is not', null);
    const [rows, total] = await Promise.all([
      q.select(['email', (eb) => eb.fn.max('full_name').as('full_name'), (eb) => eb.fn.max('role').as('role'), (eb) => eb.fn.max('deactivated_at').as('deactivated_at'), (eb) => eb.fn.countAll<number>().as('surveys')])
        .groupBy('email').orderBy(sql`max(deactivated_at)`, 'desc').orderBy('email').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.count<number>('email').distinct().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** TeamsRepository's withdrawal (dormant supervisors kept), in this repository's transaction. */
  withdraw(surveyId: string, memberId: string, now: number): Promise<void> {
    return new TeamsRepository(this.db).withdrawInTransaction(surveyId, memberId, now);
  }

  restoreDormantAssignments(surveyId: string): Promise<void> {
    return new TeamsRepository(this.db).restoreDormantAssignments(surveyId);
  }
}
