import { randomUUID } from 'node:crypto';
import type { Deps } from '../../plugins/deps.js';
import type { BackchecksService } from '../backchecks/service.js';
import { ApiMsg, AuditAction, type CreateSurveyBody, FormFields, OfficeMsg, type LargeDatasetQuery, Limits, OPTION_QUESTION_TYPES, PhotoQuality, QuestionType, Role, type StoredQuestion, type Survey, type SurveySettingsBody, type SurveySettingsReply, SurveyFormSettings, withQuestionIds } from '@survey-bird/contracts';
import type { z } from 'zod';
import type { SurveyRow } from '../../db/schema.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Page } from '../../http/paging.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { changedFields, recordAudit, type AuditActor } from '../audit/record.js';
import { audioAuditForFieldUser, readAudioAudit, readPayGate } from '../audio/settings.js';
import { SurveysRepository, type Dataset, type SurveyReader } from './repository.js';
import { formIdOf, xlsformSheets } from './xlsform-export.js';
import { personalIdsOf } from '../privacy/personal-keys.js';

type CreateSurvey = z.output<typeof CreateSurveyBody>;

export class SurveysService {
  private readonly repo: SurveysRepository;

  constructor(private readonly deps: Pick<Deps, 'db'>, private readonly backchecks: BackchecksService) {
    this.repo = new SurveysRepository(deps.db.kysely);
  }

  /**
   * Options are trimmed (by the schema) and blanks dropped; a large select keeps its options in
   * dataset_options (duplicates dropped) and only their count in the stored question.
   */
  async create(office: OfficeActor, body: CreateSurvey, actor: AuditActor): Promise<Survey> {
    // A survey-limited office user could not see the survey they made.
    if (office.surveys !== 'all') throw forbidden(OfficeMsg.limitedCannot);
    const { organizationId } = office;
    const { questions, datasets } = storedQuestions(withQuestionIds(body.questions));
    const row: SurveyRow = {
      id: randomUUID(),
      organization_id: organizationId,
      title: body.title,
      description: body.description,
      expected_response_count: body.expectedResponseCount ?? null,
      questions: JSON.stringify(questions),
      pay_after_review: body.payAfterReview ? 1 : 0,
      created_at: Date.now(),
      version: 1,
      closed_at: null,
      min_duration_s: null,
      max_accuracy_m: null,
      photo_quality: body.photoQuality ?? PhotoQuality.standard,
      form_settings: formSettingsOf(body),
      retention_days: null,
      retention_warned_at: null,
      retention_done_at: null,
      audio_audit: null,
      pay_gate: null,
      encryption_key: null,
    };
    await this.repo.create(row, datasets, (trx) => recordAudit(trx, actor, {
      organizationId, action: AuditAction.publishSurvey, surveyId: row.id, target: { type: 'survey', id: row.id, label: row.title },
      after: { title: row.title, version: 1, questions: questions.length, payAfterReview: body.payAfterReview ?? false },
    }));
    return toSurvey(row);
  }

  /**
   * Publishes version n+1 of the caller's survey from a create body. Pay after review is a setting
   * (PATCH .../settings), not part of a version, so the body's is ignored here.
   */
  async update(surveyId: string, office: OfficeActor, body: CreateSurvey, actor: AuditActor): Promise<Survey> {
    const { organizationId } = office;
    const current = await this.repo.findOwn(surveyId, office);
    if (!current) throw notFound(ApiMsg.surveyNotFound);
    const currentQuestions = withQuestionIds(JSON.parse(current.questions) as StoredQuestion[]);
    const { questions, datasets } = storedQuestions(keptMarks(idsForNextVersion(body.questions, currentQuestions), currentQuestions));
    const next = { title: body.title, description: body.description, expected_response_count: body.expectedResponseCount ?? null, questions: JSON.stringify(questions), form_settings: formSettingsOf(body) };
    const row = await this.repo.publishVersion(surveyId, office, next, datasets, Date.now(), (before, after, trx) => recordAudit(trx, actor, {
      organizationId, action: AuditAction.editSurvey, surveyId, target: { type: 'survey', id: surveyId, label: after.title },
      before: { title: before.title, version: Number(before.version), questions: (JSON.parse(before.questions) as unknown[]).length },
      after: { title: after.title, version: Number(after.version), questions: questions.length },
    }));
    if (!row) throw notFound(ApiMsg.surveyNotFound);
    return toSurvey(row);
  }

