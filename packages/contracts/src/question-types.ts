export const QuestionType = {
  text: 'text answer',
  select: 'select',
  largeSelect: 'select (> 50 dataset)',
  checkbox: 'checkbox',
  image: 'image',
  files: 'files',
  liveLocation: 'live location',
  liveImages: 'live images',
  // Issue 17: typed questions.
  number: 'number',
  decimal: 'decimal',
  date: 'date',
  time: 'time',
  phone: 'phone',
  email: 'email',
  note: 'note',
  signature: 'signature',
  barcode: 'barcode',
} as const;
export type QuestionType = (typeof QuestionType)[keyof typeof QuestionType];
export const QUESTION_TYPES = Object.values(QuestionType) as [QuestionType, ...QuestionType[]];

/** The spec's form-state default type: accepted on input everywhere, stored as 'text answer'. */
export const SHORT_ANSWER_ALIAS = 'short answer';
/** A type as written by a client, with the 'short answer' alias resolved. */
export const canonicalQuestionType = (type: string): string => (type === SHORT_ANSWER_ALIAS ? QuestionType.text : type);

/**
 * Types whose answer is an uploaded picture (stored through POST /files/image). A signature is a
 * PNG drawn on the phone and travels the same upload path and outbox as a photo.
 */
export const IMAGE_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.image, QuestionType.liveImages, QuestionType.signature];
/** Types that need an option list of at least MIN_OPTIONS entries. */
export const OPTION_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.select, QuestionType.checkbox];
/** Shown in the builder but not selectable (spec section 5). */
export const DISABLED_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.files];
/** Types that take no answer: shown as read-only text, never compulsory. */
export const NO_ANSWER_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.note];
/** Types whose answer is a number (the phone shows a numeric keypad). */
export const NUMERIC_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.number, QuestionType.decimal];
/** Types that take a min/max constraint (numbers; `YYYY-MM-DD` for dates; `HH:MM` for times). */
export const RANGE_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.number, QuestionType.decimal, QuestionType.date, QuestionType.time];
/** Types that take a min/max length constraint (free text). */
export const LENGTH_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.text, QuestionType.barcode];
/** Typed single-value answers kept as text: the evaluator checks and normalises them. */
export const TYPED_QUESTION_TYPES: readonly QuestionType[] = [
  QuestionType.number,
  QuestionType.decimal,
  QuestionType.date,
  QuestionType.time,
  QuestionType.phone,
  QuestionType.email,
  QuestionType.barcode,
];

/**
 * Every question with its stable id. Questions stored before ids (issue 17) get `q1`, `q2`... by
 * position, at read time on the server and on the phone alike: a stored survey's questions never
 * move, so these ids never change. A new question without an id gets the same kind, skipping any
 * id already taken.
 */
export function withQuestionIds<Q extends { text: string; id?: string | undefined }>(questions: readonly Q[]): (Q & { id: string })[] {
  const taken = new Set<string>();
  for (const q of questions) if (q.id !== undefined) taken.add(q.id);
  return questions.map((q, i) => {
    if (q.id !== undefined) return q as Q & { id: string };
    let id = `q${i + 1}`;
    for (let n = 2; taken.has(id); n++) id = `q${i + 1}_${n}`;
    taken.add(id);
    return { ...q, id };
  });
}
