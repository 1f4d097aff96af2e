import type { Deps } from '../../plugins/deps.js';
import type { MailQueue } from '../mail/mail-queue.js';
import type { z } from 'zod';
import { ApiMsg, type BulkInviteReply, type BulkRow, BulkRowStatus, FIELD_USER_BULK_COLUMNS, InviteFieldUserBody, InviteSupervisorBody, Msg, Role, SUPERVISOR_BULK_COLUMNS } from '@survey-bird/contracts';
import { HttpError, badRequest } from '../../http/errors.js';
import type { OfficeActor } from '../../plugins/auth.js';
import type { AuditActor } from '../audit/record.js';
import type { FileRow } from './bulk-file.js';
import type { TeamsService } from './service.js';

type MemberRole = typeof Role.fieldUser | typeof Role.supervisor;
type Field = 'fullName' | 'email' | 'phoneNumber' | 'bank' | 'accountNumber' | 'accountName' | 'rate' | 'supervisorEmail';

/** Each column by the words a heading may use (lower case, letters and digits only). */
const HEADINGS: Record<string, Field> = {
  fullname: 'fullName', name: 'fullName',
  email: 'email', emailaddress: 'email',
  phonenumber: 'phoneNumber', phone: 'phoneNumber', phoneno: 'phoneNumber',
  bank: 'bank', bankname: 'bank',
  accountnumber: 'accountNumber', accountno: 'accountNumber', nuban: 'accountNumber',
  accountname: 'accountName',
  rate: 'rate', ratenaira: 'rate', rateperresponse: 'rate',
  supervisoremail: 'supervisorEmail', supervisor: 'supervisorEmail',
};
const LABEL: Record<Field, string> = {
  fullName: 'Full name', email: 'Email', phoneNumber: 'Phone number', bank: 'Bank', accountNumber: 'Account number', accountName: 'Account name', rate: 'Rate', supervisorEmail: 'Supervisor email',
};
const REQUIRED: Record<MemberRole, Field[]> = {
  [Role.fieldUser]: ['fullName', 'email', 'phoneNumber'],
  [Role.supervisor]: ['fullName', 'email', 'phoneNumber', 'accountNumber', 'accountName'],
};
/** Ids per `in (...)`: far below both engines' bound-parameter limits. */
const CHUNK = 500;
/**
 * A commit stops inviting after this long and names the rows it left: the request must end well
 * before a proxy's timeout, and a file uploaded again skips everyone already invited.
 */
export const BULK_COMMIT_MS = 60_000;

type Parsed = z.output<typeof InviteFieldUserBody> & { supervisorId: string | null };
interface Line extends BulkRow {
  parsed?: Parsed;
}

/** The template's CSV: the headings and one example row. */
export function bulkTemplate(role: MemberRole): string {
  const heads = role === Role.fieldUser ? FIELD_USER_BULK_COLUMNS : SUPERVISOR_BULK_COLUMNS;
  const example = ['Ada Obi', 'ada@example.com', '08031234567', 'Zenith Bank', '0123456789', 'Ada Obi', '150', 'supervisor@example.com'].slice(0, heads.length);
  return `\ufeff${heads.join(',')}\r\n${example.join(',')}\r\n`;
}

/**
 * Invitations from a file: every row checked as the invitation form checks it, then (unless a
 * preview) each new row invited in its own transaction with its audit event and its queued mail
 * (sent after the reply by the mail queue). A person already on the survey is `existing` and never invited twice.
 */
export class BulkInvitations {
  constructor(private readonly deps: Pick<Deps, 'db'>, private readonly teams: TeamsService, private readonly mailQueue: MailQueue) {}

