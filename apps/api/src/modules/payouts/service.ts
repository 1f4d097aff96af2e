import { hash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiMsg, bankCodeOf, type CreatePayoutBody, type CreatePayoutReply, type Payout, type PayoutDetail, type PayoutListReply, PayoutMsg, PayoutStatus, Role, type SkippedFieldUser } from '@survey-bird/contracts';
import type { PayoutLinesTable, PayoutsTable } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { pageOf, pagingReply } from '../../http/paging.js';
import type { AuthContext } from '../../plugins/auth.js';
import { bankProblem, nothingPayableMsg } from './bank-details.js';
import { payoutXlsx, responsesCsv } from './download.js';
import { NothingToPay, PayoutsRepository, type PayMember } from './repository.js';


const naira = (n: number) => `₦${n.toLocaleString('en-NG')}`;
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** What a caller may see of payouts: an organization all of its own; a supervisor their field users' lines. */
interface Viewer {
  organizationId: string | null;
  /** Supervisor: the field users whose lines they see, per survey asked about. */
  supervisorUserId: string | null;
}

export class PayoutsService {
  private readonly repo: PayoutsRepository;

  constructor(private readonly app: FastifyInstance) {
    this.repo = new PayoutsRepository(app.db.kysely);
  }
  /** The second part of a bank file: every response the payout covers, streamed. */
  responsesCsv(payoutId: string): Readable {
    return responsesCsv(this.repo, payoutId);
  }

  xlsx(title: string, detail: PayoutDetail): Readable {
    return payoutXlsx(this.repo, title, detail);
  }


  async create(auth: AuthContext, body: CreatePayoutBody): Promise<CreatePayoutReply> {
    const organizationId = auth.organizationId ?? '';
    const survey = await this.repo.surveyOfOrganization(body.survey_id, organizationId);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    const fieldUserIds = body.fieldUserIds ? [...new Set(body.fieldUserIds)] : undefined;
    const [members, owed] = await Promise.all([this.repo.members(survey.id, fieldUserIds), this.repo.owed(survey.id)]);
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
    if (existing) return this.repeated(existing, survey.id, requestHash, skipped);
    if (payable.length === 0) throw conflict(lacking.length ? nothingPayableMsg(lacking) : PayoutMsg.nothingToPay);
    const row: PayoutsTable = {
      id: randomUUID(), organization_id: organizationId, survey_id: survey.id, idempotency_key: body.key, request_hash: requestHash, status: PayoutStatus.draft,
      total: 0, response_count: 0, reference: null, created_by: auth.user.id, created_at: Date.now(), paid_by: null, paid_at: null, cancelled_at: null,
    };
    let created: PayoutsTable | undefined;
    try {
      created = await this.repo.create(row, payable);
    } catch (err) {
      // Another create took every response meanwhile: the database kept each in one payout only.
      if (err instanceof NothingToPay) throw conflict(PayoutMsg.nothingToPay);
      throw err;
    }
    if (!created) return this.repeated((await this.repo.byKey(organizationId, body.key))!, survey.id, requestHash, skipped);
    return { msg: PayoutMsg.created, payout: await this.detailOf(created), skipped };
  }

  /**
   * The same key again: with the same request, the payout it made, as it is now (a retry after a
   * lost reply); with another survey or other field users, 409, as responses answer a clientId
   * reused with another body. A payout made before requests were hashed (request_hash null) is
   * judged by its survey alone. A cancelled payout is never answered as "created".
   */
  private async repeated(existing: PayoutsTable, surveyId: string, requestHash: string, skipped: SkippedFieldUser[]): Promise<CreatePayoutReply> {
    if (existing.survey_id !== surveyId) throw conflict(PayoutMsg.keyReused);
    if (existing.request_hash !== null && existing.request_hash !== requestHash) throw conflict(PayoutMsg.keyReusedOtherFieldUsers);
    if (existing.status === PayoutStatus.cancelled) throw conflict(PayoutMsg.keyCancelled);
    return { msg: PayoutMsg.created, payout: await this.detailOf(existing), skipped };
  }

  async markPaid(auth: AuthContext, id: string, reference: string): Promise<PayoutDetail> {
    const organizationId = auth.organizationId ?? '';
    const now = Date.now();
    const changed = await this.repo.markPaid(id, organizationId, reference, auth.user.id, now);
    const payout = await this.repo.find(id, organizationId);
    if (!payout) throw notFound(PayoutMsg.payoutNotFound);
    if (payout.status === PayoutStatus.cancelled) throw conflict(PayoutMsg.cancelledNotPayable);
    const detail = await this.detailOf(payout);
    if (changed) await this.mailPaid(detail);
    return detail;
  }

  async cancel(auth: AuthContext, id: string): Promise<PayoutDetail> {
    const organizationId = auth.organizationId ?? '';
    await this.repo.cancel(id, organizationId, Date.now());
    const payout = await this.repo.find(id, organizationId);
    if (!payout) throw notFound(PayoutMsg.payoutNotFound);
    if (payout.status === PayoutStatus.paid) throw conflict(PayoutMsg.paidNotCancellable);
    return this.detailOf(payout);
  }

