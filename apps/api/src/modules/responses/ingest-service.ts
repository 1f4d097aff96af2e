import { hash } from 'node:crypto';
import { type Answer, answerIssues, type AnswerPath, formState, type FormNode, answerOf, placedAnswers, putAnswer, TYPED_QUESTION_TYPES, isChoiceList, type Answers, type EncryptedAnswers, ApiMsg, isAnswered, Limits, Msg, normaliseAnswer, PhotoMsg, QuestionType, type RespondBody, type RespondReply, ResponseStatus, RuleMsg, type StoredQuestion, SyncItem, type SyncResult } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import type { Db } from '../../db/database.js';
import { RowCache } from '../../db/row-cache.js';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors.js';
import { storedMetaOf } from '../flags/meta.js';
import { audioOfResponse } from '../audio/ingest.js';
import { DEFAULT_MAX_OFFLINE_AGE_DAYS, outsideWindow, uuidv7Time } from './capture-window.js';
import { placeholdersKey, takePlaceholders } from './pending-photos.js';
import { RevisionsRepository, type ReviseOutcome } from './revisions-repository.js';
import { keyOf, responsesRepository, type IngestMember, type ResponseInsert, type ResponsesRepository, type StoredRef } from './responses-repository.js';
import { searchTextOf } from './search-text.js';
import { DatasetRepository } from './dataset-repository.js';
import { SurveyCache, type IngestForm, type IngestSurvey } from './survey-cache.js';

/**
 * SHA-256 of {survey_id, answers} with answer keys sorted, and the photo placeholders if any:
 * equal for a replay, different for another body.
 */
export function bodyHashOf(surveyId: string, answers: Answers, photos?: string): string {
  // fromEntries defines own properties, so a question named `__proto__` is hashed like any other.
  const sorted = Object.fromEntries(Object.keys(answers).sort().map((key) => [key, answers[key]]));
  return hash('sha256', JSON.stringify({ survey_id: surveyId, answers: sorted, ...(photos !== undefined ? { photos } : {}) }), 'hex');
}

/** True when `value` is an object with more than `max` own keys; stops counting at max + 1. */
export function hasMoreKeysThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  let n = 0;
  for (const key in value) if (Object.hasOwn(value, key) && ++n > max) return true;
  return false;
}

/**
 * A closed survey takes only responses made on the phone inside its window (capture-window.ts): a
 * UUIDv7 clientId, and a capturedAt if sent, both after the survey's creation and the invitation,
 * within the maximum offline age, and before the close. A back-dated clientId (1970, 2001) is refused.
 */
export function refusedAsClosed(survey: IngestSurvey, member: IngestMember, body: Pick<RespondBody, 'clientId' | 'capturedAt'>, now: number, maxOfflineAgeMs: number): boolean {
  if (survey.closedAt === null) return false;
  const made = body.clientId === undefined ? null : uuidv7Time(body.clientId);
  if (made === null) return true;
  const window = { opensAt: Math.max(survey.createdAt, member.invitedAt), endsAt: survey.closedAt, arrivedAt: now, maxOfflineAgeMs };
  return outsideWindow(made, window) !== null || (body.capturedAt !== undefined && outsideWindow(Date.parse(body.capturedAt), window) !== null);
}

/**
 * A phone's "today" may be up to 14 hours ahead of the server's clock (UTC+14): "not in the
 * future" is judged against the latest calendar date anywhere, so no phone's accepted answer is refused.
 */
const LATEST_ZONE_MS = 14 * 3_600_000;

/**
 * The answers' problem against the survey's questions (spec section 5 first), or null: the first
 * issue of the contracts' check (answerIssues), the one the phone runs on every answer before it
 * queues, so what the phone accepts offline is never refused here for a rule it could check.
 */
export function answersProblem(survey: IngestForm, answers: Answers, now = Date.now(), inDataset: DatasetCheck = NO_DATASET): string | null {
  const checked = checkedAnswers(survey, answers, now, inDataset);
  return 'problem' in checked ? checked.problem : null;
}

/**
 * The answers to store, or the problem that refuses them. A form using the XLSForm model is
 * checked by the contracts' form engine in its server mode (relevance, constraints, requirements,
 * repeat counts, choice filters, calculations recomputed: the stored answers carry them); the
 * clock-made values (now(), today()) are the phone's, so they never refuse.
 */
