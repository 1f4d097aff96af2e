import type { Deps } from '../../plugins/deps.js';
import type { MailQueue } from '../mail/mail-queue.js';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { ApiMsg, AuditAction, type BulkAssignBody, type DeactivatedPerson, type Member, OfficeMsg, OfficeRole, Role, type UpdateMemberBody } from '@survey-bird/contracts';
import type { Database, MemberRow } from '../../db/schema.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { OfficeActor } from '../../plugins/auth.js';
import type { Page } from '../../http/paging.js';
import { changedFields, recordAudit, recordAudits, type AuditActor, type AuditEvent } from '../audit/record.js';
import { PeopleRepository, type MemberChange } from './people-repository.js';
import { TeamsRepository } from './repository.js';
import { memberPlace, queueBankChanged } from './team-mails.js';

type MemberEdit = z.output<typeof UpdateMemberBody>;
const BANK_FIELDS = ['bank', 'accountNumber', 'accountName'] as const;

/** The last four digits only: what a mail or a field user's own screen shows of an account number. */
export const maskAccount = (n: string) => (n.length <= 4 ? n : `${'•'.repeat(n.length - 4)}${n.slice(-4)}`);

/**
 * Editing people already invited. A rate is read by ingest when a response arrives (the response
 * keeps it), so a new rate applies to responses received from then on. A bank change stamps
 * `bank_changed_at` (payouts made within 24 h warn on that line; a payout's lines keep the details
 * frozen at its creation) and mails the person.
 */
export class PeopleService {
  private readonly repo: PeopleRepository;

  constructor(private readonly deps: Pick<Deps, 'db'>, private readonly mailQueue: MailQueue) {
    this.repo = new PeopleRepository(deps.db.kysely);
  }

  /**
   * `alongside` runs in the edit's own transaction (a bank change request is marked approved there:
   * the approval, the new details, their audit events and the mail to the person commit together or
   * not at all); it runs even when the edit changes nothing.
   */
  async update(office: OfficeActor, surveyId: string, memberId: string, body: MemberEdit, actor: AuditActor, alongside?: (trx: Kysely<Database>) => Promise<void>): Promise<Member> {
    // Finance may change bank details only (the route admits it for them).
    if (office.officeRole === OfficeRole.finance && (body.rate !== undefined || body.phoneNumber !== undefined || body.supervisorId !== undefined)) throw forbidden(OfficeMsg.financeBankOnly);
    const survey = await new TeamsRepository(this.deps.db.kysely).surveyOfOffice(surveyId, office);
    if (!survey) throw notFound();
    const { organizationId } = office;
    const member = await this.repo.member(organizationId, surveyId, memberId);
    if (!member) throw notFound();
    const isFieldUser = member.role === Role.fieldUser;
    if (body.rate !== undefined && !isFieldUser) throw badRequest(ApiMsg.supervisorHasNoRate);
    if (body.supervisorId !== undefined) {
      if (!isFieldUser) throw badRequest(ApiMsg.supervisorOfSupervisor);
      if (body.supervisorId !== null) {
        const [supervisor] = await this.repo.members(surveyId, [body.supervisorId]);
        if (supervisor?.role !== Role.supervisor) throw badRequest(ApiMsg.notSupervisorOfSurvey);
      }
    }
    const current = fieldsOf(member);
    const asked = { rate: body.rate, phoneNumber: body.phoneNumber, bank: body.bank, accountNumber: body.accountNumber, accountName: body.accountName, supervisorId: body.supervisorId };
    const pick = (keys: readonly (keyof typeof current)[]) => Object.fromEntries(keys.map((k) => [k, asked[k]])) as Partial<typeof current>;
    const kinds = [
      { action: AuditAction.changeRate, change: changedFields(current, pick(['rate'])) },
      { action: AuditAction.changeBank, change: changedFields(current, pick(BANK_FIELDS)) },
      { action: AuditAction.updateMember, change: changedFields(current, pick(['phoneNumber', 'supervisorId'])) },
    ];
    const now = Date.now();
    const bankChanged = kinds[1]!.change !== null;
    const events: AuditEvent[] = kinds.flatMap(({ action, change }) => (change ? [{ organizationId, action, surveyId, target: { type: member.role, id: member.id, label: member.email }, ...change }] : []));
    if (events.length === 0) {
      if (alongside) await this.deps.db.kysely.transaction().execute(alongside);
      return toMember(member);
    }
    const set: MemberChange = {
      ...(body.rate !== undefined ? { rate: body.rate } : {}),
      ...(body.phoneNumber !== undefined ? { phone_number: body.phoneNumber } : {}),
      ...(body.bank !== undefined ? { bank: body.bank } : {}),
      ...(body.accountNumber !== undefined ? { account_number: body.accountNumber } : {}),
      ...(body.accountName !== undefined ? { account_name: body.accountName } : {}),
      ...(body.supervisorId !== undefined ? { supervisor_id: body.supervisorId } : {}),
      ...(bankChanged ? { bank_changed_at: now } : {}),
    };
    const updated = await this.deps.db.kysely.transaction().execute(async (trx) => {
      const row = await new PeopleRepository(trx).update(member.id, set);
      await recordAudits(trx, actor, events, now);
      // The person is told through the durable queue, committed with the change.
      if (bankChanged) await queueBankChanged(trx, { email: row.email, where: memberPlace(survey), bank: row.bank, maskedAccount: maskAccount(row.account_number), accountName: row.account_name });
      await alongside?.(trx);
      return row;
    });
    if (bankChanged) this.mailQueue.kick();
    return toMember(updated);
  }

