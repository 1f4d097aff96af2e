import type { OfficeActor } from '../../plugins/auth.js';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../plugins/deps.js';
import type { MailQueue } from '../mail/mail-queue.js';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { ApiMsg, AuditAction, type BankChangeBody, type BankChangeRow, BankChangeStatus, type BankDecision, type MyBankRow } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Page } from '../../http/paging.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import { BankChangesRepository } from './bank-changes-repository.js';
import { maskAccount, type PeopleService } from './people.js';
import { TeamsRepository } from './repository.js';
import { memberPlace, queueBankRejected } from './team-mails.js';
import { iso } from '../../lib/time.js';

type Request = z.output<typeof BankChangeBody>;

/**
 * A field user sees their own bank details masked (the last 4 digits) and asks for a change; the
 * office approves it, which makes the change as an office edit (PeopleService.update: audited,
 * mailed, stamped for the payout warning), or rejects it.
 */
export class BankChanges {
  private readonly repo: BankChangesRepository;

  constructor(private readonly deps: Pick<Deps, 'db'>, private readonly people: PeopleService, private readonly mailQueue: MailQueue) {
    this.repo = new BankChangesRepository(deps.db.kysely);
  }

  async mine(userId: string, page: Page): Promise<{ banks: MyBankRow[]; total: number }> {
    const { rows, total } = await this.repo.mine(userId, page);
    const decisions = new Map<string, BankDecision>();
    for (const d of await this.repo.lastDecisions(rows.map((r) => r.id))) {
      if (decisions.has(d.member_id)) continue;
      decisions.set(d.member_id, { status: d.status as BankDecision['status'], reason: d.reason ?? '', decidedAt: iso(d.decided_at ?? 0), bank: d.bank, accountNumber: maskAccount(d.account_number) });
    }
    return {
      banks: rows.map((r) => ({
        survey_id: r.survey_id, surveyTitle: r.title, organizationName: r.organization_name,
        current: { bank: r.bank, accountNumber: maskAccount(r.account_number), accountName: r.account_name },
        pending: r.r_created_at === null ? null : { bank: r.r_bank ?? '', accountNumber: maskAccount(r.r_account_number ?? ''), accountName: r.r_account_name ?? '', requestedAt: iso(r.r_created_at) },
        lastDecision: decisions.get(r.id) ?? null,
      })),
      total,
    };
  }

  async request(userId: string, body: Request, actor: AuditActor): Promise<void> {
    const member = await this.repo.ownMember(userId, body.survey_id);
    if (!member) throw notFound(ApiMsg.surveyNotFound);
    const now = Date.now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const id = randomUUID();
      await new BankChangesRepository(trx).request({ id, organization_id: member.organization_id, survey_id: member.survey_id, member_id: member.id, bank: body.bank, account_number: body.accountNumber, account_name: body.accountName, status: BankChangeStatus.pending, created_at: now, decided_at: null, decided_by: null });
      await recordAudit(trx, actor, { organizationId: member.organization_id, action: AuditAction.requestBankChange, surveyId: member.survey_id, target: { type: 'bank_change', id, label: member.email }, after: { bank: body.bank, accountNumber: body.accountNumber, accountName: body.accountName } }, now);
    });
  }

  async pending(organizationId: string, page: Page): Promise<{ requests: BankChangeRow[]; total: number }> {
    const { rows, total } = await this.repo.pending(organizationId, page);
    return {
      requests: rows.map((r) => ({
        _id: r.id, survey_id: r.survey_id, surveyTitle: r.title, memberId: r.member_id, fullName: r.full_name, email: r.email,
        current: { bank: r.bank, accountNumber: r.account_number, accountName: r.account_name },
        requested: { bank: r.r_bank, accountNumber: r.r_account_number, accountName: r.r_account_name },
        requestedAt: iso(r.created_at),
      })),
      total,
    };
  }

  /**
   * One transaction, on both engines: the new details with their audit events and queued mail
   * (PeopleService.update), then the request marked approved with its own event. A request decided
   * meanwhile (another approval, a rejection) finds no pending row: 404 and nothing of the change
   * stays. A withdrawn member is a 404 and the request stays pending.
   */
  async approve(office: OfficeActor, id: string, actor: AuditActor): Promise<void> {
    const { organizationId } = office;
    const request = await this.repo.findPending(id, organizationId);
    if (!request) throw notFound(ApiMsg.bankChangeNotFound);
    await this.people.update(office, request.survey_id, request.member_id, { bank: request.bank, accountNumber: request.account_number, accountName: request.account_name }, actor,
      (trx) => this.decideIn(trx, organizationId, id, BankChangeStatus.approved, actor, null).then(() => undefined));
  }

  /** The reason (may be empty) is kept for the field user's screen and mailed to them. */
  async reject(office: OfficeActor, id: string, reason: string, actor: AuditActor): Promise<void> {
    const { organizationId } = office;
    const request = await this.repo.findPending(id, organizationId);
    if (!request) throw notFound(ApiMsg.bankChangeNotFound);
    const survey = await new TeamsRepository(this.deps.db.kysely).surveyOfOffice(request.survey_id, office);
    if (!survey) throw notFound(ApiMsg.bankChangeNotFound);
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const decided = await this.decideIn(trx, organizationId, id, BankChangeStatus.rejected, actor, reason);
      const member = await trx.selectFrom('members').select('email').where('id', '=', decided.member_id).executeTakeFirst();
      if (member) await queueBankRejected(trx, { email: member.email, where: memberPlace(survey), reason });
    });
    this.mailQueue.kick();
  }

  private async decideIn(trx: Kysely<Database>, organizationId: string, id: string, status: typeof BankChangeStatus.approved | typeof BankChangeStatus.rejected, actor: AuditActor, reason: string | null) {
    const now = Date.now();
    const decided = await new BankChangesRepository(trx).decide(id, organizationId, status, actor.userId ?? null, now, reason);
    if (!decided) throw notFound(ApiMsg.bankChangeNotFound);
    await recordAudit(trx, actor, {
      organizationId, action: status === BankChangeStatus.approved ? AuditAction.approveBankChange : AuditAction.rejectBankChange, surveyId: decided.survey_id,
      target: { type: 'bank_change', id: decided.id }, before: { status: BankChangeStatus.pending }, after: { status, ...(reason ? { reason } : {}) },
    }, now);
    return decided;
  }
}
