import { hash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Deps } from '../../plugins/deps.js';
import { ApiMsg, AuditAction, bankCodeOf, type CreatePayoutBody, type CreatePayoutReply, type HeldBucket, type PayoutHoldsReply, type Payout, type PayoutDetail, type PayoutListReply, PayoutMsg, PayoutStatus, Role, type SkippedFieldUser } from '@survey-bird/contracts';
import type { PayoutLinesTable, PayoutsTable } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { pageOf, pagingReply } from '../../http/paging.js';
import type { OfficeActor, SupervisorActor } from '../../plugins/auth.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import { bankProblem, nothingPayableMsg } from './bank-details.js';
import { payoutXlsx, responsesCsv } from './download.js';
import { bucketsOf, heldOf, holdRuleOf, type MemberHeld } from './holds.js';
import { NothingToPay, PayoutsRepository, type PayMember } from './repository.js';
import { mailWords } from '../mail/texts.js';
import { iso } from '../../lib/time.js';

const naira = (n: number) => `₦${n.toLocaleString('en-NG')}`;

/** Who may read payouts: an office user every line in their scope; a supervisor their field users' lines. */
type PayoutViewer = OfficeActor | SupervisorActor;

export class PayoutsService {
  private readonly repo: PayoutsRepository;

  constructor(private readonly deps: Pick<Deps, 'db' | 'log' | 'mailer'>) {
    this.repo = new PayoutsRepository(deps.db.kysely);
  }
  /** The second part of a bank file: every response the payout covers, streamed. */
  responsesCsv(payoutId: string): Readable {
    return responsesCsv(this.repo, payoutId);
  }

  xlsx(title: string, detail: PayoutDetail): Readable {
    return payoutXlsx(this.repo, title, detail);
  }


  async create(office: OfficeActor, body: CreatePayoutBody, actor: AuditActor): Promise<CreatePayoutReply> {
    const { organizationId } = office;
    const survey = await this.repo.surveyOfOffice(body.survey_id, office);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    const fieldUserIds = body.fieldUserIds ? [...new Set(body.fieldUserIds)] : undefined;
    // The rule is read once: the preview in the reply and the freeze take the same responses.
    const rule = await holdRuleOf(this.deps.db.kysely, survey.id);
    const [members, owed, heldRows] = await Promise.all([this.repo.members(survey.id, fieldUserIds), this.repo.owed(survey.id, rule), heldOf(this.deps.db.kysely, survey.id, rule, fieldUserIds)]);
    const held = bucketsOf(heldRows);
    if (fieldUserIds && members.length !== fieldUserIds.length) throw badRequest(PayoutMsg.notFieldUser);
    const owedBy = new Map(owed.map((o) => [o.member_id, o]));
    const skipped: SkippedFieldUser[] = [];
    const lacking: PayMember[] = [];
    const payable: PayMember[] = [];
    for (const m of members) {
      const o = owedBy.get(m.id);
      if (!o) continue;
      const problem = bankProblem(m);
      if (problem) {
        skipped.push({ fieldUserId: m.id, fullName: m.full_name, reason: problem, amount: o.amount });
        lacking.push(m);
      } else payable.push(m);
    }
    const requestHash = requestHashOf(survey.id, fieldUserIds);
    const existing = await this.repo.byKey(organizationId, body.key);
    if (existing) return this.repeated(existing, survey.id, requestHash, skipped, held);
    if (payable.length === 0) throw conflict(lacking.length ? nothingPayableMsg(lacking) : PayoutMsg.nothingToPay);
    const row: PayoutsTable = {
      id: randomUUID(), organization_id: organizationId, survey_id: survey.id, idempotency_key: body.key, request_hash: requestHash, status: PayoutStatus.draft,
      total: 0, response_count: 0, reference: null, created_by: office.userId, created_at: Date.now(), paid_by: null, paid_at: null, cancelled_at: null,
    };
    let created: PayoutsTable | undefined;
    try {
      created = await this.repo.create(row, payable, rule, (p, lines, trx) => recordAudit(trx, actor, {
        organizationId, action: AuditAction.createPayout, surveyId: survey.id, target: { type: 'payout', id: p.id },
        after: { status: p.status, total: Number(p.total), responses: Number(p.response_count), fieldUsers: lines.length, ...(held.length > 0 ? { held } : {}) },
      }));
    } catch (err) {
      // Another create took every response meanwhile: the database kept each in one payout only.
      if (err instanceof NothingToPay) throw conflict(PayoutMsg.nothingToPay);
      throw err;
    }
    if (!created) return this.repeated((await this.repo.byKey(organizationId, body.key))!, survey.id, requestHash, skipped, held);
    return { msg: PayoutMsg.created, payout: await this.detailOf(created), skipped, held };
  }

