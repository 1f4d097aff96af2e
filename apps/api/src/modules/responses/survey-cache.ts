import { StoredQuestion, TYPED_QUESTION_TYPES, withQuestionIds, type StoredQuestion as Question } from '@survey-bird/contracts';
import { z } from 'zod';
import type { IngestSurveyRow, ResponsesRepository } from './responses-repository.js';

/** What validating an answer needs to know about a survey, parsed once. */
export interface IngestSurvey {
  id: string;
  organizationId: string;
  questions: Map<string, Question>;
  /** In form order, each with its id: what the evaluator (issue 17) reads. */
  ordered: Question[];
  /** The compulsory questions, in form order. */
  compulsory: Question[];
  /** Some question carries a show-if condition (else every question is shown). */
  hasShowIf: boolean;
  /** The questions whose answers are normalised. */
  typed: Question[];
  /** New responses arrive pending (true) or approved. */
  payAfterReview: boolean;
}

// Questions stored before ids (issue 17) have none: they get theirs by position, as the survey reply does.
const Questions = z.array(StoredQuestion.extend({ id: z.string().optional() }));

/**
 * Surveys of the last few minutes, parsed. Questions are fixed once a survey is published, so a
 * short TTL only bounds how long a deleted survey lingers; the size cap bounds memory. Settings
 * (pay after review) can change: a write to surveys by this process (`generation`) drops the cache.
 */
export class SurveyCache {
  private readonly entries = new Map<string, { survey: IngestSurvey; expires: number; generation: number }>();

  constructor(
    private readonly repo: Pick<ResponsesRepository, 'survey'>,
    private readonly generation: () => number = () => 0,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 500,
  ) {}

  async get(surveyId: string): Promise<IngestSurvey | undefined> {
    const hit = this.entries.get(surveyId);
    const now = Date.now();
    const generation = this.generation();
    if (hit && hit.expires > now && hit.generation === generation) {
      // Re-insert so Map order is least-recently-used first.
      this.entries.delete(surveyId);
      this.entries.set(surveyId, hit);
      return hit.survey;
    }
    const row = await this.repo.survey(surveyId);
    if (!row) return undefined;
    const survey = parse(row);
    this.entries.delete(surveyId);
    this.entries.set(surveyId, { survey, expires: now + this.ttlMs, generation });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return survey;
  }
}

function parse(row: IngestSurveyRow): IngestSurvey {
  const questions = withQuestionIds(Questions.parse(JSON.parse(row.questions)));
  return {
    id: row.id,
    organizationId: row.organizationId,
    questions: new Map(questions.map((q) => [q.text, q])),
    ordered: questions,
    compulsory: questions.filter((q) => q.compulsory),
    hasShowIf: questions.some((q) => q.showIf !== undefined),
    typed: questions.filter((q) => TYPED_QUESTION_TYPES.includes(q.type)),
    payAfterReview: row.payAfterReview,
  };
}
