import { PassThrough, type Readable } from 'node:stream';
import type { Deps } from '../../plugins/deps.js';
import type { Kysely } from 'kysely';
import { AuditAction, IMAGE_PATH, UPLOAD_QUESTION_TYPES, isRepeatAnswer, QuestionType, RETENTION_WARNING_DAYS, withoutPersonal, withQuestionIds, type Answer, type EraseReply, type MyDataReply, type RespondentsReply, type ResponseStatus, type StoredQuestion } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import { HttpError, notFound } from '../../http/errors.js';
import { likePattern, pageOf, pagingReply } from '../../http/paging.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { recordAudit, SYSTEM, type AuditActor } from '../audit/record.js';
import type { FileStores } from '../files/store/index.js';
import type { StoreKind } from '../files/store/file-store.js';
import { plainText } from '../../lib/spreadsheet.js';
import { searchTextOf } from '../responses/search-text.js';
import { personalKeys } from './personal-keys.js';
import { PrivacyRepository, type ErasableResponse } from './repository.js';
import { iso } from '../../lib/time.js';

const DAY_MS = 86_400_000;
/** The retention pass runs daily: a survey's deletion lands within a day of its due date. */
export const RETENTION_EVERY_MS = DAY_MS;
/** Responses one retention pass erases per batch (each is its own transaction). */
const RETENTION_BATCH = 200;
const FILE_ID = new RegExp(`${IMAGE_PATH.replace(/\//g, '\\/')}([\\w.-]+)`, 'g');

export const PrivacyMsg = {
  erased: 'Personal data erased',
  responseNotFound: 'Response not found',
  storeUnavailable: 'The file store did not answer: nothing was erased. Try again.',
} as const;

/**
 * Personal data: erasure of one response's personal answers, photos and files (by an owner or
 * admin, or by a survey's retention), the respondent search and subject-access exports.
 */