  /** Several field users of one survey to one supervisor; one audit event per field user whose supervisor changed. */
  async assignMany(office: OfficeActor, body: BulkAssignBody, actor: AuditActor): Promise<number> {
    const { organizationId } = office;
    const survey = await new TeamsRepository(this.deps.db.kysely).surveyOfOffice(body.survey_id, office);
    if (!survey) throw notFound();
    const ids = [...new Set(body.fieldUserIds)];
    const [supervisor] = await this.repo.members(survey.id, [body.supervisorId]);
    if (supervisor?.role !== Role.supervisor) throw badRequest(ApiMsg.notSupervisorOfSurvey);
    const fieldUsers = await this.repo.members(survey.id, ids);
    if (fieldUsers.length !== ids.length || fieldUsers.some((f) => f.role !== Role.fieldUser)) throw badRequest(ApiMsg.notFieldUsersOfSurvey);
    const moved = fieldUsers.filter((f) => f.supervisor_id !== supervisor.id);
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await new PeopleRepository(trx).setSupervisors(survey.id, ids, supervisor.id);
      await recordAudits(trx, actor, moved.map((f) => ({
        organizationId, action: AuditAction.assignSupervisor, surveyId: survey.id, target: { type: Role.fieldUser, id: f.id, label: f.email },
        before: { supervisorId: f.supervisor_id }, after: { supervisorId: supervisor.id },
      })));
    });
    return ids.length;
  }

  /** Withdraws every active member row of the person in the organization; their responses and money stay. */
  async deactivate(office: OfficeActor, email: string, actor: AuditActor): Promise<number> {
    // Across every survey of the organization: only an office user who sees them all.
    if (office.surveys !== 'all') throw forbidden(OfficeMsg.limitedCannot);
    const { organizationId } = office;
    const rows = await this.repo.activeRowsOf(organizationId, email);
    if (rows.length === 0) {
      if ((await this.repo.deactivatedRowsOf(organizationId, email)).length) return 0;
      throw notFound(ApiMsg.personNotFound);
    }
    const now = Date.now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repo = new PeopleRepository(trx);
      for (const r of rows) await repo.withdraw(r.survey_id, r.id, now);
      await repo.markDeactivated(rows.map((r) => r.id), now);
      await recordAudit(trx, actor, { organizationId, action: AuditAction.deactivatePerson, target: { type: 'person', id: rows[0]!.id, label: email }, before: { active: true }, after: { active: false, surveys: rows.length } }, now);
    });
    return rows.length;
  }

  /** Gives back exactly the rows a deactivation withdrew, with the supervisors it set aside. */
  async reactivate(office: OfficeActor, email: string, actor: AuditActor): Promise<number> {
    // Across every survey of the organization: only an office user who sees them all.
    if (office.surveys !== 'all') throw forbidden(OfficeMsg.limitedCannot);
    const { organizationId } = office;
    const rows = await this.repo.deactivatedRowsOf(organizationId, email);
    if (rows.length === 0) {
      if ((await this.repo.activeRowsOf(organizationId, email)).length) return 0;
      throw notFound(ApiMsg.personNotFound);
    }
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repo = new PeopleRepository(trx);
      await repo.reinstate(rows.map((r) => r.id));
      for (const surveyId of new Set(rows.map((r) => r.survey_id))) await repo.restoreDormantAssignments(surveyId);
      await recordAudit(trx, actor, { organizationId, action: AuditAction.reactivatePerson, target: { type: 'person', id: rows[0]!.id, label: email }, before: { active: false }, after: { active: true, surveys: rows.length } });
    });
    return rows.length;
  }

  async deactivated(organizationId: string, page: Page): Promise<{ people: DeactivatedPerson[]; total: number }> {
    const { rows, total } = await this.repo.deactivated(organizationId, page);
    return {
      people: rows.map((r) => ({ email: r.email, fullName: String(r.full_name ?? ''), role: String(r.role ?? ''), deactivatedAt: new Date(Number(r.deactivated_at)).toISOString(), surveys: Number(r.surveys) })),
      total,
    };
  }
}

/** A member's editable fields as the API names them, for the audit log's before and after. */
function fieldsOf(m: MemberRow) {
  return { rate: Number(m.rate), phoneNumber: m.phone_number, bank: m.bank, accountNumber: m.account_number, accountName: m.account_name, supervisorId: m.supervisor_id };
}

function toMember(m: MemberRow): Member {
  return {
    _id: m.id, survey_id: m.survey_id, role: m.role, fullName: m.full_name, email: m.email, phoneNumber: m.phone_number,
    bank: m.bank, accountNumber: m.account_number, accountName: m.account_name, rate: Number(m.rate), supervisorId: m.supervisor_id,
    bankChangedAt: m.bank_changed_at === null ? null : new Date(Number(m.bank_changed_at)).toISOString(),
  };
}