  /**
   * The same key again: with the same request, the payout it made, as it is now (a retry after a
   * lost reply); with another survey or other field users, 409, as responses answer a clientId
   * reused with another body. A payout made before requests were hashed (request_hash null) is
   * judged by its survey alone. A cancelled payout is never answered as "created".
   */
  private async repeated(existing: PayoutsTable, surveyId: string, requestHash: string, skipped: SkippedFieldUser[], held: HeldBucket[]): Promise<CreatePayoutReply> {
    if (existing.survey_id !== surveyId) throw conflict(PayoutMsg.keyReused);
    if (existing.request_hash !== null && existing.request_hash !== requestHash) throw conflict(PayoutMsg.keyReusedOtherFieldUsers);
    if (existing.status === PayoutStatus.cancelled) throw conflict(PayoutMsg.keyCancelled);
    return { msg: PayoutMsg.created, payout: await this.detailOf(existing), skipped, held };
  }

  /** What a payout of the survey would leave out now, per reason and per field user (the dialog shows it before creating). */
  async holds(office: OfficeActor, surveyId: string): Promise<PayoutHoldsReply> {
    const survey = await this.repo.surveyOfOffice(surveyId, office);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    const rows = await heldOf(this.deps.db.kysely, survey.id, await holdRuleOf(this.deps.db.kysely, survey.id));
    const byMember = new Map<string, MemberHeld[]>();
    for (const r of rows) byMember.set(r.memberId, [...(byMember.get(r.memberId) ?? []), r]);
    const members = byMember.size ? await this.repo.members(survey.id, [...byMember.keys()]) : [];
    const fieldUsers = members.map((m) => ({ fieldUserId: m.id, fullName: m.full_name, held: bucketsOf(byMember.get(m.id)!) })).sort((a, b) => a.fullName.localeCompare(b.fullName));
    return { held: bucketsOf(rows), fieldUsers };
  }

  async markPaid(office: OfficeActor, id: string, reference: string, actor: AuditActor): Promise<PayoutDetail> {
    const { organizationId } = office;
    const now = Date.now();
    const changed = await this.repo.markPaid(id, office, reference, now, (p, trx) => recordAudit(trx, actor, {
      organizationId, action: AuditAction.payoutPaid, surveyId: p.survey_id, target: { type: 'payout', id: p.id },
      before: { status: PayoutStatus.draft }, after: { status: PayoutStatus.paid, reference, total: Number(p.total) },
    }, now));
    const payout = await this.repo.find(id, office);
    if (!payout) throw notFound(PayoutMsg.payoutNotFound);
    if (payout.status === PayoutStatus.cancelled) throw conflict(PayoutMsg.cancelledNotPayable);
    const detail = await this.detailOf(payout);
    if (changed) await this.mailPaid(detail);
    return detail;
  }

  async cancel(office: OfficeActor, id: string, actor: AuditActor): Promise<PayoutDetail> {
    const { organizationId } = office;
    await this.repo.cancel(id, office, Date.now(), (p, trx) => recordAudit(trx, actor, {
      organizationId, action: AuditAction.cancelPayout, surveyId: p.survey_id, target: { type: 'payout', id: p.id },
      before: { status: PayoutStatus.draft }, after: { status: PayoutStatus.cancelled, total: Number(p.total) },
    }));
    const payout = await this.repo.find(id, office);
    if (!payout) throw notFound(PayoutMsg.payoutNotFound);
    if (payout.status === PayoutStatus.paid) throw conflict(PayoutMsg.paidNotCancellable);
    return this.detailOf(payout);
  }

  async list(actor: PayoutViewer, surveyId: string, page: number): Promise<PayoutListReply> {
    const p = pageOf(page);
    const memberIds = await this.scope(actor, surveyId);
    const { rows, total, totals } = await this.repo.list(surveyId, p, memberIds);
    const payouts = await Promise.all(rows.map(async (r) => summaryOf(r, await this.repo.lines(r.id, memberIds))));
    return { payouts, totals: { draft: totals.get(PayoutStatus.draft) ?? 0, paid: totals.get(PayoutStatus.paid) ?? 0 }, ...pagingReply(p, total) };
  }