export class PrivacyService {
  private readonly repo: PrivacyRepository;

  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'log' | 'mailer'>, private readonly stores: FileStores) {
    this.repo = new PrivacyRepository(deps.db.kysely);
  }

  async erase(office: OfficeActor, responseId: string, reason: string, actor: AuditActor): Promise<EraseReply> {
    const row = await this.repo.findForOffice(office, responseId);
    if (!row) throw notFound(PrivacyMsg.responseNotFound);
    return this.eraseRow(row, actor, AuditAction.eraseResponse, reason);
  }

  /**
   * Erases one response: the files' bytes go from their store first (a store that fails stops the
   * erasure before anything else changes, and a retry finds the same rows), then one transaction
   * rewrites the answers, revisions and derived copies and records the audit event.
   */
  private async eraseRow(row: ErasableResponse, actor: AuditActor, action: AuditAction, reason: string, now = Date.now()): Promise<EraseReply> {
    const versions = await this.repo.versions(row.survey_id);
    const keys = personalKeys({ versions, current: row.survey_questions });
    const questions = (versions.length > 0 ? versions.map((v) => v.questions) : [row.survey_questions]).flatMap((json) => withQuestionIds(JSON.parse(json) as StoredQuestion[]));
    const unsearched = new Set(questions.filter((q) => UPLOAD_QUESTION_TYPES.includes(q.type) || q.type === QuestionType.files).map((q) => q.text));
    const locations = new Set(questions.filter((q) => q.type === QuestionType.liveLocation).map((q) => q.text));

    const answers = JSON.parse(row.answers) as Record<string, Answer>;
    const stripped = withoutPersonal(answers, keys);
    const storedRevisions = await this.repo.revisions(row.id);
    const revisions = storedRevisions.map((r) => ({ revision: Number(r.revision), parsed: JSON.parse(r.answers) as Record<string, Answer> }));
    const fileIds = new Set<string>();
    for (const a of [answers, ...revisions.map((r) => r.parsed)]) for (const text of personalTexts(a, keys)) for (const m of text.matchAll(FILE_ID)) fileIds.add(m[1]!);
    const files = await this.repo.files(row.survey_id, [...fileIds], [row.client_id, ...storedRevisions.map((r) => r.client_id)], [...keys]);
    try {
      for (const f of files) await this.stores.get(f.store as StoreKind).remove(f);
    } catch (err) {
      this.deps.log.error({ err: (err as Error).message, responseId: row.id }, 'erasure: a file store failed');
      throw new HttpError(503, PrivacyMsg.storeUnavailable);
    }

    const erasedQuestions = [...new Set([...stripped.removed, ...revisions.flatMap((r) => withoutPersonal(r.parsed, keys).removed)])];
    const meta = row.meta === null ? null : JSON.stringify(withoutKeys(JSON.parse(row.meta) as Record<string, unknown>, 'photoHashes', keys));
    const pending = row.pending_photos === null ? null : without(JSON.parse(row.pending_photos) as Record<string, unknown>, keys);
    await this.repo.erase(
      {
        id: row.id,
        answers: JSON.stringify(stripped.answers),
        searchText: searchTextOf(row.full_name, row.email, stripped.answers, unsearched),
        meta,
        pendingPhotos: pending && Object.keys(pending).length > 0 ? JSON.stringify(pending) : null,
        revisions: revisions.map((r) => ({ revision: r.revision, answers: JSON.stringify(withoutPersonal(r.parsed, keys).answers) })),
        personalKeys: [...keys],
        dropPosition: [...locations].some((text) => keys.has(text)),
        fileIds: files.map((f) => f.id),
      },
      now,
      (trx: Kysely<Database>) => recordAudit(trx, actor, {
        organizationId: row.organization_id, action, surveyId: row.survey_id, target: { type: 'response', id: row.id, label: row.survey_title },
        before: { questions: erasedQuestions, files: files.length }, after: { reason },
      }, now),
    );
    this.deps.log.info({ responseId: row.id, questions: erasedQuestions.length, files: files.length, action }, 'personal data erased');
    return { msg: PrivacyMsg.erased, erasedQuestions, erasedFiles: files.length, erasedAt: new Date(now).toISOString() };
  }

  /** Responses whose answers hold the name or phone number searched (a local 0... number also finds its +234 form). */
  async respondents(office: OfficeActor, search: string, pageNumber: number): Promise<RespondentsReply> {
    const page = pageOf(pageNumber);
    const terms = searchTerms(search);
    const { rows, total } = await this.repo.search(office, terms.map(likePattern), page);
    return {
      responses: rows.map((r) => ({
        _id: r.id,
        survey_id: r.survey_id,
        surveyTitle: r.survey_title,
        fieldUser: r.full_name,
        createdAt: new Date(Number(r.created_at)).toISOString(),
        status: r.status as ResponseStatus,
        paid: r.paid_at !== null,
        matched: matchedAnswers(JSON.parse(r.answers) as Record<string, Answer>, terms),
        erasedAt: r.erased_at === null || r.erased_at === undefined ? null : new Date(Number(r.erased_at)).toISOString(),
      })),
      ...pagingReply(page, total),
    };
  }

  /** Every response matching the search, every answer, one row per answer, as xlsx (the export is audited). */
  async respondentXlsx(office: OfficeActor, search: string, actor: AuditActor): Promise<Readable> {
    const terms = searchTerms(search);
    const { rows } = await this.repo.search(office, terms.map(likePattern), null);
    await recordAudit(this.deps.db.kysely, actor, { organizationId: office.organizationId, action: AuditAction.exportRespondent, after: { search, responses: rows.length } });
    const out = new PassThrough();
    void (async () => {
      const { default: ExcelJS } = await import('exceljs');
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
      const sheet = book.addWorksheet('Respondent');
      sheet.columns = ['Survey', 'Response id', 'Received at', 'Field user', 'Status', 'Personal data erased at', 'Question', 'Answer'].map((header, i) => ({ header, width: [28, 38, 20, 24, 12, 20, 36, 48][i], ...(i === 2 || i === 5 ? { style: { numFmt: 'dd/mm/yyyy hh:mm:ss' } } : {}) }));
      for (const r of rows) {
        const lead = [plainText(r.survey_title), r.id, new Date(Number(r.created_at)), plainText(r.full_name), r.status, r.erased_at === null || r.erased_at === undefined ? '' : new Date(Number(r.erased_at))];
        const entries = flatAnswers(JSON.parse(r.answers) as Record<string, Answer>);
        if (entries.length === 0) sheet.addRow([...lead, '', '']).commit();
        for (const [question, answer] of entries) sheet.addRow([...lead, plainText(question), plainText(answer)]).commit();
      }
      sheet.commit();
      await book.commit();
    })().catch((err: Error) => out.destroy(err));
    return out;
  }

  /** Everything the field user's account holds, for them to keep (their subject-access copy). */
  async myData(userId: string): Promise<MyDataReply> {
    const d = await this.repo.fieldUserData(userId);
    const paid = d.responses.filter((r) => r.paid_at !== null);
    const owed = d.responses.filter((r) => r.paid_at === null && r.status === 'approved');
    const sum = (rs: { rate: number }[]) => rs.reduce((n, r) => n + Number(r.rate), 0);
    return {
      account: { email: d.account.email, fullName: d.account.full_name, createdAt: iso(d.account.created_at) },
      memberships: d.memberships.map((m) => ({
        survey_id: m.survey_id, surveyTitle: m.title, organization: m.organization, fullName: m.full_name, phoneNumber: m.phone_number,
        bank: m.bank, accountNumber: m.account_number, accountName: m.account_name, rate: Number(m.rate), invitedAt: iso(m.created_at),
      })),
      earnings: { responses: d.responses.length, paid: sum(paid), owed: sum(owed) },
      responses: d.responses.map((r) => ({ _id: r.id, survey_id: r.survey_id, status: r.status as ResponseStatus, amount: Number(r.rate), paid: r.paid_at !== null, submittedAt: iso(r.created_at) })),
      payouts: d.payouts.map((p) => ({ survey_id: p.survey_id, amount: Number(p.amount), responses: Number(p.response_count), reference: p.reference, paidAt: iso(p.paid_at), bank: p.bank, accountNumber: p.account_number })),
    };
  }

  /**
   * The daily retention pass: a closed survey with a retention is warned about (its organization
   * mailed once) when RETENTION_WARNING_DAYS or fewer remain, and once its days are over every
   * response not yet erased loses its personal answers, photos and files (audited as the system).
   */
  async retention(now = Date.now()): Promise<{ warned: number; erased: number }> {
    let warned = 0;
    let erased = 0;
    for (const s of await this.repo.retentionDue()) {
      const dueAt = Number(s.closed_at) + Number(s.retention_days) * DAY_MS;
      if (now >= dueAt) {
        for (;;) {
          const batch = await this.repo.unerasedOfSurvey(s.id, RETENTION_BATCH);
          for (const row of batch) await this.eraseRow(row, SYSTEM, AuditAction.retentionErase, `Retention: ${Number(s.retention_days)} days after the survey closed`, now);
          erased += batch.length;
          if (batch.length < RETENTION_BATCH) break;
        }
        await this.repo.markDone(s.id, now);
        this.deps.log.info({ surveyId: s.id, erased }, 'retention: personal data deleted');
      } else if (now >= dueAt - RETENTION_WARNING_DAYS * DAY_MS && s.retention_warned_at === null && (await this.repo.markWarned(s.id, now))) {
        warned++;
        const when = new Date(dueAt).toISOString().slice(0, 10);
        this.deps.mailer.later(() => this.deps.mailer.send({
          to: s.organization_email,
          subject: `Survey Bird: personal data of "${s.title}" will be deleted on ${when}`,
          text: `The survey "${s.title}" keeps personal data for ${Number(s.retention_days)} days after it closed. On ${when} its photos, files and personal answers will be deleted (the other answers and all payments stay). Export what you need before then, or change the retention in the survey's settings.`,
          link: `${this.deps.config.publicUrl}/survey-bird/organization/insight`,
        }));
        this.deps.log.info({ surveyId: s.id, dueAt: when }, 'retention: warning mailed');
      }
    }
    return { warned, erased };
  }
}

