import { z } from 'zod';
import { Limits, PhotoEncoding, type PhotoQuality } from '../constants.js';
import { ApiMsg } from '../api-messages.js';
import { Msg } from '../messages.js';
import { ruleProblems } from '../form-rules/evaluate.js';
import { Constraint, ShowIf } from '../form-rules/rules.js';
import { parseDate, parseTime } from '../form-rules/values.js';
import { LENGTH_QUESTION_TYPES, NO_ANSWER_QUESTION_TYPES, RANGE_QUESTION_TYPES, SHORT_ANSWER_ALIAS, canonicalQuestionType } from '../question-rules.js';
import { DISABLED_QUESTION_TYPES, OPTION_QUESTION_TYPES, QUESTION_TYPES, QuestionType } from '../question-types.js';
import { Id, Paging } from './common.js';

/** Options are split on commas, trimmed and blanks dropped (spec section 5). */
export function splitOptions(raw: string): string[] {
  return raw.split(',').map((o) => o.trim()).filter((o) => o.length > 0);
}

/** A stable question id: answers and conditions refer to it; the server mints one when absent. */
export const QUESTION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const QuestionId = z.string({ error: 'A question id must be text' }).regex(QUESTION_ID_PATTERN, 'A question id is 1 to 64 letters, digits, "_" or "-"');

/** What a client may write as a type: the stored types plus the spec's 'short answer' alias. */
const QuestionTypeInput = z
  .enum([...QUESTION_TYPES, SHORT_ANSWER_ALIAS], { error: 'Unknown question type' })
  .transform((t) => canonicalQuestionType(t) as QuestionType);

export const Question = z
  .object({
    id: QuestionId.optional(),
    text: z.string({ error: ApiMsg.questionTextEmpty }).trim().min(1, ApiMsg.questionTextEmpty).max(Limits.maxQuestionText, `Question text is too long (max ${Limits.maxQuestionText})`),
    type: QuestionTypeInput,
    compulsory: z.boolean().default(true),
    options: z.array(z.string().trim().max(Limits.maxOptionLength, `An option is too long (max ${Limits.maxOptionLength})`)).max(Limits.maxDatasetOptions, `Too many options (max ${Limits.maxDatasetOptions})`).default([]),
    showIf: ShowIf.optional(),
    constraint: Constraint.optional(),
  })
  // A note takes no answer: never compulsory.
  .transform((q) => (NO_ANSWER_QUESTION_TYPES.includes(q.type) ? { ...q, compulsory: false } : q));
export type Question = z.infer<typeof Question>;

/** Whether a constraint fits its question's type; the same words in the builder and the API. */
export function constraintProblem(type: QuestionType, c: Constraint | undefined): string | null {
  if (c === undefined) return null;
  const hasRange = c.min !== undefined || c.max !== undefined;
  const hasLength = c.minLength !== undefined || c.maxLength !== undefined;
  if (hasRange && !RANGE_QUESTION_TYPES.includes(type)) return `Min and max apply to number, decimal, date and time questions, not "${type}"`;
  if (hasLength && !LENGTH_QUESTION_TYPES.includes(type)) return `Min and max length apply to text answer and barcode questions, not "${type}"`;
  if (c.notInFuture && type !== QuestionType.date) return '"Not in the future" applies to date questions only';
  for (const limit of [c.min, c.max]) {
    if (limit === undefined) continue;
    if ((type === QuestionType.number || type === QuestionType.decimal) && typeof limit !== 'number') return 'Min and max of a number question must be numbers';
    if (type === QuestionType.number && !Number.isInteger(limit)) return 'Min and max of a whole-number question must be whole numbers';
    if (type === QuestionType.date && (typeof limit !== 'string' || parseDate(limit) === null)) return 'Min and max of a date question must be dates (YYYY-MM-DD)';
    if (type === QuestionType.time && (typeof limit !== 'string' || parseTime(limit) === null)) return 'Min and max of a time question must be times (HH:MM)';
  }
  return null;
}

/** The rules the builder applies, shared so the server answers a bypassed UI with the same words. */
export function questionProblem(q: Pick<Question, 'text' | 'type' | 'options'> & { constraint?: Constraint | undefined }): string | null {
  if (q.text.trim().length === 0) return ApiMsg.questionTextEmpty;
  if (DISABLED_QUESTION_TYPES.includes(q.type)) return `"${q.type}" questions are not available yet`;
  const options = q.options.map((o) => o.trim()).filter((o) => o.length > 0);
  if (OPTION_QUESTION_TYPES.includes(q.type) && options.length < Limits.minOptions) return ApiMsg.optionsMinimum;
  if (OPTION_QUESTION_TYPES.includes(q.type) && options.length > Limits.maxOptions) return `Too many options (max ${Limits.maxOptions}); use "${QuestionType.largeSelect}"`;
  if (q.type === QuestionType.largeSelect && options.length < 1) return 'Provide the option list for this question';
  return constraintProblem(q.type, q.constraint);
}

/**
 * Problems with the questions' ids and show-if conditions, each with the index of the question it
 * is about: ids unique, conditions only on earlier questions (by id), never on a note.
 */
