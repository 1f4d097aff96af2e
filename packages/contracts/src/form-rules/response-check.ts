import { answerOf, isChoiceList } from '../answer-of.js';
import type { Answer } from '../schemas/response.js';
import { Msg } from '../messages.js';
import { NO_ANSWER_QUESTION_TYPES } from '../question-rules.js';
import { QuestionType } from '../question-types.js';
import { answerProblem, isAnswered, visibleQuestions, type RuleAnswer, type RuleQuestion } from './evaluate.js';
import { RuleMsg } from './messages.js';
import { compileForm, usesModel, type CompiledForm, type EngineQuestion } from '../form-engine/model.js';
import { formState, type FormContext } from '../form-engine/state.js';

/**
 * The one check of a response's answers against one version of a survey's questions: the API
 * refuses a response with its first issue, the phone's form and its Fix dialogs show every issue
 * under its question before anything is queued. Being the same code, the phone never queues what
 * the server will refuse for a rule the phone could check (a field user is paid per response).
 */
export interface CheckForm {
  /** Question text -> question. */
  questions: ReadonlyMap<string, RuleQuestion>;
  /** In form order, each with its id. */
  ordered: readonly RuleQuestion[];
  /** The compulsory questions, in form order. */
  compulsory: readonly RuleQuestion[];
  /** Some question carries a show-if condition (else every question is shown). */
  hasShowIf: boolean;
  /** The compiled form when it uses the XLSForm model (groups, repeats, expressions...): the form engine checks it. */
  model?: CompiledForm | null;
}

export interface AnswerIssue {
  /** The question's text (the answer's key). */
  question: string;
  /** What the form shows under the question. */
  message: string;
  /** What the API answers (400): naming the question unless it is the spec's compulsory message. */
  refusal: string;
  /** A compulsory question shown and not answered (spec section 5: only the key's presence counts). */
  missing: boolean;
}

/** The check's view of questions in form order (ids given), as the API parses them once per version. */
export function checkFormOf(ordered: readonly RuleQuestion[]): CheckForm {
  return {
    questions: new Map(ordered.map((q) => [q.text, q])),
    ordered,
    compulsory: ordered.filter((q) => q.compulsory),
    hasShowIf: ordered.some((q) => q.showIf !== undefined),
    model: modelOf(ordered),
  };
}

/** The compiled form of questions that use the XLSForm model, else null (the builder's rules alone check them). */
export function modelOf(ordered: readonly RuleQuestion[]): CompiledForm | null {
  const questions = ordered as readonly (RuleQuestion & Partial<EngineQuestion>)[];
  return questions.some((q) => usesModel(q)) ? compileForm(questions.map((q) => ({ ...q, options: q.options ?? [] }))) : null;
}

type Answers = Readonly<Record<string, Answer>>;

/**
 * Every issue of `answers`, in the order the API has always refused them: compulsory questions
 * shown and unanswered, then answers that are no question's or of the wrong shape, then (in form
 * order) answers to hidden questions and answers breaking their type or constraint. `today`
 * decides "not in the future". Lazy: the API stops at the first. A form using the XLSForm model is
 * checked by the form engine (formState's issues; the API's `mode` is `server`).
 */
export function* answerIssues(form: CheckForm, answers: Answers, today: Date, mode: FormContext['mode'] = 'phone'): Generator<AnswerIssue, void, undefined> {
  if (form.model) {
    yield* formState(form.model, answers, { mode, today }).issues;
    return;
  }
  const answerFor = (q: RuleQuestion): RuleAnswer | undefined => {
    const a = answerOf(answers, q.text);
    return typeof a === 'string' || isChoiceList(a) ? a : undefined;
  };
  const visible = form.hasShowIf ? visibleQuestions(form.ordered, answerFor) : null;
  for (const q of form.compulsory) {
    if (!Object.hasOwn(answers, q.text) && (visible === null || visible.has(q.id))) yield { question: q.text, message: Msg.answerRequired, refusal: Msg.fillCompulsory, missing: true };
  }
  for (const key in answers) {
    if (!Object.hasOwn(answers, key)) continue;
    const value = answers[key]!;
    const question = form.questions.get(key);
    const issue = (message: string, refusal: string): AnswerIssue => ({ question: key, message, refusal, missing: false });
    if (!question) yield issue('Not a question of this survey', `"${key}" is not a question of this survey`);
    else if (question.type === QuestionType.checkbox && !isChoiceList(value)) yield issue('Must be a list of choices', `The answer to "${key}" must be a list of choices`);
    else if (question.type !== QuestionType.checkbox && Array.isArray(value)) yield issue('Must be text, not a list', `The answer to "${key}" must be text, not a list`);
    else if ((NO_ANSWER_QUESTION_TYPES as readonly string[]).includes(question.type) && isAnswered(value)) yield issue('A note takes no answer', `"${key}": A note takes no answer`);
  }
  for (const q of form.ordered) {
    const answer = answerFor(q);
    if (!isAnswered(answer)) continue;
    const message = visible !== null && !visible.has(q.id) ? RuleMsg.hidden : answerProblem(q, answer!, today);
    if (message !== null) yield { question: q.text, message, refusal: `"${q.text}": ${message}`, missing: false };
  }
}
