import { type Answer, answerOf, isChoiceList, NUMERIC_QUESTION_TYPES, OPTION_QUESTION_TYPES, QuestionType, type StoredQuestion } from '@survey-bird/contracts';

export interface Compared {
  questionId: string;
  original: Answer | null;
  backcheck: Answer | null;
  /** null: not compared (either side unanswered). */
  match: boolean | null;
  tolerance: number | null;
}

const answered = (a: Answer | undefined): a is Answer => a !== undefined && a !== null && !(typeof a === 'string' && a.trim() === '') && !(Array.isArray(a) && a.length === 0);

/** Text as a revisit may write it differently: accents, case, punctuation and spacing do not count. */
export function normalisedText(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** An answer as text: a list joined, a repeat (never a stable question: no single answer) as its JSON. */
const textOf = (a: Answer): string => (typeof a === 'string' ? a : a.every((v) => typeof v === 'string') ? a.join(', ') : JSON.stringify(a));

/** Exact for selects (a checkbox: the same set), within the tolerance for numbers, normalised for text. */
export function sameAnswer(type: string, a: Answer, b: Answer, tolerance: number): boolean {
  if (OPTION_QUESTION_TYPES.includes(type as QuestionType) || type === QuestionType.largeSelect) {
    if (isChoiceList(a) || isChoiceList(b)) {
      const x = new Set(isChoiceList(a) ? a : [textOf(a)]);
      const y = new Set(isChoiceList(b) ? b : [textOf(b)]);
      return x.size === y.size && [...x].every((v) => y.has(v));
    }
    return textOf(a).trim() === textOf(b).trim();
  }
  if (NUMERIC_QUESTION_TYPES.includes(type as QuestionType)) {
    const x = Number(a);
    const y = Number(b);
    // A tenth of a millionth absorbs floating-point error in a decimal tolerance (0.1 + 0.2).
    if (Number.isFinite(x) && Number.isFinite(y)) return Math.abs(x - y) <= tolerance + 1e-7;
  }
  return normalisedText(textOf(a)) === normalisedText(textOf(b));
}

/**
 * Each stable question compared: the original's answer is read under its text in the original's
 * version (`originalText`), the back-check's under its text on the back-check form.
 */
export function compareAnswers(stable: readonly StoredQuestion[], originalText: ReadonlyMap<string, string>, original: Record<string, Answer>, backcheck: Record<string, Answer>, tolerances: Readonly<Record<string, number>>): Compared[] {
  return stable.map((q) => {
    const textThen = originalText.get(q.id);
    const o = textThen === undefined ? undefined : answerOf(original, textThen);
    const b = answerOf(backcheck, q.text);
    const tolerance = NUMERIC_QUESTION_TYPES.includes(q.type) ? (tolerances[q.id] ?? 0) : null;
    const match = answered(o) && answered(b) ? sameAnswer(q.type, o, b, tolerance ?? 0) : null;
    return { questionId: q.id, original: answered(o) ? o : null, backcheck: answered(b) ? b : null, match, tolerance };
  });
}

/** Mismatched over compared, above the threshold (percent in hundredths): a discrepancy. */
export function overThreshold(compared: number, mismatched: number, thresholdBp: number): boolean {
  return compared > 0 && mismatched * 10_000 > thresholdBp * compared;
}