export function checkedAnswers(survey: IngestForm, answers: Answers, now: number, inDataset: DatasetCheck): { problem: string } | { answers: Answers } {
  // Before any per-key work: more keys than questions cannot all be answers (400,000 keys stalled the server).
  if (hasMoreKeysThan(answers, survey.questions.size)) return { problem: ApiMsg.tooManyAnswers };
  if (survey.model) {
    const state = formState(survey.model, answers, { mode: 'server', now, today: new Date(now + LATEST_ZONE_MS) });
    if (state.issues.length > 0) return { problem: state.issues[0]!.refusal };
    // A large select's list is a dataset apart: checked here, at the response's level and in every repeat instance.
    for (const placed of placedAnswers(survey.model, state.answers, isLargeSelect)) {
      const answer = placed.value as Answer;
      if (isAnswered(answer) && optionProblem(survey, placed.node.q as StoredQuestion, answer, inDataset) !== null) return { problem: `${issuePlace(placed.path)}: ${RuleMsg.notAnOption}` };
    }
    return { answers: state.answers as Answers };
  }
  const first = answerIssues(survey, answers, new Date(now + LATEST_ZONE_MS), 'server').next();
  if (!first.done) return { problem: first.value.refusal };
  // Every answer left is to a shown question of the right shape: its choices must be its version's options.
  for (const q of survey.ordered) {
    const answer = answerOf(answers, q.text);
    if (!isAnswered(answer)) continue;
    const message = optionProblem(survey, q, answer!, inDataset);
    if (message !== null) return { problem: `"${q.text}": ${message}` };
  }
  return { answers };
}

const isLargeSelect = (n: FormNode) => n.q.type === QuestionType.largeSelect;
const TYPED: readonly string[] = TYPED_QUESTION_TYPES;
const isTyped = (n: FormNode) => TYPED.includes(n.q.type);

/** How a refusal names an answer: `"Age"`, or `"Age" in Member 2` inside a repeat (as the form engine's issues do). */
function issuePlace(path: AnswerPath): string {
  const step = path.at[path.at.length - 1];
  return step ? `"${path.question}" in ${step.repeat} ${step.index + 1}` : `"${path.question}"`;
}

/** Whether a large select's answer is in the dataset of the version it was filled against (looked up before the rules run). */
export type DatasetCheck = (q: StoredQuestion, value: string) => boolean;
/** No dataset was looked up: a large select's answer is refused rather than taken unchecked. */
const NO_DATASET: DatasetCheck = () => false;

/**
 * A select's answer, and each choice of a checkbox's, must be one of the options of the version it
 * was filled against (a phone that cached an older version sends that version); a large select's,
 * one of that version's dataset.
 */
function optionProblem(survey: IngestForm, q: StoredQuestion, answer: Answer, inDataset: DatasetCheck): string | null {
  const options = survey.options.get(q.id);
  if (options !== undefined) return (typeof answer === 'string' ? options.has(answer) : isChoiceList(answer) && answer.every((a) => options.has(a))) ? null : RuleMsg.notAnOption;
  if (q.type === QuestionType.largeSelect && typeof answer === 'string' && !inDataset(q, answer)) return RuleMsg.notAnOption;
  return null;
}

/**
 * The answers as stored: typed answers in their normal form (phone numbers as +234...). Changes
 * the request's own parsed answers in place (copying 30 answers per response cost more than the rules).
 */
