import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Limits, Msg, OPTION_QUESTION_TYPES, QuestionType, withQuestionIds, type CreateSurveyBody, type LargeDatasetQuery, type StoredQuestion, type Survey } from '@survey-bird/contracts';
import type { z } from 'zod';
import type { SurveyRow } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { Page } from '../../http/paging.js';
import { SurveysRepository, type Caller, type Dataset } from './repository.js';

type CreateSurvey = z.output<typeof CreateSurveyBody>;

export class SurveysService {
  readonly repo: SurveysRepository;

  constructor(app: FastifyInstance) {
    this.repo = new SurveysRepository(app.db.kysely);
  }

  /**
   * Options are trimmed (by the schema) and blanks dropped; a large select keeps its options in
   * dataset_options (duplicates dropped) and only their count in the stored question.
   */
  async create(organizationId: string, body: CreateSurvey): Promise<Survey> {
    const datasets: Dataset[] = [];
    const questions: StoredQuestion[] = withQuestionIds(body.questions).map((q) => {
      const options = q.options.filter((o) => o.length > 0);
      const rules = { ...(q.showIf ? { showIf: q.showIf } : {}), ...(q.constraint ? { constraint: q.constraint } : {}) };
      if (q.type === QuestionType.largeSelect) {
        const unique = [...new Set(options)];
        datasets.push({ question: q.text, options: unique });
        return { id: q.id, text: q.text, type: q.type, compulsory: q.compulsory, options: [], optionCount: unique.length, ...rules };
      }
      return { id: q.id, text: q.text, type: q.type, compulsory: q.compulsory, options: OPTION_QUESTION_TYPES.includes(q.type) ? options : [], ...rules };
    });
    const row: SurveyRow = {
      id: randomUUID(),
      organization_id: organizationId,
      title: body.title,
      description: body.description,
      expected_response_count: body.expectedResponseCount ?? null,
      questions: JSON.stringify(questions),
      pay_after_review: body.payAfterReview ? 1 : 0,
      created_at: Date.now(),
    };
    await this.repo.create(row, datasets);
    return toSurvey(row);
  }

  /** Only the caller's organization's survey; another's is simply not found. */
  async setPayAfterReview(surveyId: string, organizationId: string, payAfterReview: boolean): Promise<boolean> {
    if (!(await this.repo.setPayAfterReview(surveyId, organizationId, payAfterReview))) throw notFound(Msg.surveyNotFound);
    return payAfterReview;
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

/** The survey's large-select question of that text (case and outer spaces ignored); 404 for anything else. */
function largeSelect(survey: SurveyRow | undefined, text: string): { surveyId: string; question: string } {
  if (!survey) throw notFound();
  const wanted = text.trim().toLowerCase();
  const question = (JSON.parse(survey.questions) as StoredQuestion[]).find((q) => q.type === QuestionType.largeSelect && q.text.toLowerCase() === wanted);
  if (!question) throw notFound();
  return { surveyId: survey.id, question: question.text };
}

export function toSurvey(row: SurveyRow): Survey {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    organization_id: row.organization_id,
    expectedResponseCount: row.expected_response_count === null ? null : Number(row.expected_response_count),
    // Questions stored before ids (issue 17) get theirs by position: stable, as they never move.
    questions: withQuestionIds(JSON.parse(row.questions) as StoredQuestion[]),
    payAfterReview: Number(row.pay_after_review) === 1,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}