  async versions(surveyId: string, actor: OfficeActor, page: Page) {
    const survey = await this.repo.findOwn(surveyId, actor);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    let { rows, total } = await this.repo.listVersions(surveyId, page);
    // A survey written without its version row (by an instance older than versions) lists its current form as that version.
    if (total === 0) {
      rows = page.offset === 0 ? [{ survey_id: surveyId, version: survey.version, title: survey.title, description: survey.description, questions: survey.questions, created_at: survey.created_at, form_settings: survey.form_settings ?? null }] : [];
      total = 1;
    }
    return {
      expectedResponseCount: survey.expected_response_count === null ? null : Number(survey.expected_response_count),
      rows: rows.map((r) => ({ version: Number(r.version), title: r.title, description: r.description, questions: JSON.parse(r.questions) as StoredQuestion[], createdAt: new Date(Number(r.created_at)).toISOString(), ...readFormSettings(r.form_settings) })),
      total,
    };
  }

  /** Only the caller's organization's survey; another's is simply not found. */
  async setSettings(surveyId: string, office: OfficeActor, body: SurveySettingsBody, actor: AuditActor): Promise<Omit<SurveySettingsReply, 'msg'>> {
    const { organizationId } = office;
    const { backcheck, ...settings } = body;
    if (settings.personalQuestionIds !== undefined) {
      const current = await this.repo.findOwn(surveyId, office);
      if (!current) throw notFound(ApiMsg.surveyNotFound);
      const known = new Set((await this.repo.versionQuestionIds(surveyId, current.questions)));
      const unknown = settings.personalQuestionIds.find((id) => !known.has(id));
      if (unknown !== undefined) throw badRequest(`personalQuestionIds: no question of this survey has the id "${unknown.slice(0, 64)}"`);
    }
    const always = settings.audioAudit?.alwaysFieldUserIds ?? [];
    if (always.length > 0 && (await this.repo.notFieldUsers(surveyId, always)).length > 0) throw badRequest('audioAudit.alwaysFieldUserIds must be field users of this survey');
    const now = Date.now();
    const hasOwn = Object.values(settings).some((v) => v !== undefined);
    // The survey's own columns and the back-check settings commit together, in one transaction.
    const saved = await this.deps.db.kysely.transaction().execute(async (trx) => {
      const row = hasOwn
        ? await this.repo.setSettings(surveyId, office, settings, now, async (before, after, tx) => {
          const change = changedFields(settingsOf(before), settingsOf(after));
          if (!change) return;
          const closing = change.after.closed;
          const action = closing === true ? AuditAction.closeSurvey : closing === false ? AuditAction.reopenSurvey : AuditAction.surveySettings;
          await recordAudit(tx, actor, { organizationId, action, surveyId, target: { type: 'survey', id: surveyId, label: after.title }, ...change });
        }, trx)
        : await this.repo.findOwn(surveyId, office, trx);
      if (!row) return undefined;
      const checks = backcheck ? await this.backchecks.saveSettings(trx, row, backcheck, actor, now) : await this.backchecks.settings(surveyId, trx);
      return { row, checks };
    });
    if (!saved) throw notFound(ApiMsg.surveyNotFound);
    const { row, checks } = saved;
    return {
      payAfterReview: Number(row.pay_after_review) === 1, closed: row.closed_at !== null, minDurationSeconds: orNull(row.min_duration_s), maxAccuracyMeters: orNull(row.max_accuracy_m), photoQuality: photoQualityOf(row.photo_quality),
      personalQuestionIds: personalIdsOf(row.questions), retentionDays: orNull(row.retention_days), audioAudit: readAudioAudit(row.audio_audit), payGate: readPayGate(row.pay_gate), backcheck: checks, encryptionKey: row.encryption_key ?? null,
    };
  }

  /** The caller's survey at its latest version as XLSForm sheets (large selects with their whole list). */
  async xlsform(surveyId: string, actor: OfficeActor): Promise<{ title: string; sheets: Record<string, string[][]> }> {
    const row = await this.repo.findOwn(surveyId, actor);
    if (!row) throw notFound(ApiMsg.surveyNotFound);
    const survey = toSurvey(row);
    const datasets = new Map<string, string[]>();
    for (const q of survey.questions) if (q.type === QuestionType.largeSelect && !q.choices && q.options.length === 0) datasets.set(q.text, await this.repo.allOptions(surveyId, q.text));
    const sheets = xlsformSheets({ ...survey, formId: survey.formId ?? formIdOf(survey.title), version: survey.version ?? 1 }, (q) => datasets.get(q.text) ?? []);
    return { title: survey.title, sheets };
  }