export function normaliseAnswers(survey: IngestForm, answers: Answers): Answers {
  // The XLSForm model: typed answers at the response's level and inside every repeat instance.
  if (survey.model) {
    for (const placed of placedAnswers(survey.model, answers, isTyped)) {
      const normal = normaliseAnswer(placed.node.q.type, placed.value as Answer);
      if (normal !== placed.value) putAnswer(placed.holder, placed.path.question, normal);
    }
    return answers;
  }
  for (const q of survey.typed) {
    const value = answerOf(answers, q.text);
    if (value === undefined) continue;
    const normal = normaliseAnswer(q.type, value);
    // An own property already: assigning to it never touches the prototype, even for `__proto__`.
    if (normal !== value) answers[q.text] = normal;
  }
  return answers;
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
const NOT_AN_OBJECT = { success: false as const, error: { issues: [{ path: [] as PropertyKey[], message: 'Each queued response must be an object' }] } };
const tooManyAnswers = { success: false as const, error: { issues: [{ path: [] as PropertyKey[], message: ApiMsg.tooManyAnswers }] } };

type Prepared = { clientId: string; row: ResponseInsert; revisionOf?: string; actorName: string } | { clientId: string; error: HttpError };
type Access = { member: IngestMember; survey: IngestSurvey };
const formKey = (surveyId: string, version: number) => `${surveyId}\u0000${version}`;
const datasetKey = (surveyId: string, version: number, question: string) => `${formKey(surveyId, version)}\u0000${question}`;

/**
 * Receiving responses: who submitted, what they are paid and when it arrived come from the token
 * and the server; the body only says which survey and what was answered. Every response is
 * stored exactly once per (survey, clientId), however often and however concurrently it is sent.
 */
export class IngestService {
  readonly repo: ResponsesRepository;
  readonly surveys: SurveyCache;
  readonly revisions: RevisionsRepository;
  private readonly datasets: DatasetRepository;
  /** The caller's member row per survey; members, and the rows it cascades from, invalidate it. */
  private readonly members: RowCache<IngestMember | undefined>;

  constructor(db: Db, private readonly maxOfflineAgeMs = DEFAULT_MAX_OFFLINE_AGE_DAYS * 86_400_000) {
    this.repo = responsesRepository(db);
    this.revisions = new RevisionsRepository(db.kysely);
    this.datasets = new DatasetRepository(db.kysely);
    this.surveys = new SurveyCache(this.repo, () => db.writes.generation(['surveys']));
    this.members = new RowCache(db.writes, ['members', 'surveys', 'organizations', 'users']);
  }

  /**
   * The survey and the caller's member row, or 404 whether the survey is missing, another
   * organization's, or simply not one the caller was invited to (so nothing leaks).
   */
  async access(userId: string, surveyId: string): Promise<Access> {
    const member = await this.members.get(`${surveyId}\u0000${userId}`, async () => {
      const row = await this.repo.fieldMember(surveyId, userId);
      return row && Object.freeze(row);
    });
    const survey = member && (await this.surveys.get(surveyId));
    if (!member || !survey) throw notFound(ApiMsg.surveyNotFound);
    if (member.withdrawn) throw forbidden(ApiMsg.withdrawnFromSurvey);
    return { member, survey };
  }

  async respond(userId: string, body: RespondBody): Promise<RespondReply> {
    const access = await this.access(userId, body.survey_id);
    const form = await this.surveys.form(access.survey, body.version ?? 1);
    const found = await this.datasetAnswers([{ surveyId: body.survey_id, version: body.version ?? 1, form, answers: body.answers }]);
    const prepared = this.prepare(userId, body, Date.now(), access, form, true, found);
    if ('error' in prepared) throw prepared.error;
    const result = prepared.revisionOf !== undefined ? await this.revise(prepared) : verdict(prepared.row, await this.repo.insert([prepared.row]));
    if (result.status !== 200) throw new HttpError(result.status, result.msg);
    return { msg: result.msg, _id: result._id!, clientId: prepared.clientId };
  }

  /** Each item answered on its own; all the valid ones written in one transaction. */
  async sync(userId: string, items: unknown[]): Promise<SyncResult[]> {
    const now = Date.now();
    // The key count first: an item with more answers than any survey has questions is not parsed key by key.
    const parsed = items.map((item) => (!isObject(item) ? NOT_AN_OBJECT : hasMoreKeysThan((item as { answers?: unknown }).answers, Limits.maxQuestions) ? tooManyAnswers : SyncItem.safeParse(item)));
    // A queue usually holds many responses to one survey: the caller's access is looked up once per
    // survey, before the items are prepared (no await per item).
    const access = new Map<string, Access | HttpError>();
    const surveyIds = new Set(parsed.flatMap((p) => (p.success ? [p.data.survey_id] : [])));
    await Promise.all([...surveyIds].map(async (surveyId) => {
      try {
        access.set(surveyId, await this.access(userId, surveyId));
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        access.set(surveyId, err);
      }
    }));
    // Then the forms of the versions the items were filled against (usually just the latest).
    const forms = new Map<string, IngestForm | undefined>();
    for (const p of parsed) {
      if (!p.success) continue;
      const survey = access.get(p.data.survey_id);
      const key = formKey(p.data.survey_id, p.data.version ?? 1);
      if (survey instanceof HttpError || forms.has(key)) continue;
      forms.set(key, await this.surveys.form(survey!.survey, p.data.version ?? 1));
    }
    const found = await this.datasetAnswers(parsed.flatMap((p) => {
      if (!p.success) return [];
      const version = p.data.version ?? 1;
      return [{ surveyId: p.data.survey_id, version, form: forms.get(formKey(p.data.survey_id, version)), answers: p.data.answers }];
    }));
    // The phone's clock skew is reported once per sync: on the first item that carries `sentAt`.
    const skewAt = parsed.findIndex((p) => p.success && p.data.sentAt !== undefined);
    const prepared = parsed.map((p, i): Prepared => {
      if (p.success) return this.prepare(userId, p.data, now, access.get(p.data.survey_id)!, forms.get(formKey(p.data.survey_id, p.data.version ?? 1)), i === skewAt, found);
      const clientId = (items[i] as { clientId?: unknown } | null)?.clientId;
      return { clientId: typeof clientId === 'string' ? clientId.slice(0, 100) : '', error: badRequest(issueText(p.error.issues[0])) };
    });
    const rows = prepared.flatMap((p) => ('row' in p && p.revisionOf === undefined ? [p.row] : []));
    const stored = rows.length > 0 ? await this.repo.insert(rows) : new Map<string, StoredRef>();
    // Fixes are rare: each in its own transaction once the new responses are written.
    const revised = new Map<Prepared, { status: number; msg: string; _id?: string }>();
    for (const p of prepared) if ('row' in p && p.revisionOf !== undefined) revised.set(p, await this.revise(p));
    return prepared.map((p) => ('error' in p ? { clientId: p.clientId, status: p.error.statusCode, msg: p.error.message } : { clientId: p.clientId, ...(revised.get(p) ?? verdict(p.row, stored)) }));
  }

  /**
   * The answered large selects, looked up once per survey, version and question before the items
   * are prepared: per datasetKey, the answers found in that version's dataset.
   */
  private async datasetAnswers(items: { surveyId: string; version: number; form: IngestForm | undefined; answers: Answers }[]): Promise<Map<string, Set<string>>> {
    const asked = new Map<string, { surveyId: string; version: number; question: string; values: Set<string> }>();
    for (const { surveyId, version, form, answers } of items) {
      if (!form?.hasLargeSelect) continue;
      const values = form.model
        ? [...placedAnswers(form.model, answers, isLargeSelect)].map((p) => ({ q: p.node.q, value: p.value }))
        : form.ordered.filter((q) => q.type === QuestionType.largeSelect).map((q) => ({ q, value: answerOf(answers, q.text) }));
      for (const { q, value } of values) {
        if (typeof value !== 'string' || !isAnswered(value)) continue;
        const key = datasetKey(surveyId, version, q.text);
        const entry = asked.get(key) ?? { surveyId, version, question: q.text, values: new Set<string>() };
        entry.values.add(value);
        asked.set(key, entry);
      }
    }
    const found = new Map<string, Set<string>>();
    for (const [key, a] of asked) found.set(key, await this.datasets.present(a.surveyId, a.question, a.version, [...a.values]));
    return found;
  }

  /** Fix and resubmit: a new revision of the caller's returned response, stored once per clientId. */
  private async revise(p: Extract<Prepared, { row: ResponseInsert }>): Promise<{ status: number; msg: string; _id?: string }> {
    const outcome: ReviseOutcome = await this.revisions.revise({ row: p.row, responseId: p.revisionOf!, actorName: p.actorName });
    switch (outcome.kind) {
      case 'ok': return { status: 200, msg: Msg.responseSent, _id: outcome.id };
      case 'conflict': return { status: 409, msg: ApiMsg.responseConflict };
      case 'notFound': return { status: 404, msg: ApiMsg.revisionNotFound };
      case 'notReturned': return { status: 409, msg: ApiMsg.revisionNotReturned };
    }
  }

  /**
   * The row to store for `body`, or the error that answers it, given the caller's access to its
   * survey and the form of the version it was filled against (undefined: no such version).
   */
  private prepare(userId: string, body: RespondBody, now: number, access: Access | HttpError, form: IngestForm | undefined, withSkew: boolean, found: Map<string, Set<string>>): Prepared {
    const clientId = body.clientId ?? uuidv7(now);
    if (access instanceof HttpError) return { clientId, error: access };
    const { member, survey } = access;
    if (body.organization_id !== survey.organizationId) return { clientId, error: badRequest(ApiMsg.organizationMismatch) };
    if (refusedAsClosed(survey, member, body, now, this.maxOfflineAgeMs)) return { clientId, error: forbidden(Msg.surveyClosed) };
    if (!form) return { clientId, error: badRequest(ApiMsg.unknownSurveyVersion) };
    if (body.photos?.length && body.revisionOf !== undefined) return { clientId, error: badRequest(PhotoMsg.withRevision) };
    const sealed = sealedAnswers(survey, body);
    if ('problem' in sealed) return { clientId, error: badRequest(sealed.problem) };
    const placed = takePlaceholders(form, body.answers, body.photos);
    if ('problem' in placed) return { clientId, error: badRequest(placed.problem) };
    const version = body.version ?? 1;
    const checked = sealed.envelope ? { answers: body.answers } : checkedAnswers(form, body.answers, now, (q, value) => found.get(datasetKey(survey.id, version, q.text))?.has(value) === true);
    if ('problem' in checked) return { clientId, error: badRequest(checked.problem) };
    const answers = sealed.envelope ? checked.answers : normaliseAnswers(form, checked.answers);
    // A fix is a revision of a response already stored: its audio, if any, came with the original.
    const audio = body.revisionOf === undefined ? audioOfResponse(survey.audioAudit, member.id, clientId, body.audio) : { column: null, meta: undefined };
    return {
      clientId,
      ...(body.revisionOf !== undefined ? { revisionOf: body.revisionOf } : {}),
      actorName: member.fullName || member.email,
      row: {
        id: uuidv7(now),
        client_id: clientId,
        survey_id: survey.id,
        organization_id: survey.organizationId,
        member_id: member.id,
        user_id: userId,
        answers: JSON.stringify(answers),
        body_hash: bodyHashOf(survey.id, answers, sealed.envelope ? JSON.stringify([placeholdersKey(body.photos) ?? null, sealed.envelope]) : placeholdersKey(body.photos)),
        search_text: searchTextOf(member.fullName, member.email, answers, form.unsearched),
        rate: member.rate,
        // A phone's clock may run ahead: a capture is never stored after its receipt (meta keeps the phone's time).
        captured_at: body.capturedAt ? Math.min(Date.parse(body.capturedAt), now) : null,
        created_at: now,
        status: survey.payAfterReview ? ResponseStatus.pending : ResponseStatus.approved,
        version: body.version ?? 1,
        meta: storedMetaOf(body, now, withSkew, audio.meta),
        pending_photos: placed.pending,
        audio: audio.column,
        encrypted: sealed.envelope ? JSON.stringify(sealed.envelope) : null,
      },
    };
  }
}

/**
 * End-to-end encryption: a survey with a public key takes its answers only sealed (`encrypted`,
 * with `answers` holding nothing but photo placeholders), so the server never holds them in clear.
 * The server cannot read the envelope, so the answers' rules are not checked here: the phone's
 * form engine, which refuses to queue what breaks them, is the gate. What the server still checks
 * is everything outside the answers: the caller, the survey, its window, the version, the
 * envelope's shape and size, the photo placeholders. A sealed response to a survey whose key was
 * removed since the phone cached it is still stored sealed: refusing it would lose it.
 */
function sealedAnswers(survey: IngestSurvey, body: RespondBody): { problem: string } | { envelope: EncryptedAnswers | null } {
  if (body.encrypted) {
    if (body.backcheckOf !== undefined) return { problem: ApiMsg.encryptedBackcheck };
    const clear = Object.keys(body.answers).filter((key) => !body.photos?.some((p) => p.question === key));
    return clear.length > 0 ? { problem: ApiMsg.encryptedWithAnswers } : { envelope: body.encrypted };
  }
  if (survey.encryptionKey !== null && body.backcheckOf === undefined) return { problem: ApiMsg.encryptionRequired };
  return { envelope: null };
}

/** Stored now or earlier with the same body by the same person: 200; anything else under that key: 409. */
function verdict(row: ResponseInsert, stored: Map<string, StoredRef>): { status: number; msg: string; _id?: string } {
  const holder = stored.get(keyOf(row.survey_id, row.client_id));
  if (holder && holder.userId === row.user_id && holder.bodyHash === row.body_hash) return { status: 200, msg: Msg.responseSent, _id: holder.id };
  return { status: 409, msg: ApiMsg.responseConflict };
}

/** A zod issue as the field user's screen shows it: naming the field unless the message already does. */
function issueText(issue: { path: readonly PropertyKey[]; message: string } | undefined): string {
  if (!issue) return 'Invalid response';
  const field = issue.path.map(String).join('.');
  return field && !issue.message.includes(String(issue.path[0])) ? `${field}: ${issue.message}` : issue.message;
}
