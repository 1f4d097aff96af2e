import { answerOf, type Answer, type Survey } from '@survey-bird/contracts';

export interface AnswerLine {
  question: string;
  answer: Answer | undefined;
  type: string | undefined;
}

/**
 * The detail view's lines: the survey's questions in order, then any answer to a question no longer
 * in it. The API keys a response's answers by each question's latest text (the export's columns,
 * found through the question's id in the response's own version), so an answer to a question renamed
 * since sits on the question's line, never as an orphan line of its old text.
 */
export function answerLines(questions: Survey['questions'], answers: Record<string, Answer>): AnswerLine[] {
  const texts = new Set(questions.map((q) => q.text));
  const lines: AnswerLine[] = questions.map((q) => ({ question: q.text, answer: answerOf(answers, q.text), type: q.type }));
  for (const key of Object.keys(answers)) if (!texts.has(key)) lines.push({ question: key, answer: answers[key], type: undefined });
  return lines;
}
