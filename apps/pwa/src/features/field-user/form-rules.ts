import { answerIssues, answerOf, checkFormOf, Limits, Msg, visibleQuestions, withQuestionIds, type Answers } from '@survey-bird/contracts';
import { isPhotoQuestion, type FormQuestion, type FormRules, type Photos, type Problems, type SentPhotos } from './form-logic';

// Show-if, constraints, typed answers and compulsory answers on the phone, by the contracts' check
// (answerIssues, the one the server refuses a response by). Loaded with the first form (form-logic.ts
// FormRules), kept offline by the service worker like the capture components.

/** A photo question's answer for the check while its photo is on the phone (the server's reference replaces it). */
const PHOTO_ON_PHONE = 'photo';

const put = (to: Answers, key: string, value: Answers[string]) => Object.defineProperty(to, key, { value, enumerable: true, writable: true, configurable: true });

/** The answers as the server will receive them: a photo question answered by a photo on the phone, else by one already sent. */
function asSent(questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent: SentPhotos): Answers {
  const out: Answers = {};
  const photoQuestions = new Set(questions.filter(isPhotoQuestion).map((q) => q.text));
  for (const key of Object.keys(answers)) if (!photoQuestions.has(key)) put(out, key, answers[key]!);
  for (const key of photoQuestions) {
    const value = Object.hasOwn(photos, key) ? PHOTO_ON_PHONE : answerOf(sent, key);
    if (value !== undefined) put(out, key, value);
  }
  return out;
}

/**
 * The texts of the questions shown for these answers (show-if, by the contracts' evaluator, the
 * one the server runs). A photo question counts as answered once it has a photo, here or sent.
 */
export function shownQuestions(questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent: SentPhotos = {}): Set<string> {
  const withIds = withQuestionIds(questions);
  if (!withIds.some((q) => q.showIf !== undefined)) return new Set(withIds.map((q) => q.text));
  const all = asSent(questions, answers, photos, sent);
  const visible = visibleQuestions(withIds, (q) => answerOf(all, q.text));
  return new Set(withIds.filter((q) => visible.has(q.id)).map((q) => q.text));
}

type Entered = { answers: Answers; photos: Photos; sent: SentPhotos };

/**
 * The answers without those of hidden questions, nor of questions the survey no longer has (the
 * server refuses both); hiding one may hide others that depend on it. The same objects when
 * nothing is dropped.
 */
export function withoutHidden(questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent: SentPhotos = {}): Entered {
  const shown = shownQuestions(questions, answers, photos, sent);
  const keep = <T extends object>(from: T): T => {
    const drop = Object.keys(from).filter((k) => !shown.has(k));
    if (drop.length === 0) return from;
    const copy = { ...from };
    for (const k of drop) delete copy[k as keyof T];
    return copy;
  };
  return { answers: keep(answers), photos: keep(photos), sent: keep(sent) };
}

/** Every problem of what is entered, first per question: the contracts' check, then the phone's own photo limit. */
function problemsOf(questions: readonly FormQuestion[], e: Entered, now: Date, only?: (missing: boolean) => boolean): Problems {
  const problems: Problems = {};
  for (const issue of answerIssues(checkFormOf(withQuestionIds(questions)), asSent(questions, e.answers, e.photos, e.sent), now)) {
    if (only && !only(issue.missing)) continue;
    if (!Object.hasOwn(problems, issue.question)) put(problems, issue.question, issue.message);
  }
  // The upload route refuses a larger photo (413): said now rather than after a day offline.
  for (const [question, photo] of Object.entries(e.photos)) if (photo.size > Limits.maxImageBytes) put(problems, question, Msg.payloadTooLarge);
  return problems;
}

/**
 * What is wrong with the answers given so far (a number out of range, a bad phone number): the
 * check's own messages, shown live under each shown question; a missing answer waits for the submit.
 */
export function answerProblems(questions: readonly FormQuestion[], answers: Answers, photos: Photos, now = new Date(), sent: SentPhotos = {}): Problems {
  return problemsOf(questions, withoutHidden(questions, answers, photos, sent), now, (missing) => !missing);
}

function view(questions: readonly FormQuestion[], answers: Answers, photos: Photos, problems: Problems, sent: SentPhotos = {}): { shown: Set<string>; problems: Problems } {
  const live = answerProblems(questions, answers, photos, new Date(), sent);
  return { shown: shownQuestions(questions, answers, photos, sent), problems: Object.keys(live).length === 0 ? problems : { ...live, ...problems } };
}

const answered = (questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent: SentPhotos = {}): Answers => withoutHidden(questions, answers, photos, sent).answers;

/**
 * Before a response is queued: hidden and unknown questions' answers dropped, then the server's
 * own check on what is left (a hidden question is never compulsory) and the photo size limit.
 */
export function check(questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent: SentPhotos = {}, now = new Date()): Entered & { problems: Problems } {
  const kept = withoutHidden(questions, answers, photos, sent);
  return { ...kept, problems: problemsOf(questions, kept, now) };
}

export const formRules: FormRules = { check, answered, view };
