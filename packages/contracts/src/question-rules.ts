import { QuestionType } from './question-types.js';

// Kept apart from question-types.ts, which every signed-in screen loads (the shared chunk): what
// only the builder, the API and the form's lazily loaded rules need (issue 17).

/** The spec's form-state default type: accepted on input everywhere, stored as 'text answer'. */
export const SHORT_ANSWER_ALIAS = 'short answer';
/** A type as written by a client, with the 'short answer' alias resolved. */
export const canonicalQuestionType = (type: string): string => (type === SHORT_ANSWER_ALIAS ? QuestionType.text : type);

/** Types whose answer is a number (the phone shows a numeric keypad). */
export const NUMERIC_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.number, QuestionType.decimal];
/** Types that take a min/max constraint (numbers; `YYYY-MM-DD` for dates; `HH:MM` for times). */
export const RANGE_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.number, QuestionType.decimal, QuestionType.date, QuestionType.time];
/** Types that take a min/max length constraint (free text). */
export const LENGTH_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.text, QuestionType.barcode];

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