export function questionRulesProblems(questions: readonly Pick<Question, 'id' | 'text' | 'type' | 'compulsory' | 'showIf' | 'constraint'>[]): { index: number; message: string }[] {
  const out: { index: number; message: string }[] = [];
  const keyed = questions.map((q, i) => ({ ...q, id: q.id ?? `#${i}` }));
  const index = new Map<string, number>();
  keyed.forEach((q, i) => {
    if (index.has(q.id)) out.push({ index: i, message: `Two questions share the id "${q.id}"` });
    else index.set(q.id, i);
  });
  keyed.forEach((q, i) => {
    // A question without an id cannot be named by a condition (its id is minted at publish).
    if (q.showIf?.conditions.some((c) => !QUESTION_ID_PATTERN.test(c.question))) out.push({ index: i, message: `"${q.text}": A condition can only use an earlier question` });
  });
  for (const p of ruleProblems(keyed)) out.push({ index: index.get(p.question) ?? 0, message: `"${p.text}": ${p.message}` });
  keyed.forEach((q, i) => {
    for (const c of q.showIf?.conditions ?? []) {
      const source = index.get(c.question);
      if (source !== undefined && source < i && NO_ANSWER_QUESTION_TYPES.includes(keyed[source]!.type)) out.push({ index: i, message: `"${q.text}": A condition cannot use a note, which has no answer` });
    }
  });
  return out;
}

/**
 * The photo-quality settings, from the table the phone reads (here, not beside it in constants.ts:
 * the form's shared chunk carries constants.ts, and only the schemas need the list).
 */
export const PHOTO_QUALITIES = Object.keys(PhotoEncoding) as [PhotoQuality, ...PhotoQuality[]];
export const PhotoQualityInput = z.enum(PHOTO_QUALITIES, { error: 'photoQuality must be "standard" or "high"' });

export const CreateSurveyBody = z
  .object({
    title: z.string({ error: Msg.provideFormTitle }).trim().min(1, Msg.provideFormTitle).max(Limits.maxTitle, `Title is too long (max ${Limits.maxTitle})`),
    description: z.string().trim().max(Limits.maxDescription, `Description is too long (max ${Limits.maxDescription})`).default(''),
    expectedResponseCount: z.number({ error: 'Expected responses must be a whole number' }).int('Expected responses must be a whole number').min(0).max(100_000_000).nullable().optional(),
    /** Responses arrive pending and are paid once approved. */
    payAfterReview: z.boolean({ error: 'payAfterReview must be true or false' }).default(false),
    /** How the phone shrinks photos, standard when absent; a setting, so PUT ignores it (PATCH .../settings). */
    photoQuality: PhotoQualityInput.optional(),
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
    for (const p of questionRulesProblems(body.questions)) ctx.addIssue({ code: 'custom', message: p.message, path: ['questions', p.index] });
  });
export type CreateSurveyBody = z.input<typeof CreateSurveyBody>;

/** A stored question; a large-dataset question carries its option count, not its options. */
export const StoredQuestion = z.object({
  /** Stable question id; a survey stored before ids gets `q<position>` when read (its questions never move). */
  id: z.string(),
  text: z.string(),
  type: z.enum(QUESTION_TYPES),
  compulsory: z.boolean(),
  options: z.array(z.string()),
  optionCount: z.number().int().optional(),
  showIf: ShowIf.optional(),
  constraint: Constraint.optional(),
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
  /** Always sent by the API; absent in older phone caches (= standard). */
  photoQuality: z.enum(PHOTO_QUALITIES).optional(),
  /** too_fast below this many seconds, from the first response; null: a share of the median (FlagThresholds). Always sent by the API. */
  minDurationSeconds: z.number().int().nullable().optional(),
  /** low_gps_accuracy above this many metres; null: FlagThresholds.maxAccuracyMeters. Always sent by the API. */
  maxAccuracyMeters: z.number().int().nullable().optional(),
  createdAt: z.string(),
  /** The latest published version; always sent by the API, absent in older phone caches (= 1). */
  version: z.number().int().optional(),
  /** Closed to new responses; always sent by the API. */
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

/**
 * How much of a row an import report entry costs: `dropped` a question or choice not imported,
 * `changed` one imported without part of it (a condition, a constraint, a column), `note` one
 * imported whole but reshaped (a flattened group, a translation left out). The report lists them in this order.
 */
export const XlsformSeverity = z.enum(['dropped', 'changed', 'note']);
export type XlsformSeverity = z.infer<typeof XlsformSeverity>;

/** A row, column or cell of an imported XLSForm that was not carried over, and why. */
export const XlsformUnsupported = z.object({
  sheet: z.string(),
  /** The spreadsheet's row number (1 is the header row). */
  row: z.number().int(),
  /** The column's header, or '' for a whole row. */
  column: z.string(),
  reason: z.string(),
  severity: XlsformSeverity,
});
export type XlsformUnsupported = z.infer<typeof XlsformUnsupported>;

/** What the builder opens: a CreateSurveyBody not yet published (a large select with its options), and what could not come over. */
export const XlsformImportReply = z.object({
  draft: z.object({
    title: z.string(),
    description: z.string(),
    questions: z.array(StoredQuestion.omit({ optionCount: true })),
  }),
  unsupported: z.array(XlsformUnsupported),
});
export type XlsformImportReply = z.infer<typeof XlsformImportReply>;
