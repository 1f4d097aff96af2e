import type { Deps } from '../../plugins/deps.js';
import type { MailQueue } from '../mail/mail-queue.js';
import type { z } from 'zod';
import { ApiMsg, BulkRowStatus, type CopyTeamBody, type CopyTeamReply, type CopyTeamRow, InviteSupervisorBody, type InviteToSurveysBody, Limits, Role, type SurveyInviteResult } from '@survey-bird/contracts';
import { HttpError, badRequest } from '../../http/errors.js';
import type { OfficeActor } from '../../plugins/auth.js';
import type { AuditActor } from '../audit/record.js';
import { BULK_COMMIT_MS } from './bulk.js';
import type { TeamsService } from './service.js';
import { TeamCopyRepository } from './team-copy-repository.js';

type MemberRole = typeof Role.fieldUser | typeof Role.supervisor;
type Invitation = Parameters<TeamsService['invitation']>;

/**
 * Invitations made many at a time, each as one invitation (its own transaction, audit event and
 * queued mail, TeamsService.invitation): one person to several surveys, or a survey's team to
 * another survey. A person already on the target survey is `existing` and never invited twice, so
 * a copy run again invites only who is new.
 */
export class TeamCopy {
  constructor(private readonly deps: Pick<Deps, 'db'>, private readonly teams: TeamsService, private readonly mailQueue: MailQueue) {}

  async inviteToSurveys(office: OfficeActor, body: z.output<typeof InviteToSurveysBody>, actor: AuditActor): Promise<{ results: SurveyInviteResult[]; invited: number }> {
    const role: MemberRole = body.role === Role.supervisor ? Role.supervisor : Role.fieldUser;
    const ids = [...new Set(body.surveyIds)];
    const { role: _role, surveyIds: _ids, ...person } = body;
    if (role === Role.supervisor) {
      // A supervisor's account number and name are required (the invitation form's own rule).
      const checked = InviteSupervisorBody.safeParse({ ...person, survey_id: ids[0] });
      if (!checked.success) throw badRequest(checked.error.issues[0]!.message);
    }
    // Every survey in the caller's reach, or a 404 before anyone is invited (as one survey's invitation).
    const surveys = [];
    for (const id of ids) surveys.push(await this.teams.ownSurvey(id, office));
    const results: SurveyInviteResult[] = [];
    let invited = 0;
    for (const survey of surveys) {
      const outcome = await this.inviteOne(survey, role, person, role === Role.fieldUser ? person.rate : 0, actor, null);
      if (outcome.status === BulkRowStatus.new) invited++;
      results.push({ survey_id: survey.id, surveyTitle: survey.title, ...outcome });
    }
    if (invited) this.mailQueue.kick();
    return { results, invited };
  }

  async copyTeam(office: OfficeActor, body: z.output<typeof CopyTeamBody>, actor: AuditActor, now = Date.now): Promise<Omit<CopyTeamReply, 'msg'>> {
    if (body.fromSurveyId === body.toSurveyId) throw badRequest(ApiMsg.copyToSameSurvey);
    const from = await this.teams.ownSurvey(body.fromSurveyId, office);
    const to = await this.teams.ownSurvey(body.toSurveyId, office);
    const repo = new TeamCopyRepository(this.deps.db.kysely);
    const team = await repo.activeTeam(from.id, Limits.maxCopyTeam + 1);
    if (team.length > Limits.maxCopyTeam) throw badRequest(ApiMsg.copyTeamTooLarge);
    const { members, accounts } = await repo.known(to.id, team.map((m) => m.email));
    const memberRoles: string[] = [Role.fieldUser, Role.supervisor];
    const rows: (CopyTeamRow & { source: (typeof team)[number] })[] = team.map((m) => {
      const known = members.get(m.email);
      const account = accounts.get(m.email);
      const row = { role: m.role, email: m.email, fullName: m.full_name, status: BulkRowStatus.new as CopyTeamRow['status'], msg: '', source: m };
      if ((known && known.role !== m.role) || (account && account !== m.role && memberRoles.includes(account))) Object.assign(row, { status: BulkRowStatus.error, msg: ApiMsg.emailHasOtherRole });
      else if (known && known.withdrawn_at === null) row.status = BulkRowStatus.existing;
      return row;
    });
    const plain = () => rows.map(({ source: _s, ...r }) => r);
    if (body.dryRun) return { rows: plain(), dryRun: true, invited: 0 };

    // Supervisors first (activeTeam's order), so each field user can be given theirs on the target.
    const sourceEmails = new Map(team.filter((m) => m.role === Role.supervisor).map((m) => [m.id, m.email]));
    let targetSupervisors: Map<string, string> | null = null;
    const deadline = now() + BULK_COMMIT_MS;
    let invited = 0;
    for (const row of rows) {
      if (row.status !== BulkRowStatus.new) continue;
      if (now() > deadline) {
        Object.assign(row, { status: BulkRowStatus.error, msg: ApiMsg.bulkTimedOut });
        continue;
      }
      const m = row.source;
      let supervisorId: string | null = null;
      if (m.role === Role.fieldUser && m.supervisor_id) {
        targetSupervisors ??= await repo.supervisorIds(to.id);
        supervisorId = targetSupervisors.get(sourceEmails.get(m.supervisor_id) ?? '') ?? null;
      }
      const person = { email: m.email, fullName: m.full_name, phoneNumber: m.phone_number, bank: m.bank, accountNumber: m.account_number, accountName: m.account_name };
      const outcome = await this.inviteOne(to, m.role as MemberRole, person, m.role === Role.fieldUser ? Number(m.rate) : 0, actor, supervisorId);
      Object.assign(row, outcome);
      if (outcome.status === BulkRowStatus.new) invited++;
    }
    if (invited) this.mailQueue.kick();
    return { rows: plain(), dryRun: false, invited };
  }

  /** One invitation with its mail queued: `new`, or `existing` / `error` from its 409. */
  private async inviteOne(survey: Invitation[0], role: MemberRole, person: Invitation[2], rate: number, actor: AuditActor, supervisorId: string | null): Promise<{ status: CopyTeamRow['status']; msg: string }> {
    try {
      await this.teams.invitation(survey, role, person, rate, actor, supervisorId, true);
      return { status: BulkRowStatus.new, msg: '' };
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode !== 409) throw err;
      return err.message === ApiMsg.alreadyInvited ? { status: BulkRowStatus.existing, msg: err.message } : { status: BulkRowStatus.error, msg: err.message };
    }
  }
}