  async run(office: OfficeActor, role: MemberRole, surveyId: string | undefined, rows: FileRow[], dryRun: boolean, actor: AuditActor, now = Date.now): Promise<BulkInviteReply> {
    if (!surveyId) throw badRequest(Msg.noActiveSurvey);
    const survey = await this.teams.ownSurvey(surveyId, office);
    const [heading, ...people] = rows;
    if (!heading || people.length === 0) throw badRequest(ApiMsg.bulkEmpty);
    const columns = heading.cells.map((h) => HEADINGS[h.toLowerCase().replace(/[^a-z0-9]/g, '')]);
    const missing = REQUIRED[role].find((f) => !columns.includes(f));
    if (missing) throw badRequest(`${ApiMsg.bulkMissingColumn} "${LABEL[missing]}"`);

    const schema = role === Role.fieldUser ? InviteFieldUserBody : InviteSupervisorBody;
    const seen = new Map<string, number>();
    const lines: Line[] = people.map((p) => {
      const raw: Partial<Record<Field, string>> = {};
      columns.forEach((field, i) => {
        if (field && raw[field] === undefined) raw[field] = p.cells[i] ?? '';
      });
      const body = { survey_id: survey.id, fullName: raw.fullName, email: raw.email, phoneNumber: raw.phoneNumber, bank: raw.bank ?? '', accountNumber: raw.accountNumber ?? '', accountName: raw.accountName ?? '', ...(role === Role.fieldUser ? { rate: raw.rate || '0' } : {}) };
      const result = schema.safeParse(body);
      const line: Line = { row: p.number, status: BulkRowStatus.new, email: (raw.email ?? '').trim().toLowerCase(), fullName: (raw.fullName ?? '').trim(), errors: [] };
      if (!result.success) {
        for (const issue of result.error.issues) {
          const column = LABEL[String(issue.path[0]) as Field] ?? String(issue.path[0]);
          if (!line.errors.some((e) => e.column === column)) line.errors.push({ column, msg: issue.message });
        }
      } else {
        const data = result.data as z.output<typeof InviteFieldUserBody>;
        line.parsed = { ...data, rate: role === Role.fieldUser ? data.rate : 0, supervisorId: null };
        if (role === Role.fieldUser && raw.supervisorEmail) line.parsed.supervisorId = raw.supervisorEmail.trim().toLowerCase();
        const first = seen.get(line.email);
        if (first !== undefined) line.errors.push({ column: LABEL.email, msg: `${ApiMsg.bulkDuplicateRow} ${first}` });
        else seen.set(line.email, line.row);
      }
      return line;
    });

    await this.classify(survey.id, role, lines);
    if (dryRun) return { rows: lines.map(plain), dryRun: true, invited: 0 };

    const deadline = now() + BULK_COMMIT_MS;
    let invited = 0;
    for (const line of lines) {
      if (line.status !== BulkRowStatus.new || !line.parsed) continue;
      if (now() > deadline) {
        line.status = BulkRowStatus.error;
        line.errors.push({ column: LABEL.email, msg: ApiMsg.bulkTimedOut });
        continue;
      }
      try {
        await this.teams.invitation(survey, role, line.parsed, line.parsed.rate, actor, line.parsed.supervisorId, true);
        invited++;
      } catch (err) {
        if (!(err instanceof HttpError) || err.statusCode !== 409) throw err;
        if (err.message === ApiMsg.alreadyInvited) line.status = BulkRowStatus.existing;
        else {
          line.status = BulkRowStatus.error;
          line.errors.push({ column: LABEL.email, msg: err.message });
        }
      }
    }
    // Each row's mail was queued in its own transaction; they leave after the reply, never blocking it.
    if (invited) this.mailQueue.kick();
    return { rows: lines.map(plain), dryRun: false, invited };
  }

  /** Marks rows already on the survey, e-mails of another role, and unknown supervisors; resolves supervisor e-mails to ids. */
  private async classify(surveyId: string, role: MemberRole, lines: Line[]): Promise<void> {
    const db = this.deps.db.kysely;
    const valid = lines.filter((l) => l.parsed && l.errors.length === 0);
    const emails = valid.map((l) => l.email);
    const supervisorEmails = [...new Set(valid.flatMap((l) => (l.parsed?.supervisorId ? [l.parsed.supervisorId] : [])))];
    const members = new Map<string, { role: string; withdrawn_at: number | null }>();
    const accounts = new Map<string, string>();
    const supervisors = new Map<string, string>();
    for (let i = 0; i < emails.length; i += CHUNK) {
      const part = emails.slice(i, i + CHUNK);
      for (const m of await db.selectFrom('members').select(['email', 'role', 'withdrawn_at']).where('survey_id', '=', surveyId).where('email', 'in', part).execute()) members.set(m.email, m);
      for (const u of await db.selectFrom('users').select(['email', 'role']).where('email', 'in', part).execute()) accounts.set(u.email, u.role);
    }
    for (let i = 0; i < supervisorEmails.length; i += CHUNK) {
      const rows = await db.selectFrom('members').select(['id', 'email']).where('survey_id', '=', surveyId).where('role', '=', Role.supervisor).where('withdrawn_at', 'is', null)
        .where('email', 'in', supervisorEmails.slice(i, i + CHUNK)).execute();
      for (const s of rows) supervisors.set(s.email, s.id);
    }
    const memberRoles: string[] = [Role.fieldUser, Role.supervisor];
    for (const line of lines) {
      if (!line.parsed || line.errors.length) continue;
      const member = members.get(line.email);
      const account = accounts.get(line.email);
      if ((member && member.role !== role) || (account && account !== role && memberRoles.includes(account))) line.errors.push({ column: LABEL.email, msg: ApiMsg.emailHasOtherRole });
      else if (member && member.withdrawn_at === null) line.status = BulkRowStatus.existing;
      if (line.parsed.supervisorId) {
        const id = supervisors.get(line.parsed.supervisorId);
        if (id) line.parsed.supervisorId = id;
        else line.errors.push({ column: LABEL.supervisorEmail, msg: ApiMsg.bulkNoSupervisor });
      }
    }
    for (const line of lines) if (line.errors.length) line.status = BulkRowStatus.error;
  }
}

function plain({ row, status, email, fullName, errors }: Line): BulkRow {
  return { row, status, email, fullName, errors };
}
