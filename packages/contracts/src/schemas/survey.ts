import { z } from 'zod';
import { Limits, PhotoEncoding, type PhotoQuality } from '../constants.js';
import { ApiMsg } from '../api-messages.js';
import { Msg } from '../messages.js';
import { ruleProblems } from '../form-rules/evaluate.js';
import { Constraint, ShowIf } from '../form-rules/rules.js';
import { parseDate, parseTime } from '../form-rules/values.js';
import { answerScopes, formStructureProblems } from '../form-engine/structure.js';
export { answerScopes } from '../form-engine/structure.js';
import { LENGTH_QUESTION_TYPES, NEVER_COMPULSORY_QUESTION_TYPES, NO_ANSWER_QUESTION_TYPES, RANGE_QUESTION_TYPES, SHORT_ANSWER_ALIAS, canonicalQuestionType } from '../question-rules.js';
import { DISABLED_QUESTION_TYPES, OPTION_QUESTION_TYPES, QUESTION_TYPES, QuestionType } from '../question-types.js';
import { Id, Paging } from './common.js';
import { PayGate, SurveyAudioAudit } from './audio.js';

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

/**
 * A language code: the `(code)` of an XLSForm column `label::Hausa (ha)`, else the language's name
 * lower-cased (`label::english` -> `english`).
 */
export const LanguageCode = z.string().trim().min(1, 'A language code is empty').max(64, 'A language code is too long (max 64)');
const FormText = (what: string) => z.string({ error: `${what} must be text` }).max(Limits.maxFormText, `${what} is too long (max ${Limits.maxFormText})`);
/** An XLSForm expression (`${id}` references), checked by compileExpression when a survey is published. */
const Expression = (what: string) => z.string({ error: `${what} must be an expression` }).trim().max(Limits.maxExpression, `${what} is too long (max ${Limits.maxExpression})`);

/** A question's texts in another language; what is absent falls back to the default language's. */
export const QuestionTranslation = z.object({
  text: FormText('A translated text').optional(),
  hint: FormText('A translated hint').optional(),
  guidanceHint: FormText('A translated guidance hint').optional(),
  requiredMessage: FormText('A translated required message').optional(),
  constraintMessage: FormText('A translated constraint message').optional(),
});
export type QuestionTranslation = z.infer<typeof QuestionTranslation>;

/**
 * One choice of a select or checkbox, parallel to `options` (option i is choice i's label): the
 * XLSForm name (what the answer stores when `choices` is present), the label in the default
 * language and others, and extra columns a choice_filter reads (`state` of an LGA).
 */
export const Choice = z.object({
  name: z.string({ error: 'A choice name must be text' }).trim().min(1, 'A choice name is empty').max(Limits.maxOptionLength, `A choice name is too long (max ${Limits.maxOptionLength})`),
  label: z.string({ error: 'A choice label must be text' }).max(Limits.maxOptionLength, `A choice label is too long (max ${Limits.maxOptionLength})`),
  labels: z.record(LanguageCode, z.string().max(Limits.maxOptionLength)).optional(),
  columns: z.record(z.string().min(1).max(64), z.string().max(Limits.maxOptionLength)).optional(),
});
export type Choice = z.infer<typeof Choice>;

/** How many instances a repeat may have (besides `repeatCount`, which fixes the number). */
export const RepeatLimits = z.object({
  min: z.number().int('A repeat minimum must be a whole number').min(0).max(Limits.maxRepeatInstances).optional(),
  max: z.number().int('A repeat maximum must be a whole number').min(1).max(Limits.maxRepeatInstances).optional(),
});
export type RepeatLimits = z.infer<typeof RepeatLimits>;

/** A range question's slider. */
export const RangeSettings = z.object({
  start: z.number({ error: 'A range start must be a number' }),
  end: z.number({ error: 'A range end must be a number' }),
  step: z.number({ error: 'A range step must be a number' }).positive('A range step must be above 0'),
});
export type RangeSettings = z.infer<typeof RangeSettings>;

/**
 * The XLSForm model's fields of a question, all optional (a survey stored before them parses as
 * it was). Containers (`group`, `repeat`) are entries of the same flat list; a member names its
 * container by `parent` and follows it contiguously. The expression fields keep apart from the
 * builder's structured `showIf` and `constraint`, which keep working.
 */
