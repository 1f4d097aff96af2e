import { answerOf, answerProblem, isAnswered, visibleQuestions, withQuestionIds, type Answers } from '@survey-bird/contracts';
import { formProblems, isPhotoQuestion, type FormQuestion, type FormRules, type Photos, type Problems } from './form-logic';

// Issue 17's show-if and constraints on the phone, by the contracts' evaluator (the one the server
// runs). Loaded with the first survey that needs it (form-logic.ts needsRules), kept offline by the
// service worker like the capture components.

/**
 * The texts of the questions shown for these answers (issue 17's show-if, by the contracts'
 * evaluator, the one the server runs). A photo question counts as answered once it has a photo.
 */
export function shownQuestions(questions: readonly FormQuestion[], answers: Answers, photos: Photos): Set<string> {
  const withIds = withQuestionIds(questions);
  if (!withIds.some((q) => q.showIf !== undefined)) return new Set(withIds.map((q) => q.text));
  const visible = visibleQuestions(withIds, (q) => (isPhotoQuestion(q) ? (Object.hasOwn(photos, q.text) ? 'photo' : undefined) : answerOf(answers, q.text)));
  return new Set(withIds.filter((q) => visible.has(q.id)).map((q) => q.text));
}

/**
 * The answers without those of hidden questions: a hidden question's answer is cleared (the
 * server refuses it), and hiding one may hide others that depend on it. The same object when
 * nothing is hidden.
 */
export function withoutHidden(questions: readonly FormQuestion[], answers: Answers, photos: Photos): { answers: Answers; photos: Photos } {
  const shown = shownQuestions(questions, answers, photos);
  const dropA = Object.keys(answers).filter((k) => !shown.has(k) && questions.some((q) => q.text === k));
  const dropP = Object.keys(photos).filter((k) => !shown.has(k) && questions.some((q) => q.text === k));
  if (dropA.length === 0 && dropP.length === 0) return { answers, photos };
  const a = { ...answers };
  const p = { ...photos };
  for (const k of dropA) delete a[k];
  for (const k of dropP) delete p[k];
  return { answers: a, photos: p };
}

/**
 * What is wrong with the answers given so far (a number out of range, a bad phone number): the
 * evaluator's own messages, shown live under each shown question.
 */
export function answerProblems(questions: readonly FormQuestion[], answers: Answers, photos: Photos, now = new Date()): Problems {
  const problems: Problems = {};
  const shown = shownQuestions(questions, answers, photos);
  for (const q of withQuestionIds(questions)) {
    if (!shown.has(q.text) || isPhotoQuestion(q)) continue;
    const answer = answerOf(answers, q.text);
    if (!isAnswered(answer)) continue;
    const message = answerProblem(q, answer!, now);
    if (message !== null) problems[q.text] = message;
  }
  return problems;
}

function view(questions: readonly FormQuestion[], answers: Answers, photos: Photos, problems: Problems): { shown: Set<string>; problems: Problems } {
  const live = answerProblems(questions, answers, photos);
  return { shown: shownQuestions(questions, answers, photos), problems: Object.keys(live).length === 0 ? problems : { ...live, ...problems } };
}

const answered = (questions: readonly FormQuestion[], answers: Answers, photos: Photos): Answers => withoutHidden(questions, answers, photos).answers;

/**
 * Before a submit: hidden questions' answers dropped, then the spec's checks on the shown
 * questions only (a hidden question is never compulsory) and the rules' messages.
 */
export function check(questions: readonly FormQuestion[], answers: Answers, photos: Photos, now = new Date()): { answers: Answers; photos: Photos; problems: Problems } {
  const kept = withoutHidden(questions, answers, photos);
  const shown = shownQuestions(questions, kept.answers, kept.photos);
  const problems = formProblems(questions.filter((q) => shown.has(q.text)), kept.answers, kept.photos);
  return { ...kept, problems: { ...answerProblems(questions, kept.answers, kept.photos, now), ...problems } };
}

export const formRules: FormRules = { check, answered, view };
