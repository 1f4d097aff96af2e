import { randomUUID } from 'node:crypto';
import type { Deps } from '../../plugins/deps.js';
import type { BackchecksService } from '../backchecks/service.js';
import type { z } from 'zod';
import { ApiMsg, AuditAction, type FieldUser, type FieldUserAcrossRow, type InviteFieldUserBody, type InviteSupervisorBody, Role, type Supervisor } from '@survey-bird/contracts';
import type { MemberRow } from '../../db/schema.js';
import { toDeviceSummary, type DeviceReportRow } from '../devices/index.js';
import type { FlagsService } from '../flags/service.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { Page } from '../../http/paging.js';
import { isUniqueViolation } from '../../db/errors.js';
import { claimAccount, mailInvitation, type InvitedRole } from './invitations.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { TeamsRepository } from './repository.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import { queueInvitation } from './team-mails.js';

type FieldUserInvite = z.output<typeof InviteFieldUserBody>;
type SupervisorInvite = z.output<typeof InviteSupervisorBody>;
/** What an invitation records of a person, from the form or a row of a file. */
export type InvitationFields = Pick<FieldUserInvite, 'email' | 'fullName' | 'phoneNumber' | 'bank' | 'accountNumber' | 'accountName'>;
type FieldUserRecord = NonNullable<Awaited<ReturnType<TeamsRepository['fieldUser']>>>;
type SupervisorRecord = Awaited<ReturnType<TeamsRepository['listSupervisors']>>['rows'][number];