  async list(auth: AuthContext, surveyId: string, page: number): Promise<PayoutListReply> {
    const p = pageOf(page);
    const memberIds = await this.scope(this.viewer(auth), surveyId);
    const { rows, total, totals } = await this.repo.list(surveyId, p, memberIds);
    const payouts = await Promise.all(rows.map(async (r) => summaryOf(r, await this.repo.lines(r.id, memberIds))));
    return { payouts, totals: { draft: totals.get(PayoutStatus.draft) ?? 0, paid: totals.get(PayoutStatus.paid) ?? 0 }, ...pagingReply(p, total) };
  }

  async detail(auth: AuthContext, id: string): Promise<PayoutDetail> {
    const viewer = this.viewer(auth);
    const payout = await this.repo.find(id, viewer.organizationId);
    if (!payout) throw notFound(PayoutMsg.payoutNotFound);
    const memberIds = await this.scope(viewer, payout.survey_id).catch(() => {
      throw notFound(PayoutMsg.payoutNotFound);
    });
    const detail = await this.detailOf(payout, memberIds);
    if (memberIds && detail.lines.length === 0) throw notFound(PayoutMsg.payoutNotFound);
    return detail;
  }

  /** For the download: the organization's payout and its survey's title. */
  async forDownload(auth: AuthContext, id: string) {
    const payout = await this.repo.find(id, auth.organizationId ?? '');
    if (!payout) throw notFound(PayoutMsg.payoutNotFound);
    // Its responses are released and may be in a newer payout: a file from it could pay them twice.
    if (payout.status === PayoutStatus.cancelled) throw conflict(PayoutMsg.cancelledNoDownload);
    const [detail, survey] = await Promise.all([this.detailOf(payout), this.repo.surveyTitle(payout.survey_id)]);
    return { detail, title: survey?.title ?? '' };
  }

  private viewer(auth: AuthContext): Viewer {
    return auth.user.role === Role.organization ? { organizationId: auth.organizationId ?? '', supervisorUserId: null } : { organizationId: null, supervisorUserId: auth.user.id };
  }

  /** undefined: every line (the organization, once its survey is checked); else the supervisor's field users. */
  private async scope(viewer: Viewer, surveyId: string): Promise<string[] | undefined> {
    if (viewer.organizationId !== null) {
      if (!(await this.repo.surveyOfOrganization(surveyId, viewer.organizationId))) throw notFound(ApiMsg.surveyNotFound);
      return undefined;
    }
    const supervisorIds = await this.repo.supervisorRows(surveyId, viewer.supervisorUserId ?? '');
    if (supervisorIds.length === 0) throw notFound(ApiMsg.surveyNotFound);
    return this.repo.fieldUsersOf(supervisorIds);
  }

  private async detailOf(payout: PayoutsTable, memberIds?: string[]): Promise<PayoutDetail> {
    const lines = await this.repo.lines(payout.id, memberIds);
    return { ...summaryOf(payout, lines), lines: lines.map(lineOf) };
  }

  private async mailPaid(detail: PayoutDetail): Promise<void> {
    // After the commit: the payment stands whatever the mail does, so a failure is logged, never answered.
    for (const line of detail.lines) {
      const n = line.responseCount;
      const text = `You have been paid ${naira(line.amount)} for ${n} ${n === 1 ? 'response' : 'responses'}. Transfer reference: ${detail.reference ?? ''}`;
      await this.app.mailer.send({ to: line.email, subject: 'Survey Bird: you have been paid', text }).catch((err: Error) => this.app.log.error({ err: err.message, payoutId: detail._id }, 'paid mail failed'));
    }
  }
}

/** SHA-256 of what a create asks for: the survey and the chosen field users (a set; none chosen: all). */
function requestHashOf(surveyId: string, fieldUserIds: string[] | undefined): string {
  return hash('sha256', JSON.stringify({ survey_id: surveyId, fieldUserIds: fieldUserIds ? [...fieldUserIds].sort() : null }), 'hex');
}

function lineOf(l: PayoutLinesTable) {
  return {
    fieldUserId: l.member_id, fullName: l.full_name, email: l.email, bank: l.bank, bankCode: bankCodeOf(l.bank),
    accountNumber: l.account_number, accountName: l.account_name, amount: Number(l.amount), responseCount: Number(l.response_count),
  };
}

/** A payout's summary from the lines the caller sees (all of them, or a supervisor's share). */
function summaryOf(p: PayoutsTable, lines: PayoutLinesTable[]): Payout {
  return {
    _id: p.id, survey_id: p.survey_id, status: p.status as Payout['status'],
    total: lines.reduce((n, l) => n + Number(l.amount), 0),
    responseCount: lines.reduce((n, l) => n + Number(l.response_count), 0),
    fieldUserCount: lines.length,
    reference: p.reference, createdAt: iso(p.created_at)!, paidAt: iso(p.paid_at), cancelledAt: iso(p.cancelled_at),
  };
}
