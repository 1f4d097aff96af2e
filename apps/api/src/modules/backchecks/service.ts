import { PassThrough, type Readable } from 'node:stream';
import type { Deps } from '../../plugins/deps.js';
import type { Kysely } from 'kysely';
import {
  isChoiceList, type Answer, answerOf, ApiMsg, AuditAction, BACKCHECK_HOLD_WINDOW, BackcheckDefaults, type BackcheckForm, type BackcheckFormBody, BackcheckMsg, type BackcheckOverviewReply, type BackcheckReason,
  type BackcheckSettings, type BackcheckSettingsBody, CONTAINER_QUESTION_TYPES, Limits, Msg, type MyBackchecksReply, NUMERIC_QUESTION_TYPES, questionProblem, questionRulesProblems,
  type RespondBody, type ResponseBackcheckReply, STABLE_QUESTION_TYPES, type StoredQuestion, SyncItem, type SyncResult, withQuestionIds, type Answers,
} from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import type { Database } from '../../db/schema.js';
import { HttpError, badRequest, notFound } from '../../http/errors.js';
import { pageOf, pagingReply } from '../../http/paging.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { recordAudit, SYSTEM, type AuditActor } from '../audit/record.js';
import { plainText } from '../../lib/spreadsheet.js';
import { isPersonalQuestion, PERSONAL_MASK } from '@survey-bird/contracts/personal';
import { hidesPersonal } from '../privacy/personal-keys.js';
import type { ReviewLookup, ReviewingActor } from '../review/index.js';
import { bodyHashOf, checkedAnswers, normaliseAnswers } from '../responses/ingest-service.js';
import { formOf } from '../responses/survey-cache.js';
import { compareAnswers, overThreshold } from './compare.js';
import { BackchecksRepository, newAssignmentId, type NewAssignment, type SettingsRow } from './repository.js';
import { drawOf, newSeed, pickBackchecker, sampled, weekOf, weekStart } from './sampling.js';
import { iso } from '../../lib/time.js';

/**
 * A response is drawn once it is this old: one whose transaction committed a little after a later
 * one (created_at is taken before the commit, a batch commits in well under a second) still falls
 * behind the cursor in order.
 */
export const SETTLE_MS = 10_000;
/** Flags are computed after receipt: flagged responses are looked for this far back. */
const FLAGGED_LOOKBACK_MS = 14 * 86_400_000;
const DAY_MS = 86_400_000;
const BATCH = 2000;
/** The trend covers this many weeks. */
const TREND_WEEKS = 12;
const EXPORT_BATCH = 500;
const MAX_EXPORT_ROWS = 100_000;

const bp = (percent: number) => Math.round(percent * 100);
const rateOf = (compared: number, mismatched: number) => (compared > 0 ? Math.round((mismatched / compared) * 10_000) / 100 : null);
const parseJson = <T>(json: string) => JSON.parse(json) as T;

export function settingsOf(row: SettingsRow | undefined): BackcheckSettings {
  if (!row) return { ...BackcheckDefaults, stableQuestionIds: [] };
  return {
    percent: Number(row.percent_bp) / 100,
    minPerWeek: Number(row.min_per_week),
    includeFlagged: Number(row.include_flagged) === 1,
    threshold: Number(row.threshold_bp) / 100,
    autoReturn: Number(row.auto_return) === 1,
    stableQuestionIds: parseJson<string[]>(row.stable_question_ids),
  };
}

