import { z } from 'zod';
import { Limits } from '../constants.js';
import { Msg } from '../messages.js';
import { DISABLED_QUESTION_TYPES, OPTION_QUESTION_TYPES, QUESTION_TYPES, QuestionType } from '../question-types.js';
import { Id, Paging } from './common.js';

/** Options are split on commas, trimmed and blanks dropped (spec section 5). */
export function splitOptions(raw: string): string[] {
  return raw.split(',').map((o) => o.trim()).filter((o) => o.length > 0);
}

export const Question = z.object({
  text: z.string({ error: Msg.questionTextEmpty }).trim().min(1, Msg.questionTextEmpty).max(Limits.maxQuestionText, `Question text is too long (max ${Limits.maxQuestionText})`),
  type: z.enum(QUESTION_TYPES, { error: 'Unknown question type' }),
  compulsory: z.boolean().default(true),
  options: z.array(z.string().trim().max(Limits.maxOptionLength, `An option is too long (max ${Limits.maxOptionLength})`)).max(Limits.maxDatasetOptions, `Too many options (max ${Limits.maxDatasetOptions})`).default([]),
});
export type Question = z.infer<typeof Question>;

/** The rules the builder applies, shared so the server answers a bypassed UI with the same words. */
export function questionProblem(q: Pick<Question, 'text' | 'type' | 'options'>): string | null {
  if (q.text.trim().length === 0) return Msg.questionTextEmpty;
  if (DISABLED_QUESTION_TYPES.includes(q.type)) return `"${q.type}" questions are not available yet`;
  const options = q.options.map((o) => o.trim()).filter((o) => o.length > 0);
  if (OPTION_QUESTION_TYPES.includes(q.type) && options.length < Limits.minOptions) return Msg.optionsMinimum;
  if (OPTION_QUESTION_TYPES.includes(q.type) && options.length > Limits.maxOptions) return `Too many options (max ${Limits.maxOptions}); use "${QuestionType.largeSelect}"`;
  if (q.type === QuestionType.largeSelect && options.length < 1) return 'Provide the option list for this question';
  return null;
}

export const CreateSurveyBody = z
  .object({
    title: z.string({ error: Msg.provideFormTitle }).trim().min(1, Msg.provideFormTitle).max(Limits.maxTitle, `Title is too long (max ${Limits.maxTitle})`),
    description: z.string().trim().max(Limits.maxDescription, `Description is too long (max ${Limits.maxDescription})`).default(''),
    expectedResponseCount: z.number({ error: 'Expected responses must be a whole number' }).int('Expected responses must be a whole number').min(0).max(100_000_000).nullable().optional(),
    /** Responses arrive pending and are paid once approved (issue 16). */
    payAfterReview: z.boolean({ error: 'payAfterReview must be true or false' }).default(false),
    questions: z.array(Question).min(1, 'Add at least one question').max(Limits.maxQuestions, `Too many questions (max ${Limits.maxQuestions})`),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.questions.forEach((q, i) => {
      const problem = questionProblem(q);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['questions', i] });
      const key = q.text.trim().toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: Msg.duplicateQuestion, path: ['questions', i, 'text'] });
      seen.add(key);
    });
  });
export type CreateSurveyBody = z.input<typeof CreateSurveyBody>;

/** A stored question; a large-dataset question carries its option count, not its options. */
export const StoredQuestion = z.object({
  text: z.string(),
  type: z.enum(QUESTION_TYPES),
  compulsory: z.boolean(),
  options: z.array(z.string()),
  optionCount: z.number().int().optional(),
});
export type StoredQuestion = z.infer<typeof StoredQuestion>;

export const Survey = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  organization_id: z.string(),
  expectedResponseCount: z.number().int().nullable(),
  questions: z.array(StoredQuestion),
  /** Always sent by the API; optional for surveys a phone cached before it existed. */
  payAfterReview: z.boolean().optional(),
  createdAt: z.string(),
  /** The latest published version (issue 17); always sent by the API, absent in older phone caches (= 1). */
  version: z.number().int().optional(),
  /** Closed to new responses (issue 17); always sent by the API. */
  closed: z.boolean().optional(),
  /** When it was closed, null while open. */
  closedAt: z.string().nullable().optional(),
});
export type Survey = z.infer<typeof Survey>;

export const SurveyListReply = z.object({ survey: z.array(Survey), ...Paging });
export type SurveyListReply = z.infer<typeof SurveyListReply>;

export const CreateSurveyReply = z.object({ msg: z.string(), survey: Survey });
export type CreateSurveyReply = z.infer<typeof CreateSurveyReply>;

export const LargeDatasetQuery = z.object({
  organization_id: Id,
  title: z.string().max(Limits.maxTitle).optional(),
  survey_id: Id.optional(),
  question: z.string().min(1).max(Limits.maxQuestionText),
  searchQuery: z.string().trim().max(Limits.maxSearchQuery).default(''),
});
export type LargeDatasetQuery = z.infer<typeof LargeDatasetQuery>;
export const LargeDatasetReply = z.object({ options: z.array(z.string()) });
export type LargeDatasetReply = z.infer<typeof LargeDatasetReply>;

/** Whole option list of one question, for the phone's offline copy. */
export const DatasetExportQuery = z.object({ survey_id: Id, question: z.string().min(1).max(Limits.maxQuestionText) });
export type DatasetExportQuery = z.infer<typeof DatasetExportQuery>;
export const DatasetExportReply = z.object({ question: z.string(), options: z.array(z.string()) });
export type DatasetExportReply = z.infer<typeof DatasetExportReply>;

/** One published version of a survey, as Manage Survey lists them (newest first). */
export const SurveyVersion = z.object({
  version: z.number().int(),
  title: z.string(),
  description: z.string(),
  questions: z.array(StoredQuestion),
  createdAt: z.string(),
});
export type SurveyVersion = z.infer<typeof SurveyVersion>;
export const SurveyVersionListReply = z.object({ versions: z.array(SurveyVersion), ...Paging });
export type SurveyVersionListReply = z.infer<typeof SurveyVersionListReply>;

/** A row, column or cell of an imported XLSForm that was not carried over, and why. */
export const XlsformUnsupported = z.object({
  sheet: z.string(),
  /** The spreadsheet's row number (1 is the header row). */
  row: z.number().int(),
  /** The column's header, or '' for a whole row. */
  column: z.string(),
  reason: z.string(),
});
export type XlsformUnsupported = z.infer<typeof XlsformUnsupported>;

/** What the builder opens: a CreateSurveyBody not yet published, and what could not come over. */
export const XlsformImportReply = z.object({
  draft: z.object({
    title: z.string(),
    description: z.string(),
    questions: z.array(Question),
  }),
  unsupported: z.array(XlsformUnsupported),
});
export type XlsformImportReply = z.infer<typeof XlsformImportReply>;