  async list(caller: SurveyReader, page: Page, search: string) {
    const { rows, total } = await this.repo.list(caller, page, search);
    const surveys = rows.map(toSurvey);
    if (caller.role !== Role.fieldUser) return { rows: surveys, total };
    // A phone learns only whether its own field user is always recorded, not who else is.
    const mine = await this.repo.memberIdsOf(caller.userId, surveys.filter((s) => s.audioAudit).map((s) => s._id));
    // Whether the field user back-checks others' work here: their phone shows Back-checks only then.
    const checking = await this.repo.backcheckerSurveyIds(caller.userId, surveys.map((s) => s._id));
    return { rows: surveys.map((s) => ({ ...s, audioAudit: audioAuditForFieldUser(s.audioAudit ?? null, mine), backchecker: checking.has(s._id) })), total };
  }

  async searchDataset(caller: SurveyReader, query: LargeDatasetQuery): Promise<string[]> {
    if (query.survey_id === undefined && query.title === undefined) throw badRequest('Provide survey_id or title');
    const survey = await this.repo.findAccessible(caller, { surveyId: query.survey_id, organizationId: query.organization_id, title: query.title });
    const { surveyId, question } = largeSelect(survey, query.question);
    return this.repo.searchOptions(surveyId, question, query.searchQuery, Limits.datasetSearchLimit);
  }

  async exportDataset(caller: SurveyReader, surveyId: string, questionText: string): Promise<{ question: string; options: string[] }> {
    const found = largeSelect(await this.repo.findAccessible(caller, { surveyId }), questionText);
    return { question: found.question, options: await this.repo.allOptions(found.surveyId, found.question) };
  }
}

type BodyQuestion = CreateSurvey['questions'][number];

/** The questions as stored, and the option lists of the large selects (kept apart, in dataset_options). */
function storedQuestions(input: (BodyQuestion & { id: string })[]): { questions: StoredQuestion[]; datasets: Dataset[] } {
  const datasets: Dataset[] = [];
  const questions: StoredQuestion[] = input.map((q) => {
    const options = q.options.filter((o) => o.length > 0);
    const rules = { ...(q.showIf ? { showIf: q.showIf } : {}), ...(q.constraint ? { constraint: q.constraint } : {}), ...formFieldsOf(q) };
    if (q.type === QuestionType.largeSelect) {
      const unique = [...new Set(options)];
      datasets.push({ question: q.text, options: unique });
      return { id: q.id, text: q.text, type: q.type, compulsory: q.compulsory, options: [], optionCount: unique.length, ...rules };
    }
    return { id: q.id, text: q.text, type: q.type, compulsory: q.compulsory, options: OPTION_QUESTION_TYPES.includes(q.type) ? options : [], ...rules };
  });
  return { questions, datasets };
}

/** The XLSForm model's fields the question carries (none for a builder's plain question, so its stored JSON is as before). */
function formFieldsOf(q: BodyQuestion): Partial<Pick<StoredQuestion, keyof typeof FormFields>> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(FormFields) as (keyof typeof FormFields)[]) if (q[key] !== undefined) out[key] = q[key];
  return out;
}

/**
 * Ids of the next version's questions: the one sent (the builder keeps them), else that of the
 * current version's question of the same text (a client that does not send ids keeps its columns),
 * else a new one no version has used (random, so a new question never takes a removed one's column).
 */
function idsForNextVersion(input: BodyQuestion[], current: StoredQuestion[]): (BodyQuestion & { id: string })[] {
  const byText = new Map(current.map((q) => [q.text.trim().toLowerCase(), q.id]));
  const taken = new Set(input.flatMap((q) => (q.id === undefined ? [] : [q.id])));
  return input.map((q) => {
    if (q.id !== undefined) return { ...q, id: q.id };
    const same = byText.get(q.text.trim().toLowerCase());
    let id = same !== undefined && !taken.has(same) ? same : `q${randomUUID().slice(0, 8)}`;
    while (taken.has(id)) id = `q${randomUUID().slice(0, 8)}`;
    taken.add(id);
    return { ...q, id };
  });
}