type FormRow = Database['backcheck_forms'];
function formReply(row: FormRow): BackcheckForm {
  return {
    version: Number(row.version),
    questions: parseJson<StoredQuestion[]>(row.questions),
    stableQuestionIds: parseJson<string[]>(row.stable_question_ids),
    ownQuestionIds: parseJson<string[]>(row.own_question_ids),
    tolerances: parseJson<Record<string, number>>(row.tolerances),
    respondentQuestionId: row.respondent_question_id,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}

/** A stable question as the back-check form asks it: its own texts, options and limits, no reference to other questions. */
function stableCopy(q: StoredQuestion): StoredQuestion {
  const { parent: _p, relevantExpr: _r, requiredExpr: _q, constraintExpr: _c, calculation: _k, choiceFilter: _f, showIf: _s, default: _d, readOnly: _o, repeatCount: _n, ...own } = q;
  return own;
}

const stableProblem = (q: StoredQuestion | undefined) =>
  q === undefined ? BackcheckMsg.stableUnknown : !STABLE_QUESTION_TYPES.includes(q.type) || q.parent !== undefined ? `${BackcheckMsg.stableType}: "${q.text}"` : null;

/**
 * Back-checks: settings and form (office), the sampler (a periodic job), the back-checker's feed and
 * answers, the comparison, and what the office reads. docs/decisions.md "Back-checks" has the model.
 */
export class BackchecksService {
  readonly repo: BackchecksRepository;
  constructor(
    private readonly deps: Pick<Deps, 'db'>,
    private readonly review: ReviewLookup,
    /** The survey's personal question keys, any version's text (insight's lookup). */
    private readonly personalKeys: (surveyId: string) => Promise<Set<string>>,
  ) {
    this.repo = new BackchecksRepository(deps.db.kysely);
  }

  private get db(): Kysely<Database> {
    return this.deps.db.kysely;
  }

  /** Inside a transaction pass it: on SQLite a read outside an open transaction waits for it to end. */
  async settings(surveyId: string, db: Kysely<Database> = this.db): Promise<BackcheckSettings> {
    return settingsOf(await this.repo.settings(surveyId, db));
  }

  /**
   * Saves the `backcheck` key of the survey settings (inside the settings' transaction). A change
   * of the stable questions publishes the next form version with the same own questions.
   */
  async saveSettings(trx: Kysely<Database>, survey: { id: string; organization_id: string; title: string; questions: string }, body: BackcheckSettingsBody, actor: AuditActor, now = Date.now()): Promise<BackcheckSettings> {
    const before = await this.repo.settings(survey.id, trx);
    const was = settingsOf(before);
    const next: BackcheckSettings = {
      percent: body.percent ?? was.percent,
      minPerWeek: body.minPerWeek ?? was.minPerWeek,
      includeFlagged: body.includeFlagged ?? was.includeFlagged,
      threshold: body.threshold ?? was.threshold,
      autoReturn: body.autoReturn ?? was.autoReturn,
      stableQuestionIds: body.stableQuestionIds ? [...new Set(body.stableQuestionIds)] : was.stableQuestionIds,
    };
    const questions = withQuestionIds(parseJson<StoredQuestion[]>(survey.questions));
    const byId = new Map(questions.map((q) => [q.id, q]));
    for (const id of next.stableQuestionIds) {
      const problem = stableProblem(byId.get(id));
      if (problem) throw badRequest(problem);
    }
    await this.repo.saveSettings({
      survey_id: survey.id, organization_id: survey.organization_id, percent_bp: bp(next.percent), min_per_week: next.minPerWeek, include_flagged: next.includeFlagged ? 1 : 0,
      threshold_bp: bp(next.threshold), auto_return: next.autoReturn ? 1 : 0, stable_question_ids: JSON.stringify(next.stableQuestionIds),
      seed: before?.seed ?? newSeed(), sampled_until: 0, sampled_until_id: '', created_at: now, updated_at: now,
    }, trx);
    const latest = await this.repo.latestForm(survey.id, trx);
    const stableChanged = JSON.stringify(latest ? parseJson<string[]>(latest.stable_question_ids) : []) !== JSON.stringify(next.stableQuestionIds);
    if (stableChanged && (latest || next.stableQuestionIds.length > 0)) {
      const own = latest ? parseJson<StoredQuestion[]>(latest.questions).filter((q) => parseJson<string[]>(latest.own_question_ids).includes(q.id)) : [];
      const tolerances = latest ? parseJson<Record<string, number>>(latest.tolerances) : {};
      const respondent = latest?.respondent_question_id ?? null;
      await this.publish(trx, survey.id, questions, next.stableQuestionIds, own, tolerances, respondent, now);
    }
    const change = JSON.stringify(was) === JSON.stringify(next) ? null : { before: { backcheck: was }, after: { backcheck: next } };
    if (change) await recordAudit(trx, actor, { organizationId: survey.organization_id, action: AuditAction.surveySettings, surveyId: survey.id, target: { type: 'survey', id: survey.id, label: survey.title }, ...change }, now);
    return next;
  }

  /** `PUT /survey/:id/backcheck-form`: the next version, with the stable questions of the settings. */
  async publishForm(surveyId: string, office: OfficeActor, body: BackcheckFormBody, actor: AuditActor, now = Date.now()): Promise<BackcheckForm> {
    const survey = await this.repo.ownSurvey(surveyId, office);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    const parsed = body as Required<Pick<BackcheckFormBody, 'questions'>> & { tolerances: Record<string, number>; respondentQuestionId: string | null };
    const questions = withQuestionIds(parseJson<StoredQuestion[]>(survey.questions));
    const stableIds = settingsOf(await this.repo.settings(surveyId)).stableQuestionIds;
    const own = parsed.questions.map((q, i) => ({ ...q, id: q.id ?? `bc${i + 1}` }) as StoredQuestion);
    for (const q of own) {
      const problem = questionProblem(q) ?? (CONTAINER_QUESTION_TYPES.includes(q.type) || q.parent !== undefined ? 'A back-check question cannot be a group or a repeat' : null);
      if (problem) throw badRequest(problem);
    }
    const byId = new Map(questions.map((q) => [q.id, q]));
    for (const [id] of Object.entries(parsed.tolerances)) {
      const q = byId.get(id);
      if (!q || !stableIds.includes(id) || !NUMERIC_QUESTION_TYPES.includes(q.type)) throw badRequest(BackcheckMsg.toleranceUnknown);
    }
    const respondent = parsed.respondentQuestionId;
    if (respondent !== null && (byId.get(respondent)?.type !== 'text answer' || stableIds.includes(respondent))) throw badRequest(BackcheckMsg.respondentUnknown);
    const row = await this.db.transaction().execute(async (trx) => {
      const version = await this.publish(trx, surveyId, questions, stableIds, own, parsed.tolerances, respondent, now);
      await recordAudit(trx, actor, { organizationId: survey.organization_id, action: AuditAction.editSurvey, surveyId, target: { type: 'backcheck_form', id: surveyId, label: survey.title }, after: { backcheckFormVersion: version } }, now);
      return (await this.repo.latestForm(surveyId, trx))!;
    });
    return formReply(row);
  }

  private async publish(trx: Kysely<Database>, surveyId: string, questions: StoredQuestion[], stableIds: string[], own: StoredQuestion[], tolerances: Record<string, number>, respondent: string | null, now: number): Promise<number> {
    const byId = new Map(questions.map((q) => [q.id, q]));
    const stable = stableIds.map((id) => stableCopy(byId.get(id)!));
    const form = [...stable, ...own];
    const ids = new Set<string>();
    const texts = new Set<string>();
    for (const q of form) {
      if (ids.has(q.id) || texts.has(q.text)) throw badRequest(`${BackcheckMsg.duplicateText}: "${q.text}"`);
      ids.add(q.id);
      texts.add(q.text);
    }
    const rules = questionRulesProblems(form);
    if (rules.length > 0) throw badRequest(rules[0]!.message);
    const kept = Object.fromEntries(Object.entries(tolerances).filter(([id]) => stableIds.includes(id)));
    return this.repo.publishForm({
      survey_id: surveyId, questions: JSON.stringify(form), stable_question_ids: JSON.stringify(stableIds), own_question_ids: JSON.stringify(own.map((q) => q.id)),
      tolerances: JSON.stringify(kept), respondent_question_id: respondent !== null && !stableIds.includes(respondent) ? respondent : null, created_at: now,
    }, trx);
  }

  async addBackchecker(memberId: string, surveyId: string): Promise<void> {
    await this.repo.addBackchecker(memberId, surveyId, Date.now());
  }

  // --- selection

  /** One pass of the sampler over every survey with back-checks on; answers how many were selected. */
  async sampleAll(now = Date.now()): Promise<number> {
    let n = 0;
    for (const s of await this.repo.sampledSurveys()) n += await this.sampleSurvey(s, now);
    return n;
  }

  /** Draws the survey's responses after its cursor, tops up the weekly minimum, adds flagged ones, and assigns back-checkers. */
  async sampleSurvey(start: SettingsRow, now: number): Promise<number> {
    let s = start;
    const until = now - SETTLE_MS;
    const picked: NewAssignment[] = [];
    const assignmentOf = (r: { id: string; member_id: string; created_at: number }, reason: string, draw: number): NewAssignment => ({
      id: newAssignmentId(now), survey_id: s.survey_id, organization_id: s.organization_id, response_id: r.id, member_id: r.member_id, response_created_at: Number(r.created_at),
      reason, draw, selected_at: now, backchecker_member_id: null, backchecker_user_id: null, assigned_at: null, completed_at: null, compared: null, mismatched: null,
    });
    for (;;) {
      const rows = await this.repo.afterCursor(s, until, BATCH);
      if (rows.length === 0) break;
      const drawn = rows.flatMap((r) => {
        const draw = drawOf(s.seed, r.id);
        return sampled(draw, Number(s.percent_bp)) ? [assignmentOf(r, 'sample', draw)] : [];
      });
      await this.repo.insertAssignments(drawn);
      picked.push(...drawn);
      const last = rows[rows.length - 1]!;
      await this.repo.moveCursor(s.survey_id, Number(last.created_at), last.id);
      s = { ...s, sampled_until: Number(last.created_at), sampled_until_id: last.id };
      if (rows.length < BATCH) break;
    }
    if (Number(s.include_flagged) === 1) {
      const flagged = (await this.repo.flaggedUnselected(s.survey_id, now - FLAGGED_LOOKBACK_MS, until, BATCH)).map((r) => assignmentOf(r, 'flagged', drawOf(s.seed, r.id)));
      await this.repo.insertAssignments(flagged);
      picked.push(...flagged);
    }
    const min = Number(s.min_per_week);
    if (min > 0) {
      // Last week is topped up too: its late arrivals (an offline phone) count in it.
      for (const from of [weekStart(now) - 7 * DAY_MS, weekStart(now)]) {
        const to = Math.min(from + 7 * DAY_MS, until);
        if (to <= from) continue;
        for (const c of await this.repo.weekCounts(s.survey_id, from, to)) {
          if (c.selected >= min || c.responses <= c.selected) continue;
          const rest = (await this.repo.unselectedOf(s.survey_id, c.memberId, from, to)).map((r) => ({ r, draw: drawOf(s.seed, r.id) })).sort((x, y) => x.draw - y.draw);
          const top = rest.slice(0, min - c.selected).map(({ r, draw }) => assignmentOf(r, 'minimum', draw));
          await this.repo.insertAssignments(top);
          picked.push(...top);
        }
      }
    }
    await this.assignOpen(s, now);
    return picked.length;
  }

  /** Gives each unassigned selection to the allowed back-checker with the fewest open ones. */
  private async assignOpen(s: SettingsRow, now: number): Promise<void> {
    const open = await this.repo.unassigned(s.survey_id, BATCH);
    if (open.length === 0) return;
    const candidates = await this.repo.candidates(s.survey_id);
    if (candidates.length === 0) return;
    const counts = await this.repo.openCounts(s.survey_id);
    for (const a of open) {
      const c = pickBackchecker(candidates, { userId: a.user_id, supervisorId: a.supervisor_id }, counts, s.seed, a.response_id);
      if (!c) continue;
      await this.repo.assign(a.id, c, now);
      counts.set(c.userId, (counts.get(c.userId) ?? 0) + 1);
    }
  }

  // --- the back-checker

  async mine(userId: string, pageNumber: number): Promise<MyBackchecksReply> {
    const page = pageOf(pageNumber, Limits.pageSize);
    const { rows, total } = await this.repo.mine(userId, page.limit, page.offset);
    const forms = new Map<string, FormRow | undefined>();
    for (const r of rows) if (!forms.has(r.survey_id)) forms.set(r.survey_id, await this.repo.latestForm(r.survey_id));
    const assignments = await Promise.all(rows.map(async (r) => {
      const form = forms.get(r.survey_id);
      let respondent: string | null = null;
      if (form?.respondent_question_id) {
        const text = withQuestionIds(parseJson<StoredQuestion[]>((await this.repo.versionQuestions(r.survey_id, Number(r.version))) ?? '[]')).find((q) => q.id === form.respondent_question_id)?.text;
        const answer = text === undefined ? undefined : answerOf(parseJson<Answers>(r.answers), text);
        respondent = typeof answer === 'string' ? answer : null;
      }
      return {
        _id: r.id, responseId: r.response_id, survey_id: r.survey_id, organization_id: r.organization_id, surveyTitle: r.title, respondent,
        location: r.lat !== null && r.lng !== null ? { lat: Number(r.lat), lng: Number(r.lng) } : null,
        capturedAt: iso(r.captured_at ?? r.created_at), assignedAt: iso(r.assigned_at ?? r.selected_at),
      };
    }));
    const formList = [...forms.entries()].flatMap(([surveyId, f]) => (f ? [{ survey_id: surveyId, version: Number(f.version), questions: parseJson<StoredQuestion[]>(f.questions) }] : []));
    return { assignments, forms: formList, ...pagingReply(page, total) };
  }

  /** One back-check through the response routes (`backcheckOf`); answered as a queued response is. */
  async receive(userId: string, body: RespondBody, now = Date.now()): Promise<{ status: number; msg: string; _id?: string }> {
    const a = await this.repo.assignmentFor(body.backcheckOf!, userId);
    if (!a || a.survey_id !== body.survey_id) return { status: 404, msg: BackcheckMsg.notFound };
    if (a.withdrawn_at !== null) return { status: 403, msg: ApiMsg.withdrawnFromSurvey };
    if (body.organization_id !== a.organization_id) return { status: 400, msg: ApiMsg.organizationMismatch };
    if (body.revisionOf !== undefined || (body.photos?.length ?? 0) > 0) return { status: 400, msg: BackcheckMsg.noPhotos };
    const formRow = body.version !== undefined ? await this.repo.form(a.survey_id, body.version) : await this.repo.latestForm(a.survey_id);
    if (!formRow) return { status: 400, msg: ApiMsg.unknownSurveyVersion };
    const form = formOf(formRow.questions);
    const checked = checkedAnswers(form, body.answers, now, () => false);
    if ('problem' in checked) return { status: 400, msg: checked.problem };
    const answers = normaliseAnswers(form, checked.answers);
    const bodyHash = bodyHashOf(a.id, answers);
    const clientId = body.clientId ?? uuidv7(now);
    const replay = async () => {
      const held = await this.repo.backcheckResponse(a.id);
      return held && held.body_hash === bodyHash && held.user_id === userId ? { status: 200, msg: Msg.responseSent, _id: held.id } : { status: 409, msg: BackcheckMsg.alreadySent };
    };
    if (a.completed_at !== null) return replay();

    const original = (await this.repo.original(a.response_id))!;
    const originalQuestions = withQuestionIds(parseJson<StoredQuestion[]>((await this.repo.versionQuestions(a.survey_id, Number(original.version))) ?? '[]'));
    const stableIds = parseJson<string[]>(formRow.stable_question_ids);
    const stable = form.ordered.filter((q) => stableIds.includes(q.id));
    const compared = compareAnswers(stable, new Map(originalQuestions.map((q) => [q.id, q.text])), parseJson<Answers>(original.answers), answers, parseJson<Record<string, number>>(formRow.tolerances));
    const counted = compared.filter((c) => c.match !== null);
    const differing = counted.filter((c) => c.match === false);
    const settings = await this.repo.settings(a.survey_id);
    const thresholdBp = Number(settings?.threshold_bp ?? bp(BackcheckDefaults.threshold));
    const mismatch = overThreshold(counted.length, differing.length, thresholdBp);
    const textOf = new Map(stable.map((q) => [q.id, q.text]));
    const differ = differing.map((c) => `"${textOf.get(c.questionId)}"`).join(', ');
    const row = { id: uuidv7(now), assignment_id: a.id, survey_id: a.survey_id, client_id: clientId, user_id: userId, form_version: Number(formRow.version), answers: JSON.stringify(answers), body_hash: bodyHash, captured_at: body.capturedAt ? Math.min(Date.parse(body.capturedAt), now) : null, created_at: now };
    const diffs = counted.map((c) => ({ assignment_id: a.id, question_id: c.questionId, survey_id: a.survey_id, matched: c.match ? 1 : 0, original: JSON.stringify(c.original), backcheck: JSON.stringify(c.backcheck) }));
    const reason = `${differing.length} of ${counted.length} stable answers differ on a back-check: ${differ}`.slice(0, 1000);
    const stored = await this.repo.saveBackcheck(row, diffs, { compared: counted.length, mismatched: differing.length, mismatch }, mismatch ? { memberId: a.member_id, reason } : null);
    if (!stored) return replay();
    if (mismatch && Number(settings?.auto_return ?? 0) === 1) {
      const comment = `${BackcheckMsg.returnComment} ${differ}`.slice(0, Limits.maxReviewComment);
      await this.repo.autoReturn(a.id, a.response_id, userId, comment, now, (trx, r) => recordAudit(trx, SYSTEM, {
        organizationId: r.organization_id, action: AuditAction.reviewVerdict, surveyId: r.survey_id, target: { type: 'response', id: a.response_id },
        before: { status: r.from }, after: { status: 'returned', comment },
      }, now));
    }
    return { status: 200, msg: Msg.responseSent, _id: row.id };
  }

  async respond(userId: string, body: RespondBody) {
    // One id for the reply and the stored row when the phone sent none.
    const clientId = body.clientId ?? uuidv7(Date.now());
    const result = await this.receive(userId, { ...body, clientId });
    if (result.status !== 200) throw new HttpError(result.status, result.msg);
    return { msg: result.msg, _id: result._id!, clientId };
  }

  /** The back-checks of a queued batch, each answered on its own. */
  async sync(userId: string, items: unknown[]): Promise<SyncResult[]> {
    const out: SyncResult[] = [];
    for (const item of items) {
      const parsed = SyncItem.safeParse(item);
      const clientId = (item as { clientId?: unknown }).clientId;
      if (!parsed.success) {
        out.push({ clientId: typeof clientId === 'string' ? clientId.slice(0, 100) : '', status: 400, msg: parsed.error.issues[0]?.message ?? 'Invalid back-check' });
        continue;
      }
      out.push({ clientId: parsed.data.clientId, ...(await this.receive(userId, parsed.data)) });
    }
    return out;
  }

  // --- the office

  async overview(surveyId: string, office: OfficeActor, pageNumber: number): Promise<BackcheckOverviewReply> {
    const survey = await this.repo.ownSurvey(surveyId, office);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    const page = pageOf(pageNumber, Limits.pageSize);
    const now = Date.now();
    const since = weekStart(now) - (TREND_WEEKS - 1) * 7 * DAY_MS;
    const [settingsRow, formRow, candidates, totals, people, perQuestion, done, list, held] = await Promise.all([
      this.repo.settings(surveyId), this.repo.latestForm(surveyId), this.repo.candidates(surveyId), this.repo.totals(surveyId),
      this.repo.byFieldUser(surveyId, page.limit, page.offset), this.repo.byQuestion(surveyId), this.repo.completedSince(surveyId, since),
      this.repo.assignments(surveyId, page.limit, page.offset), backcheckHolds(this.db, surveyId),
    ]);
    const texts = new Map(withQuestionIds(parseJson<StoredQuestion[]>(survey.questions)).map((q) => [q.id, q.text]));
    const weeks = new Map<string, { completed: number; compared: number; mismatched: number }>();
    for (let w = since; w <= now; w += 7 * DAY_MS) weeks.set(weekOf(w), { completed: 0, compared: 0, mismatched: 0 });
    for (const d of done) {
      const w = weeks.get(weekOf(Number(d.completed_at)));
      if (!w) continue;
      w.completed += 1;
      w.compared += Number(d.compared ?? 0);
      w.mismatched += Number(d.mismatched ?? 0);
    }
    return {
      settings: settingsOf(settingsRow),
      seed: settingsRow?.seed ?? null,
      form: formRow ? formReply(formRow) : null,
      backcheckers: candidates.map((c) => ({ memberId: c.memberId, fullName: c.fullName, email: c.email, role: c.role })),
      totals: { ...totals, rate: rateOf(totals.compared, totals.mismatched) },
      fieldUsers: people.rows.map((p) => ({ ...p, rate: rateOf(p.compared, p.mismatched), held: held.memberIds.has(p.memberId) })),
      questions: perQuestion.map((q) => ({ ...q, text: texts.get(q.id) ?? q.id, rate: rateOf(q.compared, q.mismatched) })),
      weeks: [...weeks.entries()].map(([week, w]) => ({ week, ...w, rate: rateOf(w.compared, w.mismatched) })),
      assignments: list.rows.map((r) => ({
        _id: r.id, responseId: r.response_id, fieldUser: r.full_name || r.email, backchecker: r.b_name || r.b_email || null, reason: r.reason as BackcheckReason,
        selectedAt: iso(r.selected_at), completedAt: iso(r.completed_at), rate: r.compared === null ? null : rateOf(Number(r.compared), Number(r.mismatched ?? 0)), mismatch: Number(r.mismatch) === 1,
      })),
      ...pagingReply(page, Math.max(list.total, people.total)),
    };
  }

  /**
   * Which back-check questions' answers, original and revisit alike, this reader sees masked: for
   * an analyst, those personal on the survey (any version's text) or on the form itself; else none.
   */
  private async personalFor(reader: ReviewingActor, surveyId: string): Promise<(q: StoredQuestion) => boolean> {
    if (!hidesPersonal(reader)) return () => false;
    const keys = await this.personalKeys(surveyId);
    return (q) => keys.has(q.text) || isPersonalQuestion(q);
  }

  /** The detail view's comparison: visible to whoever may read the response. */
  async ofResponse(reviewer: ReviewingActor, responseId: string): Promise<ResponseBackcheckReply> {
    const visible = await this.review.detail(reviewer, responseId);
    if (!visible) throw notFound('Response not found');
    const a = await this.repo.ofResponse(responseId);
    if (!a) return { backcheck: null };
    const settings = settingsOf(await this.repo.settings(a.survey_id));
    const br = await this.repo.backcheckResponse(a.id);
    const formRow = br ? await this.repo.form(a.survey_id, Number(br.form_version)) : await this.repo.latestForm(a.survey_id);
    const form = formRow ? formReply(formRow) : null;
    const diffs = new Map((await this.repo.diffs(a.id)).map((d) => [d.question_id, d]));
    const questions = form?.questions ?? [];
    const stable = questions.filter((q) => form!.stableQuestionIds.includes(q.id));
    const own = questions.filter((q) => form!.ownQuestionIds.includes(q.id));
    const answers = br ? parseJson<Answers>(br.answers) : {};
    const personal = await this.personalFor(reviewer, a.survey_id);
    const plain = (v: Answer | undefined | null) => (v === undefined || v === null ? null : Array.isArray(v) ? v.map(String) : String(v));
    const shownFor = (q: StoredQuestion) => (v: Answer | undefined | null) => (personal(q) && plain(v) !== null ? PERSONAL_MASK : plain(v));
    const compared = a.compared === null ? null : rateOf(Number(a.compared), Number(a.mismatched ?? 0));
    return {
      backcheck: {
        status: a.completed_at !== null ? 'done' : a.backchecker_user_id ? 'assigned' : 'unassigned',
        backchecker: a.b_name || a.b_email || null,
        selectedAt: iso(a.selected_at), completedAt: iso(a.completed_at), rate: compared, threshold: settings.threshold, mismatch: Number(a.mismatch) === 1,
        items: br ? stable.map((q) => {
          const d = diffs.get(q.id);
          const shown = shownFor(q);
          return { questionId: q.id, text: q.text, original: d ? shown(parseJson<Answer | null>(d.original ?? 'null')) : null, backcheck: d ? shown(parseJson<Answer | null>(d.backcheck ?? 'null')) : shown(answerOf(answers, q.text)), match: d ? Number(d.matched) === 1 : null, tolerance: form!.tolerances[q.id] ?? (NUMERIC_QUESTION_TYPES.includes(q.type) ? 0 : null) };
        }) : [],
        extra: br ? own.map((q) => ({ text: q.text, answer: shownFor(q)(answerOf(answers, q.text)) })) : [],
      },
    };
  }

  /** Every completed back-check beside the original's answers, one sheet. */
  async xlsx(surveyId: string, office: OfficeActor, actor: AuditActor): Promise<{ title: string; file: Readable }> {
    const survey = await this.repo.ownSurvey(surveyId, office);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    await recordAudit(this.db, actor, { organizationId: survey.organization_id, action: AuditAction.exportResponses, surveyId, after: { backchecks: true } });
    const formRow = await this.repo.latestForm(surveyId);
    const form = formRow ? formReply(formRow) : null;
    const stable = form ? form.questions.filter((q) => form.stableQuestionIds.includes(q.id)) : [];
    const own = form ? form.questions.filter((q) => form.ownQuestionIds.includes(q.id)) : [];
    const personal = await this.personalFor(office, surveyId);
    const out = new PassThrough();
    const plainCell = (json: string | null | undefined) => {
      if (json === null || json === undefined) return '';
      const v = parseJson<Answer | null>(json);
      return v === null ? '' : plainText(typeof v === 'string' ? v : isChoiceList(v) ? v.join(', ') : JSON.stringify(v));
    };
    const cellFor = (q: StoredQuestion) => (json: string | null | undefined) => {
      const text = plainCell(json);
      return text !== '' && personal(q) ? PERSONAL_MASK : text;
    };
    void (async () => {
      const { default: ExcelJS } = await import('exceljs');
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
      const sheet = book.addWorksheet('Back-checks');
      const header = ['Response', 'Field user', 'Back-checker', 'Completed (UTC)', 'Discrepancy %', 'Mismatch', 'Returned',
        ...stable.flatMap((q) => [`${q.text} (original)`, `${q.text} (back-check)`, `${q.text} (same)`]), ...own.map((q) => q.text)];
      sheet.columns = header.map((h, i) => ({ header: plainText(h), width: i < 7 ? 18 : 24, ...(i === 3 ? { style: { numFmt: 'dd/mm/yyyy hh:mm' } } : {}) }));
      for (let offset = 0; offset < MAX_EXPORT_ROWS; offset += EXPORT_BATCH) {
        const rows = await this.repo.completed(surveyId, EXPORT_BATCH, offset);
        const diffs = await this.repo.diffsOf(rows.map((r) => r.id));
        const byAssignment = new Map<string, Map<string, (typeof diffs)[number]>>();
        for (const d of diffs) byAssignment.set(d.assignment_id, (byAssignment.get(d.assignment_id) ?? new Map<string, (typeof diffs)[number]>()).set(d.question_id, d));
        for (const r of rows) {
          const answers = parseJson<Answers>(r.answers);
          const ds = byAssignment.get(r.id) ?? new Map<string, (typeof diffs)[number]>();
          sheet.addRow([r.response_id, plainText(r.full_name || r.email), plainText(r.b_name ?? ''), new Date(Number(r.completed_at)), rateOf(Number(r.compared ?? 0), Number(r.mismatched ?? 0)) ?? '', Number(r.mismatch) === 1 ? 'yes' : 'no', Number(r.returned) === 1 ? 'yes' : 'no',
            ...stable.flatMap((q) => {
              const d = ds.get(q.id);
              const cell = cellFor(q);
              return d ? [cell(d.original), cell(d.backcheck), Number(d.matched) === 1 ? 'yes' : 'no'] : ['', cell(JSON.stringify(answerOf(answers, q.text) ?? null)), ''];
            }),
            ...own.map((q) => cellFor(q)(JSON.stringify(answerOf(answers, q.text) ?? null)))]).commit();
        }
        if (rows.length < EXPORT_BATCH) break;
      }
      sheet.commit();
      await book.commit();
    })().catch((err: Error) => out.destroy(err));
    return { title: survey.title, file: out };
  }
}

/**
 * For pay gating: the responses of `surveyId` held from payouts by back-checks. A field user is held
 * while the discrepancy over their last `window` (BACKCHECK_HOLD_WINDOW) completed back-checks is
 * above the survey's threshold and one of those back-checks' `backcheck_mismatch` flags is still
 * undismissed: dismissing the flags (the office reviewed the answers side by side) releases them.
 * Held: their responses a payout could take (pending or approved, unpaid, in no payout).
 */
export async function backcheckHolds(db: Kysely<Database>, surveyId: string, window = BACKCHECK_HOLD_WINDOW): Promise<{ responseIds: Set<string>; memberIds: Set<string> }> {
  const repo = new BackchecksRepository(db);
  const settings = await repo.settings(surveyId);
  if (!settings) return { responseIds: new Set(), memberIds: new Set() };
  const recent = await repo.recentPerMember(surveyId, window);
  const over = [...recent.entries()].filter(([, m]) => overThreshold(m.compared, m.mismatched, Number(settings.threshold_bp)));
  const unreviewed = await repo.unreviewedMismatches(over.flatMap(([, m]) => m.responseIds));
  const memberIds = new Set(over.filter(([, m]) => m.responseIds.some((id) => unreviewed.has(id))).map(([id]) => id));
  const responseIds = new Set(await repo.payable(surveyId, [...memberIds]));
  return { responseIds, memberIds };
}