export class TeamsService {
  private readonly repo: TeamsRepository;

  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'mailer'>, private readonly flags: FlagsService, private readonly backchecks: BackchecksService) {
    this.repo = new TeamsRepository(deps.db.kysely);
  }

  /** The survey when it is in the office user's scope, or 404 (another organization's id is simply not found). */
  async ownSurvey(surveyId: string, actor: OfficeActor) {
    const survey = await this.repo.surveyOfOffice(surveyId, actor);
    if (!survey) throw notFound();
    return survey;
  }

  async inviteFieldUser(office: OfficeActor, body: FieldUserInvite, actor: AuditActor): Promise<FieldUser> {
    const member = await this.invite(office, Role.fieldUser, body, body.rate, actor);
    if (body.backchecker) await this.backchecks.addBackchecker(member.id, member.survey_id);
    // A re-invited row comes back with its responses and its set-aside supervisor: read it back.
    const row = await this.repo.fieldUser(member.survey_id, member.id);
    return toFieldUser(row ?? { ...member, responses: 0, outstanding: 0, awaiting_review: 0, supervisor_name: null });
  }

  async inviteSupervisor(office: OfficeActor, body: SupervisorInvite, actor: AuditActor): Promise<Supervisor> {
    const member = await this.invite(office, Role.supervisor, body, 0, actor);
    return toSupervisor({ ...member, field_user_count: 0, outstanding: 0, awaiting_review: 0 });
  }

  /**
   * One member row per e-mail and survey. An e-mail that already has an account of this role (or
   * of role nothing, then upgraded) is linked at once and gets a sign-in link; otherwise a
   * registration link, and registration links the row later.
   */
  private async invite(office: OfficeActor, role: InvitedRole, body: FieldUserInvite | SupervisorInvite, rate: number, actor: AuditActor) {
    const survey = await this.ownSurvey(body.survey_id, office);
    const row = await this.invitation(survey, role, body, rate, actor);
    await mailInvitation(this.deps, { email: body.email, role, hasAccount: row.user_id !== null, organization: survey.organization_name, survey: survey.title });
    return row;
  }

  /**
   * The invitation's rows and audit event in one transaction: for one person (invite, which mails
   * before its reply) or each row of a file, a copied team or several surveys (`queueMail`: the mail
   * joins the durable queue in the same transaction, so no invitation commits without its mail).
   * 409 when the e-mail is already on the survey or holds another role.
   */
  async invitation(survey: { id: string; organization_id: string; organization_name: string; title: string }, role: InvitedRole, body: InvitationFields, rate: number, actor: AuditActor, supervisorId: string | null = null, queueMail = false): Promise<MemberRow> {
    const organizationId = survey.organization_id;
    const earlier = await this.repo.findInvitation(survey.id, body.email);
    if (earlier && earlier.withdrawn_at === null) throw conflict(ApiMsg.alreadyInvited);
    // The row keeps its responses, so a withdrawn field user cannot come back as a supervisor of the same survey.
    if (earlier && earlier.role !== role) throw conflict(ApiMsg.emailHasOtherRole);
    const row: MemberRow = {
      id: randomUUID(),
      survey_id: survey.id,
      organization_id: survey.organization_id,
      role,
      email: body.email,
      user_id: null,
      full_name: body.fullName,
      phone_number: body.phoneNumber,
      bank: body.bank,
      account_number: body.accountNumber,
      account_name: body.accountName,
      rate,
      supervisor_id: supervisorId,
      created_at: Date.now(),
      withdrawn_at: null,
      dormant_supervisor_id: null,
      bank_changed_at: null,
      deactivated_at: null,
    };
    if (earlier) row.id = earlier.id;
    try {
      row.user_id = await this.deps.db.kysely.transaction().execute(async (trx) => {
        const userId = await claimAccount(trx, body.email, role, survey.organization_id);
        const repo = new TeamsRepository(trx);
        if (earlier) {
          await repo.reinstate(earlier.id, { ...row, user_id: userId });
          await repo.restoreDormantAssignments(survey.id);
          if (supervisorId) await repo.setSupervisor(earlier.id, supervisorId);
        } else await repo.insertMember({ ...row, user_id: userId });
        await recordAudit(trx, actor, {
          organizationId, action: AuditAction.inviteMember, surveyId: survey.id, target: { type: role, id: row.id, label: body.email },
          after: { fullName: row.full_name, phoneNumber: row.phone_number, rate, bank: row.bank, accountNumber: row.account_number, accountName: row.account_name, ...(supervisorId ? { supervisorId } : {}) },
        });
        if (queueMail) await queueInvitation(trx, { email: body.email, role, hasAccount: userId !== null, organization: survey.organization_name, survey: survey.title });
        return userId;
      });
    } catch (err) {
      // A concurrent invitation of the same e-mail to this survey won the unique constraint.
      if (isUniqueViolation(err)) throw conflict(ApiMsg.alreadyInvited);
      throw err;
    }
    return row;
  }

  async listFieldUsers(surveyId: string, actor: OfficeActor, page: Page, search: string) {
    await this.ownSurvey(surveyId, actor);
    const [{ rows, total, totalDue }, staleSyncDays] = await Promise.all([this.repo.listFieldUsers({ surveyId, search }, page), this.repo.staleSyncDays(surveyId)]);
    return { fieldUsers: await this.withDevices(surveyId, rows), total, totalDue, staleSyncDays };
  }

  /** Each field user with what their phones last reported and their open quality flags on this survey. */
  private async withDevices(surveyId: string, rows: (FieldUserFields & { user_id: string | null })[]): Promise<FieldUser[]> {
    const [reports, flags] = await Promise.all([
      this.repo.deviceReports([...new Set(rows.flatMap((r) => (r.user_id ? [r.user_id] : [])))]),
      this.flags.flagsPerMember(surveyId, rows.map((r) => r.id)),
    ]);
    const byUser = new Map<string, DeviceReportRow[]>();
    for (const d of reports) byUser.set(d.user_id, [...(byUser.get(d.user_id) ?? []), d]);
    return rows.map((r) => ({ ...toFieldUser(r), device: toDeviceSummary((r.user_id && byUser.get(r.user_id)) || []), flags: flags.get(r.id) ?? 0 }));
  }

  /** Only the field users assigned to the calling supervisor; 404 when they are not on the survey. */
  async supervisorFieldUsers(surveyId: string, userId: string, email: string, page: Page, search: string) {
    const supervisorIds = await this.repo.supervisorRows(surveyId, userId, email);
    if (supervisorIds.length === 0) throw notFound();
    const [{ rows, total, totalDue }, staleSyncDays] = await Promise.all([this.repo.listFieldUsers({ surveyId, supervisorIds, search }, page), this.repo.staleSyncDays(surveyId)]);
    return { fieldUsers: await this.withDevices(surveyId, rows), total, totalDue, staleSyncDays };
  }

  async listSupervisors(surveyId: string, actor: OfficeActor, page: Page, search: string) {
    await this.ownSurvey(surveyId, actor);
    const { rows, total } = await this.repo.listSupervisors(surveyId, page, search);
    return { supervisors: rows.map(toSupervisor), total };
  }

  /** Sets (or replaces) the supervisor of a field user; both must be members of the caller's survey. */
  async assign(office: OfficeActor, body: { supervisorId: string; fieldUserId: string; survey_id: string }, actor: AuditActor): Promise<FieldUser> {
    const survey = await this.ownSurvey(body.survey_id, office);
    const { organizationId } = office;
    const [fieldUser, supervisor] = await Promise.all([this.repo.findMember(survey.id, body.fieldUserId), this.repo.findMember(survey.id, body.supervisorId)]);
    if (!fieldUser || !supervisor) throw notFound();
    if (fieldUser.role !== Role.fieldUser) throw badRequest('fieldUserId is not a field user of this survey');
    if (supervisor.role !== Role.supervisor) throw badRequest('supervisorId is not a supervisor of this survey');
    await this.repo.setSupervisor(fieldUser.id, supervisor.id, (trx) => recordAudit(trx, actor, {
      organizationId, action: AuditAction.assignSupervisor, surveyId: survey.id, target: { type: Role.fieldUser, id: fieldUser.id, label: fieldUser.email },
      before: { supervisorId: fieldUser.supervisor_id }, after: { supervisorId: supervisor.id },
    }));
    const row = await this.repo.fieldUser(survey.id, fieldUser.id);
    if (!row) throw notFound();
    return toFieldUser(row);
  }

  /**
   * The Access delete icon: the member loses the survey at once (list, responses, insight) while
   * their responses, money owed and payouts stay. Idempotent. A supervisor's field users are
   * unassigned until the supervisor is invited again; a field user's supervisor comes back with
   * the field user's re-invitation (TeamsRepository.withdraw).
   */
  async withdraw(office: OfficeActor, surveyId: string, memberId: string, actor: AuditActor): Promise<void> {
    const survey = await this.ownSurvey(surveyId, office);
    const { organizationId } = office;
    const member = await this.repo.anyMember(survey.id, memberId);
    if (!member) throw notFound();
    if (member.withdrawn_at === null) {
      await this.repo.withdraw(survey.id, member.id, Date.now(), (trx) => recordAudit(trx, actor, {
        organizationId, action: AuditAction.withdrawMember, surveyId: survey.id, target: { type: member.role, id: member.id, label: member.email },
      }));
    }
  }

  /** The master admin's field users across organizations. */
  async allFieldUsers(page: Page, search: string): Promise<{ fieldUsers: FieldUserAcrossRow[]; total: number }> {
    const { rows, total } = await this.repo.listAllFieldUsers(page, search);
    return { fieldUsers: rows.map(toFieldUserAcross), total };
  }

  async supervisorName(userId: string, email: string): Promise<string> {
    return (await this.repo.supervisorName(userId, email)) ?? email;
  }
}