export const FormFields = {
  /** The id of the group or repeat this entry belongs to (an earlier entry; members are contiguous). */
  parent: QuestionId.optional(),
  /** XLSForm `relevant`: shown only when true; a container's applies to every member. */
  relevantExpr: Expression('relevant').optional(),
  /** XLSForm `required` as an expression (besides `compulsory`, which is `yes`). */
  requiredExpr: Expression('required').optional(),
  /** XLSForm `constraint`: `.` is the answer; the answer is refused when false. */
  constraintExpr: Expression('constraint').optional(),
  /** XLSForm `calculation`: the value of a `calculate` (or of any question it fills). */
  calculation: Expression('calculation').optional(),
  /** XLSForm `choice_filter`: evaluated per choice, bare names read the choice's columns. */
  choiceFilter: Expression('choice_filter').optional(),
  /** XLSForm `default`: the answer a new response (or repeat instance) starts with. */
  default: FormText('A default').optional(),
  /** XLSForm `read_only`: true or an expression. */
  readOnly: z.union([z.boolean(), Expression('read_only')]).optional(),
  /** XLSForm `repeat_count`: a number or an expression fixing how many instances a repeat has. */
  repeatCount: z.union([z.number().int().min(0).max(Limits.maxRepeatInstances), Expression('repeat_count')]).optional(),
  requiredMessage: FormText('A required message').optional(),
  constraintMessage: FormText('A constraint message').optional(),
  hint: FormText('A hint').optional(),
  guidanceHint: FormText('A guidance hint').optional(),
  /** XLSForm `appearance` (`field-list`, `minimal`, `multiline`...), space-separated as written. */
  appearance: z.string().trim().max(200, 'An appearance is too long (max 200)').optional(),
  /** Names, translations and filter columns of the options, parallel to `options`. */
  choices: z.array(Choice).max(Limits.maxDatasetOptions, `Too many choices (max ${Limits.maxDatasetOptions})`).optional(),
  /** The texts in other languages, by language code. */
  translations: z.record(LanguageCode, QuestionTranslation).optional(),
  repeat: RepeatLimits.optional(),
  range: RangeSettings.optional(),
  /**
   * Its answers are personal data (a name, a phone number): masked for analysts and in exports made
   * without personal data, removed by erasure and retention. Absent: its type's default (personal.ts).
   */
  personal: z.boolean({ error: 'personal must be true or false' }).optional(),
};

/** A language of a survey's texts: its code (the translations' key) and the name shown in the switch. */
export const SurveyLanguage = z.object({ code: LanguageCode, label: z.string().trim().min(1, 'A language needs a name').max(100, 'A language name is too long (max 100)') });
export type SurveyLanguage = z.infer<typeof SurveyLanguage>;
/**
 * A survey's languages, all optional: `languages` lists the translations' codes (the default
 * language's texts are the questions' own `text`, `hint`...), `defaultLanguage` the one the phone
 * opens with (absent: the questions' own texts).
 */
const SurveyLanguageFields = {
  languages: z.array(SurveyLanguage).max(50, 'Too many languages (max 50)').optional(),
  defaultLanguage: LanguageCode.optional(),
  ...XlsformSettingsFields(),
};

/**
 * What an imported XLSForm's settings sheet says that Survey Bird keeps to write back: its
 * `form_id` and `instance_name` (an expression naming each response).
 */
function XlsformSettingsFields() {
  return {
    formId: z.string({ error: 'A form id must be text' }).trim().min(1).max(100, 'A form id is too long (max 100)').optional(),
    instanceName: z.string({ error: 'An instance name must be an expression' }).trim().min(1).max(Limits.maxExpression, `An instance name is too long (max ${Limits.maxExpression})`).optional(),
  };
}

/** A survey's form-wide settings as stored with it and each version (JSON). */
export const SurveyFormSettings = z.object(SurveyLanguageFields);
export type SurveyFormSettings = z.infer<typeof SurveyFormSettings>;

