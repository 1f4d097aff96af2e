import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiMsg, type CreateSurveyBody, type LargeDatasetQuery, Limits, OPTION_QUESTION_TYPES, PhotoQuality, QuestionType, type StoredQuestion, type Survey, type SurveySettingsBody, type SurveySettingsReply, withQuestionIds } from '@survey-bird/contracts';
import type { z } from 'zod';
import type { SurveyRow } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { Page } from '../../http/paging.js';
import { SurveysRepository, type Caller, type Dataset } from './repository.js';

type CreateSurvey = z.output<typeof CreateSurveyBody>;

export class SurveysService {
  private readonly repo: SurveysRepository;

  constructor(app: FastifyInstance) {
    this.repo = new SurveysRepository(app.db.kysely);
  }

  /**
   * Options are trimmed (by the schema) and blanks dropped; a large select keeps its options in
   * dataset_options (duplicates dropped) and only their count in the stored question.
   */
  async create(organizationId: string, body: CreateSurvey): Promise<Survey> {
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
    };
    await this.repo.create(row, datasets);
    return toSurvey(row);
  }

  /**
   * Publishes version n+1 of the caller's survey from a create body. Pay after review is a setting
   * (PATCH .../settings), not part of a version, so the body's is ignored here.
   */
  async update(surveyId: string, organizationId: string, body: CreateSurvey): Promise<Survey> {
    const current = await this.repo.findOwn(surveyId, organizationId);
    if (!current) throw notFound(ApiMsg.surveyNotFound);
    const { questions, datasets } = storedQuestions(idsForNextVersion(body.questions, withQuestionIds(JSON.parse(current.questions) as StoredQuestion[])));
    const next = { title: body.title, description: body.description, expected_response_count: body.expectedResponseCount ?? null, questions: JSON.stringify(questions) };
    const row = await this.repo.publishVersion(surveyId, organizationId, next, datasets, Date.now());
    if (!row) throw notFound(ApiMsg.surveyNotFound);
    return toSurvey(row);
  }

  async versions(surveyId: string, organizationId: string, page: Page) {
    if (!(await this.repo.findOwn(surveyId, organizationId))) throw notFound(ApiMsg.surveyNotFound);
    const { rows, total } = await this.repo.listVersions(surveyId, page);
    return {
      rows: rows.map((r) => ({ version: Number(r.version), title: r.title, description: r.description, questions: JSON.parse(r.questions) as StoredQuestion[], createdAt: new Date(Number(r.created_at)).toISOString() })),
      total,
    };
  }

  /** Only the caller's organization's survey; another's is simply not found. */
  async setSettings(surveyId: string, organizationId: string, settings: SurveySettingsBody): Promise<Omit<SurveySettingsReply, 'msg'>> {
    const row = await this.repo.setSettings(surveyId, organizationId, settings, Date.now());
    if (!row) throw notFound(ApiMsg.surveyNotFound);
    return { payAfterReview: Number(row.pay_after_review) === 1, closed: row.closed_at !== null, minDurationSeconds: orNull(row.min_duration_s), maxAccuracyMeters: orNull(row.max_accuracy_m), photoQuality: photoQualityOf(row.photo_quality) };
  }

  async list(caller: Caller, page: Page, search: string) {
    const { rows, total } = await this.repo.list(caller, page, search);
    return { rows: rows.map(toSurvey), total };
  }

  async searchDataset(caller: Caller, query: LargeDatasetQuery): Promise<string[]> {
    if (query.survey_id === undefined && query.title === undefined) throw badRequest('Provide survey_id or title');
    const survey = await this.repo.findAccessible(caller, { surveyId: query.survey_id, organizationId: query.organization_id, title: query.title });
    const { surveyId, question } = largeSelect(survey, query.question);
    return this.repo.searchOptions(surveyId, question, query.searchQuery, Limits.datasetSearchLimit);
  }

  async exportDataset(caller: Caller, surveyId: string, questionText: string): Promise<{ question: string; options: string[] }> {
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
    const rules = { ...(q.showIf ? { showIf: q.showIf } : {}), ...(q.constraint ? { constraint: q.constraint } : {}) };
    if (q.type === QuestionType.largeSelect) {
      const unique = [...new Set(options)];
      datasets.push({ question: q.text, options: unique });
      return { id: q.id, text: q.text, type: q.type, compulsory: q.compulsory, options: [], optionCount: unique.length, ...rules };
    }
    return { id: q.id, text: q.text, type: q.type, compulsory: q.compulsory, options: OPTION_QUESTION_TYPES.includes(q.type) ? options : [], ...rules };
  });
  return { questions, datasets };
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
    closedAt: row.closed_at === null || row.closed_at === undefined ? null : new Date(Number(row.closed_at)).toISOString(),
  };
}
