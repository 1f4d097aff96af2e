import { z } from 'zod';
import { Limits } from '../constants.js';
import { QuestionType } from '../question-types.js';
import { Id, Paging } from './common.js';
import { Question, QuestionId, StoredQuestion } from './survey.js';

/**
 * Back-checks: a random share of each field user's responses is revisited by another person with a
 * short form (the survey's "stable" questions, whose answers should not change on a revisit, plus
 * the form's own questions), and the answers are compared.
 */
export const BackcheckDefaults = {
  /** IPA and J-PAL re-interview 10-20% of respondents: the low end by default. */
  percent: 10,
  minPerWeek: 0,
  includeFlagged: false,
  /** A back-check whose stable answers differ on more than this share (%) is a mismatch. */
  threshold: 20,
  autoReturn: false,
} as const;

/** A field user is held from payouts while their discrepancy over their last this many back-checks is above the threshold. */
export const BACKCHECK_HOLD_WINDOW = 10;
/** Own questions of a back-check form: a revisit is a short interview. */
export const MAX_BACKCHECK_QUESTIONS = 50;

/** The types a stable question may have: an answer a revisit can compare (no photo, location, repeat or computed value). */
export const STABLE_QUESTION_TYPES: readonly QuestionType[] = [
  QuestionType.text, QuestionType.select, QuestionType.checkbox, QuestionType.number, QuestionType.decimal,
  QuestionType.date, QuestionType.time, QuestionType.phone, QuestionType.email, QuestionType.barcode, QuestionType.range,
];

export const BackcheckMsg = {
  notFound: 'Back-check not found',
  alreadySent: 'This back-check was already sent with other answers',
  noPhotos: 'A back-check takes no photos and is not a fix',
  stableUnknown: 'A stable question is not a question of this survey',
  stableType: 'A stable question must be a text, select, checkbox, number, decimal, date, time, phone, e-mail, barcode or range question outside groups and repeats',
  duplicateText: 'A back-check question repeats the text of another question of the form',
  toleranceUnknown: 'A tolerance is set on a question that is not a numeric stable question',
  respondentUnknown: 'The respondent question must be a text question of the survey that is not stable',
  saved: 'Back-check form published',
  returnComment: 'Returned automatically: a back-check found different answers to',
} as const;

const percent = (name: string) => z.number({ error: `${name} must be a number from 0 to 100` }).min(0, `${name} must be a number from 0 to 100`).max(100, `${name} must be a number from 0 to 100`);

/** `PATCH /survey/:id/settings` `backcheck`: any of the fields; the others keep their value (or default). */
export const BackcheckSettingsBody = z.object({
  /** The share (%) of each field user's responses selected at random. */
  percent: percent('percent').optional(),
  /** At least this many of each field user's responses per week (Monday to Sunday, UTC). */
  minPerWeek: z.number({ error: 'minPerWeek must be a whole number from 0 to 100' }).int('minPerWeek must be a whole number from 0 to 100').min(0, 'minPerWeek must be a whole number from 0 to 100').max(100, 'minPerWeek must be a whole number from 0 to 100').optional(),
  /** Every response with a quality flag is selected too. */
  includeFlagged: z.boolean({ error: 'includeFlagged must be true or false' }).optional(),
  /** A mismatch: more than this share (%) of the compared stable answers differ. */
  threshold: percent('threshold').optional(),
  /** A mismatch returns the response to its field user (else it is flagged `backcheck_mismatch` only). */
  autoReturn: z.boolean({ error: 'autoReturn must be true or false' }).optional(),
  /** The survey's questions a back-check asks again and compares. */
  stableQuestionIds: z.array(QuestionId).max(Limits.maxQuestions, `At most ${Limits.maxQuestions} stable questions`).optional(),
}, { error: 'backcheck must be an object' });
export type BackcheckSettingsBody = z.infer<typeof BackcheckSettingsBody>;

export const BackcheckSettings = z.object({
  percent: z.number(),
  minPerWeek: z.number().int(),
  includeFlagged: z.boolean(),
  threshold: z.number(),
  autoReturn: z.boolean(),
  stableQuestionIds: z.array(z.string()),
});
export type BackcheckSettings = z.infer<typeof BackcheckSettings>;

/** `PUT /survey/:id/backcheck-form`: the form's own questions and how its stable answers compare. */
export const BackcheckFormBody = z.object({
  questions: z.array(Question).max(MAX_BACKCHECK_QUESTIONS, `At most ${MAX_BACKCHECK_QUESTIONS} back-check questions`),
  /** Per numeric stable question (id): the largest difference still counted as the same answer. */
  tolerances: z.record(QuestionId, z.number({ error: 'A tolerance must be a number' }).min(0, 'A tolerance must be 0 or more').max(1e9)).refine((r) => Object.keys(r).length <= Limits.maxQuestions, 'Too many tolerances').default({}),
  /** The survey's question naming the respondent, shown to the back-checker (never a stable one). */
  respondentQuestionId: QuestionId.nullable().default(null),
});
export type BackcheckFormBody = z.input<typeof BackcheckFormBody>;