export const Question = z
  .object({
    id: QuestionId.optional(),
    text: z.string({ error: ApiMsg.questionTextEmpty }).trim().min(1, ApiMsg.questionTextEmpty).max(Limits.maxQuestionText, `Question text is too long (max ${Limits.maxQuestionText})`),
    type: QuestionTypeInput,
    compulsory: z.boolean().default(true),
    options: z.array(z.string().trim().max(Limits.maxOptionLength, `An option is too long (max ${Limits.maxOptionLength})`)).max(Limits.maxDatasetOptions, `Too many options (max ${Limits.maxDatasetOptions})`).default([]),
    showIf: ShowIf.optional(),
    constraint: Constraint.optional(),
    ...FormFields,
  })
  // A note, a container, a calculation or metadata takes no typed answer: never compulsory. Choices
  // without options give the options (their labels).
  .transform((q) => {
    const out = NEVER_COMPULSORY_QUESTION_TYPES.includes(q.type) ? { ...q, compulsory: false } : q;
    return out.choices !== undefined && out.options.length === 0 ? { ...out, options: out.choices.map((c) => c.label) } : out;
  });
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
export function questionProblem(q: Pick<Question, 'text' | 'type' | 'options'> & { constraint?: Constraint | undefined; choiceFilter?: string | undefined }): string | null {
  if (q.text.trim().length === 0) return ApiMsg.questionTextEmpty;
  if (DISABLED_QUESTION_TYPES.includes(q.type)) return `"${q.type}" questions are not available yet`;
  const options = q.options.map((o) => o.trim()).filter((o) => o.length > 0);
  if (OPTION_QUESTION_TYPES.includes(q.type) && options.length < Limits.minOptions) return ApiMsg.optionsMinimum;
  // A filtered list (State -> LGA -> ward) is shown a part at a time: it may be as long as a dataset.
  if (OPTION_QUESTION_TYPES.includes(q.type) && q.choiceFilter === undefined && options.length > Limits.maxOptions) return `Too many options (max ${Limits.maxOptions}); use "${QuestionType.largeSelect}"`;
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
    ...SurveyLanguageFields,
  })
  .superRefine((body, ctx) => {
    // Answers are keyed by text within their scope (the response, or one repeat instance): texts
    // are unique per scope; a group's text is a title, never a key.
    const scopeOf = answerScopes(body.questions);
    const seen = new Set<string>();
    body.questions.forEach((q, i) => {
      const problem = questionProblem(q);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['questions', i] });
      if (q.type === QuestionType.group) return;
      const key = `${scopeOf[i] ?? ''}\u0000${q.text.trim().toLowerCase()}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: Msg.duplicateQuestion, path: ['questions', i, 'text'] });
      seen.add(key);
    });
    for (const p of questionRulesProblems(body.questions)) ctx.addIssue({ code: 'custom', message: p.message, path: ['questions', p.index] });
    for (const p of formStructureProblems(body.questions, body.languages)) ctx.addIssue({ code: 'custom', message: p.message, path: ['questions', p.index] });
    if (body.defaultLanguage !== undefined && !(body.languages ?? []).some((l) => l.code === body.defaultLanguage)) ctx.addIssue({ code: 'custom', message: `The default language "${body.defaultLanguage}" is not one of the survey's languages`, path: ['defaultLanguage'] });
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
  ...FormFields,
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
  /** The audio audit (null: off); always sent by the API. */
  audioAudit: SurveyAudioAudit.nullable().optional(),
  /** What a response needs to go into a payout; always sent by the API. */
  payGate: PayGate.optional(),
  /** Closed to new responses; always sent by the API. */
  closed: z.boolean().optional(),
  /** A field user's own list only: they were invited as a back-checker on this survey (their phone shows Back-checks). */
  backchecker: z.boolean().optional(),
  ...SurveyLanguageFields,
  /** When it was closed, null while open. */
  closedAt: z.string().nullable().optional(),
  /** Photos, files and personal answers are deleted this many days after it closes; null: kept. Always sent by the API. */
  retentionDays: z.number().int().nullable().optional(),
  /** End-to-end encryption: the public key (SPKI, base64) the phone seals answers to; null: answers in clear. Always sent by the API. */
  encryptionKey: z.string().nullable().optional(),
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
  ...SurveyLanguageFields,
});
export type SurveyVersion = z.infer<typeof SurveyVersion>;
/** `expectedResponseCount`: the survey's own (not versioned), so an editor opened from a link keeps it. */
export const SurveyVersionListReply = z.object({ versions: z.array(SurveyVersion), expectedResponseCount: z.number().int().nullable().optional(), ...Paging });
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
    ...SurveyLanguageFields,
  }),
  unsupported: z.array(XlsformUnsupported),
});
export type XlsformImportReply = z.infer<typeof XlsformImportReply>;