/** The strings held under the personal keys (a repeat's instances searched member by member). */
function personalTexts(answers: Readonly<Record<string, Answer>>, keys: ReadonlySet<string>, out: string[] = []): string[] {
  for (const [key, value] of Object.entries(answers)) {
    if (keys.has(key)) out.push(...strings(value));
    else if (isRepeatAnswer(value)) for (const instance of value) personalTexts(instance, keys, out);
  }
  return out;
}

const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(strings) : value !== null && typeof value === 'object' ? Object.values(value).flatMap(strings) : []);

function without(record: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => !keys.has(k)));
}

function withoutKeys(meta: Record<string, unknown>, field: string, keys: ReadonlySet<string>): Record<string, unknown> {
  const inner = meta[field];
  if (inner === null || typeof inner !== 'object') return meta;
  const kept = without(inner as Record<string, unknown>, keys);
  const { [field]: _dropped, ...rest } = meta;
  return Object.keys(kept).length > 0 ? { ...rest, [field]: kept } : rest;
}

/** The search as typed, and for a Nigerian number dialled locally (0XXXXXXXXXX, spaces or dashes allowed) its stored +234 form. */
export function searchTerms(search: string): string[] {
  const term = search.trim().toLowerCase();
  const digits = term.replace(/[\s-]/g, '');
  const terms = [term];
  if (/^0\d{10}$/.test(digits)) terms.push(`+234${digits.slice(1)}`);
  if (digits !== term && /^\+?\d{7,}$/.test(digits)) terms.push(digits);
  return [...new Set(terms)];
}

/** "question: answer" for each answer holding a term. */
function matchedAnswers(answers: Readonly<Record<string, Answer>>, terms: readonly string[]): string[] {
  return flatAnswers(answers).filter(([, text]) => terms.some((t) => text.toLowerCase().includes(t))).map(([q, text]) => `${q}: ${text}`).slice(0, 5);
}

/** Each answer as [question, text]; a repeat's instances as "Repeat #n: member". */
function flatAnswers(answers: Readonly<Record<string, Answer>>, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(answers)) {
    if (isRepeatAnswer(value)) value.forEach((instance, i) => out.push(...flatAnswers(instance, `${prefix}${key} #${i + 1}: `)));
    else out.push([`${prefix}${key}`, Array.isArray(value) ? value.join(', ') : String(value)]);
  }
  return out;
}