/** One published version of a survey's back-check form: the stable questions (as the survey had them) then its own. */
export const BackcheckForm = z.object({
  version: z.number().int(),
  questions: z.array(StoredQuestion),
  stableQuestionIds: z.array(z.string()),
  ownQuestionIds: z.array(z.string()),
  tolerances: z.record(z.string(), z.number()),
  respondentQuestionId: z.string().nullable(),
  createdAt: z.string(),
});
export type BackcheckForm = z.infer<typeof BackcheckForm>;
export const BackcheckFormReply = z.object({ msg: z.string(), form: BackcheckForm });

/** What a back-checker's phone gets: who to visit and where, never the original answers. */
export const BackcheckAssignment = z.object({
  _id: z.string(),
  responseId: z.string(),
  survey_id: z.string(),
  organization_id: z.string(),
  surveyTitle: z.string(),
  respondent: z.string().nullable(),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  capturedAt: z.string().nullable(),
  assignedAt: z.string(),
});
export type BackcheckAssignment = z.infer<typeof BackcheckAssignment>;
export const MyBackchecksReply = z.object({
  assignments: z.array(BackcheckAssignment),
  /** The latest back-check form of each survey on this page. */
  forms: z.array(z.object({ survey_id: z.string(), version: z.number().int(), questions: z.array(StoredQuestion) })),
  ...Paging,
});
export type MyBackchecksReply = z.infer<typeof MyBackchecksReply>;

export const BackcheckReason = { sample: 'sample', minimum: 'minimum', flagged: 'flagged' } as const;
export type BackcheckReason = (typeof BackcheckReason)[keyof typeof BackcheckReason];
const Rate = z.number().nullable();

export const BackcheckOverviewReply = z.object({
  settings: BackcheckSettings,
  /** The seed behind the random selection: with the response ids it re-derives every draw (modules/backchecks/sampling.ts). */
  seed: z.string().nullable(),
  form: BackcheckForm.nullable(),
  backcheckers: z.array(z.object({ memberId: z.string(), fullName: z.string(), email: z.string(), role: z.string() })),
  totals: z.object({ selected: z.number().int(), unassigned: z.number().int(), completed: z.number().int(), compared: z.number().int(), mismatched: z.number().int(), rate: Rate, returned: z.number().int() }),
  fieldUsers: z.array(z.object({ memberId: z.string(), fullName: z.string(), selected: z.number().int(), completed: z.number().int(), compared: z.number().int(), mismatched: z.number().int(), rate: Rate, held: z.boolean() })),
  questions: z.array(z.object({ id: z.string(), text: z.string(), compared: z.number().int(), mismatched: z.number().int(), rate: Rate })),
  /** Completed back-checks per week (its Monday, UTC), oldest first: the trend. */
  weeks: z.array(z.object({ week: z.string(), completed: z.number().int(), compared: z.number().int(), mismatched: z.number().int(), rate: Rate })),
  assignments: z.array(z.object({
    _id: z.string(), responseId: z.string(), fieldUser: z.string(), backchecker: z.string().nullable(), reason: z.enum(['sample', 'minimum', 'flagged']),
    selectedAt: z.string(), completedAt: z.string().nullable(), rate: Rate, mismatch: z.boolean(),
  })),
  ...Paging,
});
export type BackcheckOverviewReply = z.infer<typeof BackcheckOverviewReply>;

const AnswerValue = z.union([z.string(), z.array(z.string())]).nullable();
/** A response's back-check beside its original answers, for the detail view. */
export const ResponseBackcheckReply = z.object({
  backcheck: z.object({
    status: z.enum(['unassigned', 'assigned', 'done']),
    backchecker: z.string().nullable(),
    selectedAt: z.string(),
    completedAt: z.string().nullable(),
    rate: Rate,
    threshold: z.number(),
    mismatch: z.boolean(),
    items: z.array(z.object({ questionId: z.string(), text: z.string(), original: AnswerValue, backcheck: AnswerValue, match: z.boolean().nullable(), tolerance: z.number().nullable() })),
    /** The form's own questions' answers (not compared). */
    extra: z.array(z.object({ text: z.string(), answer: AnswerValue })),
  }).nullable(),
});
export type ResponseBackcheckReply = z.infer<typeof ResponseBackcheckReply>;

export const BackcheckPageQuery = z.object({
  page: z.coerce.number({ error: 'page must be a positive whole number' }).int('page must be a positive whole number').min(1, 'page must be a positive whole number').max(1_000_000).default(1),
});
export const MyBackchecksQuery = BackcheckPageQuery;
export const BackcheckResponseParams = z.object({ id: Id });