type FieldUserFields = Omit<FieldUserRecord, 'responses' | 'outstanding' | 'awaiting_review'> & { responses: unknown; outstanding: unknown; awaiting_review: unknown };

export function toFieldUser(r: FieldUserFields): FieldUser {
  return {
    _id: r.id,
    fullName: r.full_name,
    phoneNumber: r.phone_number,
    email: r.email,
    bank: r.bank,
    accountNumber: r.account_number,
    accountName: r.account_name,
    rate: Number(r.rate),
    responses: Number(r.responses ?? 0),
    outstanding: Number(r.outstanding ?? 0),
    awaitingReview: Number(r.awaiting_review ?? 0),
    supervisorId: r.supervisor_id,
    supervisorName: r.supervisor_name,
  };
}

interface FieldUserAcrossFields {
  id: string;
  full_name: string;
  email: string;
  phone_number: string;
  organization_name: string;
  survey_title: string;
  responses: unknown;
  outstanding: unknown;
}

export function toFieldUserAcross(r: FieldUserAcrossFields): FieldUserAcrossRow {
  return {
    _id: r.id,
    fullName: r.full_name,
    email: r.email,
    phoneNumber: r.phone_number,
    organization_name: r.organization_name,
    surveyTitle: r.survey_title,
    responses: Number(r.responses ?? 0),
    outstanding: Number(r.outstanding ?? 0),
  };
}

type SupervisorFields = Omit<SupervisorRecord, 'field_user_count' | 'outstanding' | 'awaiting_review'> & { field_user_count: unknown; outstanding: unknown; awaiting_review: unknown };

export function toSupervisor(r: SupervisorFields): Supervisor {
  return {
    _id: r.id,
    fullName: r.full_name,
    phoneNumber: r.phone_number,
    email: r.email,
    bank: r.bank,
    accountNumber: r.account_number,
    accountName: r.account_name,
    fieldUserCount: Number(r.field_user_count ?? 0),
    outstanding: Number(r.outstanding ?? 0),
    awaitingReview: Number(r.awaiting_review ?? 0),
  };
}
