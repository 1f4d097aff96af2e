import { type CompiledForm, UPLOAD_QUESTION_TYPES, modelOf, OPTION_QUESTION_TYPES, QuestionType, StoredQuestion, TYPED_QUESTION_TYPES, withQuestionIds, type StoredQuestion as Question , type SurveyAudioAudit } from '@survey-bird/contracts';
import { readAudioAudit } from '../audio/settings.js';
import { z } from 'zod';
import type { IngestSurveyRow, ResponsesRepository } from './responses-repository.js';

/** What validating an answer needs to know about one version of a survey's questions, parsed once. */
export interface IngestForm {
  questions: Map<string, Question>;
  /** In form order, each with its id: what the evaluator reads. */
  ordered: Question[];
  /** The compulsory questions, in form order. */
  compulsory: Question[];
  /** Some question carries a show-if condition (else every question is shown). */
  hasShowIf: boolean;
  /** The questions whose answers are normalised. */
  typed: Question[];
  /** Per select and checkbox question (by id), its options: an answer is one of them (checkbox: each). */
  options: Map<string, Set<string>>;
  /** Some question is a large select, whose answer is checked against the version's dataset. */
  hasLargeSelect: boolean;
  /** The texts of the photo and file questions, whose answers stay out of the search text. */
  unsearched: Set<string>;
  /** The compiled form when it uses the XLSForm model (groups, repeats, expressions): the form engine checks it. */
  model: CompiledForm | null;
}

/** The survey as ingest sees it: its latest version's form, settings, and whether it is closed. */
export interface IngestSurvey extends IngestForm {
  id: string;
  organizationId: string;
  /** New responses arrive pending (true) or approved. */
  payAfterReview: boolean;
  /** The latest published version; its form is this object's own. */
  version: number;
  /** When it was closed to new responses (epoch ms); null while open. */
  closedAt: number | null;
  /** When it was created (epoch ms). */
  createdAt: number;
  /** The audio audit; null when off. */
  audioAudit: SurveyAudioAudit | null;
  /** End-to-end encryption's public key: answers arrive sealed to it and are stored unread; null: in clear. */
  encryptionKey: string | null;
}

// Questions stored before ids have none: they get theirs by position, as the survey reply does.
const Questions = z.array(StoredQuestion.extend({ id: z.string().optional() }));

/**
 * Surveys of the last few minutes, parsed. A version's questions never change once published, so a
 * short TTL only bounds how long a deleted survey lingers; the size cap bounds memory. Settings
 * (pay after review, closed) and the latest version can change: a write to surveys by this process
 * (`generation`) drops the cache. Older versions (responses queued offline before an edit) are kept
 * apart, by survey and version, and never go stale.
 */
export class SurveyCache {
  private readonly entries = new Map<string, { survey: IngestSurvey; expires: number; generation: number }>();
  private readonly older = new Map<string, IngestForm>();

  constructor(
    private readonly repo: Pick<ResponsesRepository, 'survey' | 'versionQuestions'>,
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

  /** The form of `version` of this survey: its own for the latest, else read once; undefined if none. */
  async form(survey: IngestSurvey, version: number): Promise<IngestForm | undefined> {
    if (version === survey.version) return survey;
    if (version > survey.version || version < 1) return undefined;
    const key = `${survey.id}\u0000${version}`;
    const hit = this.older.get(key);
    if (hit) return hit;
    const questions = await this.repo.versionQuestions(survey.id, version);
    if (questions === undefined) return undefined;
    const form = formOf(questions);
    this.older.set(key, form);
    if (this.older.size > this.maxEntries) this.older.delete(this.older.keys().next().value!);
    return form;
  }
}

/** A form's questions (JSON) parsed for checking answers; a back-check form is checked the same way. */
export function formOf(json: string): IngestForm {
  const questions = withQuestionIds(Questions.parse(JSON.parse(json)));
  return {
    questions: new Map(questions.map((q) => [q.text, q])),
    ordered: questions,
    compulsory: questions.filter((q) => q.compulsory),
    hasShowIf: questions.some((q) => q.showIf !== undefined),
    typed: questions.filter((q) => TYPED_QUESTION_TYPES.includes(q.type)),
    // With choices, an answer stores the choice's name (labels repeat across filter groups).
    options: new Map(questions.filter((q) => OPTION_QUESTION_TYPES.includes(q.type)).map((q) => [q.id, new Set(q.choices ? q.choices.map((c) => c.name) : q.options)])),
    hasLargeSelect: questions.some((q) => q.type === QuestionType.largeSelect),
    unsearched: new Set(questions.filter((q) => UPLOAD_QUESTION_TYPES.includes(q.type) || q.type === QuestionType.files).map((q) => q.text)),
    model: modelOf(questions),
  };
}

function parse(row: IngestSurveyRow): IngestSurvey {
  return {
    id: row.id,
    organizationId: row.organizationId,
    ...formOf(row.questions),
    payAfterReview: row.payAfterReview,
    version: row.version,
    closedAt: row.closedAt,
    createdAt: row.createdAt,
    audioAudit: readAudioAudit(row.audioAudit),
    encryptionKey: row.encryptionKey,
  };
}