  async detail(actor: PayoutViewer, id: string): Promise<PayoutDetail> {
    const payout = await this.repo.find(id, actor);
    if (!payout) throw notFound(PayoutMsg.payoutNotFound);
    const memberIds = await this.scope(actor, payout.survey_id).catch(() => {
      throw notFound(PayoutMsg.payoutNotFound);
    });
    const detail = await this.detailOf(payout, memberIds);
    if (memberIds && detail.lines.length === 0) throw notFound(PayoutMsg.payoutNotFound);
    return detail;
  }

  /** For the download: the organization's payout and its survey's title. */
  async forDownload(office: OfficeActor, id: string, format: string, actor: AuditActor) {
    const payout = await this.repo.find(id, office);
    if (!payout) throw notFound(PayoutMsg.payoutNotFound);
    // Its responses are released and may be in a newer payout: a file from it could pay them twice.
    if (payout.status === PayoutStatus.cancelled) throw conflict(PayoutMsg.cancelledNoDownload);
    await recordAudit(this.deps.db.kysely, actor, { organizationId: payout.organization_id, action: AuditAction.downloadPayout, surveyId: payout.survey_id, target: { type: 'payout', id: payout.id }, after: { format } });
    const [detail, survey] = await Promise.all([this.detailOf(payout), this.repo.surveyTitle(payout.survey_id)]);
    return { detail, title: survey?.title ?? '' };
  }

  /** undefined: every line (an office user, once the survey is in their scope); else the supervisor's field users. */
  private async scope(actor: PayoutViewer, surveyId: string): Promise<string[] | undefined> {
    if (actor.role === Role.organization) {
      if (!(await this.repo.surveyOfOffice(surveyId, actor))) throw notFound(ApiMsg.surveyNotFound);
      return undefined;
    }
    const supervisorIds = await this.repo.supervisorRows(surveyId, actor.userId);
    if (supervisorIds.length === 0) throw notFound(ApiMsg.surveyNotFound);
    return this.repo.fieldUsersOf(supervisorIds);
  }

  private async detailOf(payout: PayoutsTable, memberIds?: string[]): Promise<PayoutDetail> {
    const lines = await this.repo.lines(payout.id, memberIds);
    return { ...summaryOf(payout, lines), lines: lines.map((l) => lineOf(l, Number(payout.created_at))) };
  }

  private async mailPaid(detail: PayoutDetail): Promise<void> {
    // After the commit: the payment stands whatever the mail does, so a failure is logged, never answered.
    for (const line of detail.lines) {
      const account = await this.deps.db.kysely.selectFrom('users').select('language').where('email', '=', line.email).executeTakeFirst();
      const words = mailWords(account?.language);
      await this.deps.mailer.send({ to: line.email, subject: words.paidSubject, text: words.paidText(naira(line.amount), line.responseCount, detail.reference ?? '') }).catch((err: Error) => this.deps.log.error({ err: err.message, payoutId: detail._id }, 'paid mail failed'));
    }
  }
}

/** SHA-256 of what a create asks for: the survey and the chosen field users (a set; none chosen: all). */
function requestHashOf(surveyId: string, fieldUserIds: string[] | undefined): string {
  return hash('sha256', JSON.stringify({ survey_id: surveyId, fieldUserIds: fieldUserIds ? [...fieldUserIds].sort() : null }), 'hex');
}

/** A bank change this close before a payout is the classic payroll fraud: the line says so. */
export const RECENT_BANK_CHANGE_MS = 24 * 3_600_000;

function lineOf(l: PayoutLinesTable, createdAt: number) {
  const changedAt = l.bank_changed_at === null || l.bank_changed_at === undefined ? null : Number(l.bank_changed_at);
  const recent = changedAt !== null && createdAt - changedAt < RECENT_BANK_CHANGE_MS;
  return {
    fieldUserId: l.member_id, fullName: l.full_name, email: l.email, bank: l.bank, bankCode: bankCodeOf(l.bank),
    accountNumber: l.account_number, accountName: l.account_name, ...(recent ? { recentBankChange: iso(changedAt) } : {}), amount: Number(l.amount), responseCount: Number(l.response_count),
  };
}

/** A payout's summary from the lines the caller sees (all of them, or a supervisor's share). */
function summaryOf(p: PayoutsTable, lines: PayoutLinesTable[]): Payout {
  return {
    _id: p.id, survey_id: p.survey_id, status: p.status as Payout['status'],
    total: lines.reduce((n, l) => n + Number(l.amount), 0),
    responseCount: lines.reduce((n, l) => n + Number(l.response_count), 0),
    fieldUserCount: lines.length,
    reference: p.reference, createdAt: iso(p.created_at), paidAt: iso(p.paid_at), cancelledAt: iso(p.cancelled_at),
  };
}
