import { StoredQuestion, type StoredQuestion as Question } from '@survey-bird/contracts';
import { z } from 'zod';
import type { IngestSurveyRow, ResponsesRepository } from './responses-repository.js';

/** What validating an answer needs to know about a survey, parsed once. */
export interface IngestSurvey {
  id: string;
  organizationId: string;
  questions: Map<string, Question>;
  compulsory: string[];
  /** New responses arrive pending (true) or approved. */
  payAfterReview: boolean;
}

const Questions = z.array(StoredQuestion);

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
  const questions = Questions.parse(JSON.parse(row.questions));
  return {
    id: row.id,
    organizationId: row.organizationId,
    questions: new Map(questions.map((q) => [q.text, q])),
    compulsory: questions.filter((q) => q.compulsory).map((q) => q.text),
    payAfterReview: row.payAfterReview,
  };
}