/** A question sent without a personal mark keeps its current one (a client that does not know the mark never clears it). */
function keptMarks<Q extends { id: string; personal?: boolean | undefined }>(input: Q[], current: StoredQuestion[]): Q[] {
  const marks = new Map(current.flatMap((q) => (q.personal === undefined ? [] : [[q.id, q.personal] as const])));
  return input.map((q) => (q.personal === undefined && marks.has(q.id) ? { ...q, personal: marks.get(q.id) } : q));
}

/** The survey's large-select question of that text (case and outer spaces ignored); 404 for anything else. */
function largeSelect(survey: SurveyRow | undefined, text: string): { surveyId: string; question: string } {
  if (!survey) throw notFound();
  const wanted = text.trim().toLowerCase();
  const question = (JSON.parse(survey.questions) as StoredQuestion[]).find((q) => q.type === QuestionType.largeSelect && q.text.toLowerCase() === wanted);
  if (!question) throw notFound();
  return { surveyId: survey.id, question: question.text };
}

/** A nullable integer column (PostgreSQL's bigint arrives as a string). */
const orNull = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v));

/** The stored setting; anything else (nothing writes it) reads as standard, the phone's default too. */
const photoQualityOf = (stored: string | undefined): PhotoQuality => (stored === PhotoQuality.high ? PhotoQuality.high : PhotoQuality.standard);

/** The body's form-wide settings as stored (JSON), or null when it has none (a builder-made survey). */
function formSettingsOf(body: CreateSurvey): string | null {
  const settings: SurveyFormSettings = {};
  if (body.languages && body.languages.length > 0) settings.languages = body.languages;
  if (body.defaultLanguage !== undefined) settings.defaultLanguage = body.defaultLanguage;
  if (body.formId !== undefined) settings.formId = body.formId;
  if (body.instanceName !== undefined) settings.instanceName = body.instanceName;
  return Object.keys(settings).length > 0 ? JSON.stringify(settings) : null;
}

/** Stored settings back; none (null, absent in a row from before the column) reads as {}. */
export function readFormSettings(stored: string | null | undefined): SurveyFormSettings {
  if (!stored) return {};
  const parsed = SurveyFormSettings.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : {};
}

export function toSurvey(row: SurveyRow): Survey {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    organization_id: row.organization_id,
    expectedResponseCount: row.expected_response_count === null ? null : Number(row.expected_response_count),
    // Questions stored before ids get theirs by position: stable, as they never move.
    questions: withQuestionIds(JSON.parse(row.questions) as StoredQuestion[]),
    payAfterReview: Number(row.pay_after_review) === 1,
    photoQuality: photoQualityOf(row.photo_quality),
    minDurationSeconds: orNull(row.min_duration_s),
    maxAccuracyMeters: orNull(row.max_accuracy_m),
    createdAt: new Date(Number(row.created_at)).toISOString(),
    version: Number(row.version ?? 1),
    closed: row.closed_at !== null && row.closed_at !== undefined,
    audioAudit: readAudioAudit(row.audio_audit),
    payGate: readPayGate(row.pay_gate),
    closedAt: row.closed_at === null || row.closed_at === undefined ? null : new Date(Number(row.closed_at)).toISOString(),
    retentionDays: orNull(row.retention_days),
    encryptionKey: row.encryption_key ?? null,
    ...readFormSettings(row.form_settings),
  };
}

/** A survey's settings as the audit log compares them. */
function settingsOf(row: SurveyRow) {
  const audio = readAudioAudit(row.audio_audit);
  return { payAfterReview: Number(row.pay_after_review) === 1, closed: row.closed_at !== null, minDurationSeconds: orNull(row.min_duration_s), maxAccuracyMeters: orNull(row.max_accuracy_m), photoQuality: row.photo_quality, personalQuestionIds: personalIdsOf(row.questions).join(', '), retentionDays: orNull(row.retention_days), audioAudit: audio && { percent: audio.percent, consentText: audio.consentText, alwaysFieldUserIds: audio.alwaysFieldUserIds }, payGate: readPayGate(row.pay_gate), encryptionKey: row.encryption_key ?? null };
}
