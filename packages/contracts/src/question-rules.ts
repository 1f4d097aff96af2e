import { QuestionType } from './question-types.js';

// Kept apart from question-types.ts, which every signed-in screen loads (the shared chunk): what
// only the builder, the API and the form's lazily loaded rules need.

/** The spec's form-state default type: accepted on input everywhere, stored as 'text answer'. */
export const SHORT_ANSWER_ALIAS = 'short answer';
/** A type as written by a client, with the 'short answer' alias resolved. */
export const canonicalQuestionType = (type: string): string => (type === SHORT_ANSWER_ALIAS ? QuestionType.text : type);

/** Types that take no answer: shown as read-only text, never compulsory. */
export const NO_ANSWER_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.note, QuestionType.group];
/** Typed single-value answers kept as text: the evaluator checks and normalises them. */
export const TYPED_QUESTION_TYPES: readonly QuestionType[] = [
  QuestionType.number,
  QuestionType.decimal,
  QuestionType.date,
  QuestionType.time,
  QuestionType.phone,
  QuestionType.email,
  QuestionType.barcode,
  QuestionType.datetime,
  QuestionType.range,
];

/** Types whose answer is a number (the phone shows a numeric keypad). */
export const NUMERIC_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.number, QuestionType.decimal, QuestionType.range];
/** Never compulsory by `compulsory`: containers (a repeat's `repeat.min` says how many), calculations and metadata. */
export const NEVER_COMPULSORY_QUESTION_TYPES: readonly QuestionType[] = [
  QuestionType.note,
  QuestionType.group,
  QuestionType.repeat,
  QuestionType.calculate,
  QuestionType.start,
  QuestionType.end,
  QuestionType.today,
  QuestionType.deviceid,
  QuestionType.username,
  QuestionType.userEmail,
];
/** Types that take a min/max constraint (numbers; `YYYY-MM-DD` for dates; `HH:MM` for times). */
export const RANGE_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.number, QuestionType.decimal, QuestionType.date, QuestionType.time];
/** Types that take a min/max length constraint (free text). */
export const LENGTH_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.text, QuestionType.barcode];


export { withQuestionIds } from './form-rules/question-ids.js';
