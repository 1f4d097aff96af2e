import { Limits } from '../constants.js';
import { RuleMsg } from './messages.js';
import type { Condition, Constraint, ShowIf } from './rules.js';
import { isEmail, localDay, normalisePhone, parseDate, parseDecimal, parseTime, parseWhole } from './values.js';

/**
 * The one evaluator of skip logic, typed answers and constraints: the form runs it live on the
 * phone and the API on every response and batch item, so a response the phone accepts offline is
 * never refused later for a rule the phone could check. Pure functions, no zod (the form's route
 * carries them).
 */
export type RuleAnswer = string | readonly string[];

export interface RuleQuestion {
  id: string;
  text: string;
  type: string;
  compulsory: boolean;
  showIf?: ShowIf;
  constraint?: Constraint;
}

export interface Problem {
  /** The question's id. */
  question: string;
  text: string;
  message: string;
}

/** Answered: text not blank, or a list (choices, a repeat's instances) not empty. */
export function isAnswered(answer: unknown): boolean {
  if (typeof answer === 'string') return answer.trim().length > 0;
  return Array.isArray(answer) && answer.length > 0;
}

/** A comparable value: a number for number/decimal, days for a date, seconds for a time. */
function comparable(type: string, value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  switch (type) {
    case 'date':
      return parseDate(value);
    case 'time':
      return parseTime(value);
    default:
      return parseDecimal(value);
  }
}

/** Whether one show-if condition holds for its source question's answer (undefined: unanswered or hidden). */
export function holds(c: Condition, source: Pick<RuleQuestion, 'type'> | undefined, answer: RuleAnswer | undefined): boolean {
  if (c.op === 'answered') return isAnswered(answer);
  if (!isAnswered(answer) || source === undefined) return c.op === 'notEquals';
  const wanted = c.value === undefined ? '' : String(c.value).trim();
  // One answer (a string) compared directly: no list is built on the ingest path.
  const single = typeof answer === 'string' ? answer.trim() : answer!.length === 1 ? answer![0]!.trim() : null;
  switch (c.op) {
    case 'equals':
      return single === wanted;
    case 'notEquals':
      return single !== wanted;
    case 'includes':
      return typeof answer === 'string' ? single === wanted : answer!.some((v) => v.trim() === wanted);
    case 'greaterThan':
    case 'lessThan': {
      if (typeof answer !== 'string' || c.value === undefined) return false;
      const a = comparable(source.type, answer);
      const b = comparable(source.type, c.value);
      if (a === null || b === null) return false;
      return c.op === 'greaterThan' ? a > b : a < b;
    }
  }
}

/**
 * The ids of the questions shown for these answers, in form order. A condition on a hidden
 * question sees it unanswered (its answer is cleared), so hiding cascades.
 */
export function visibleQuestions(questions: readonly RuleQuestion[], answerOf: (q: RuleQuestion) => RuleAnswer | undefined): Set<string> {
  const visible = new Set<string>();
  const byId = new Map<string, RuleQuestion>();
  for (const q of questions) {
    if (q.showIf === undefined || shown(q.showIf, byId, visible, answerOf)) visible.add(q.id);
    byId.set(q.id, q);
  }
  return visible;
}

function shown(rule: ShowIf, earlier: Map<string, RuleQuestion>, visible: Set<string>, answerOf: (q: RuleQuestion) => RuleAnswer | undefined): boolean {
  const test = (c: Condition) => {
    const source = earlier.get(c.question);
    const answer = source !== undefined && visible.has(source.id) ? answerOf(source) : undefined;
    return holds(c, source, answer);
  };
  return rule.combine === 'any' ? rule.conditions.some(test) : rule.conditions.every(test);
}

function label(type: string, value: string | number): string {
  return typeof value === 'number' ? value.toLocaleString('en-NG') : type === 'date' ? value : String(value);
}

function rangeProblem(type: string, value: number, c: Constraint): string | null {
  const min = c.min === undefined ? null : comparable(type, c.min);
  const max = c.max === undefined ? null : comparable(type, c.max);
  const low = min !== null && value < min;
  const high = max !== null && value > max;
  if (!low && !high) return null;
  if (c.message) return c.message;
  if (min !== null && max !== null) return RuleMsg.between(label(type, c.min!), label(type, c.max!));
  return low ? RuleMsg.atLeast(label(type, c.min!)) : RuleMsg.atMost(label(type, c.max!));
}

const NO_CONSTRAINT: Constraint = Object.freeze({});

/** What is wrong with one answered question's answer, or null; `now` decides "not in the future". */
export function answerProblem(q: RuleQuestion, answer: unknown, now: Date): string | null {
  if (typeof answer !== 'string') return null;
  if (answer.length > Limits.maxAnswerLength) return RuleMsg.answerTooLong;
  const c = q.constraint ?? NO_CONSTRAINT;
  switch (q.type) {
    case 'number':
    case 'decimal': {
      const n = q.type === 'number' ? parseWhole(answer) : parseDecimal(answer);
      if (n === null) return q.type === 'number' ? RuleMsg.whole : RuleMsg.decimal;
      return rangeProblem(q.type, n, c);
    }
    case 'date': {
      const d = parseDate(answer);
      if (d === null) return RuleMsg.date;
      if (c.notInFuture && d > localDay(now)) return c.message ?? RuleMsg.notInFuture;
      return rangeProblem('date', d, c);
    }
    case 'time':
      return parseTime(answer) === null ? RuleMsg.time : rangeProblem('time', parseTime(answer)!, c);
    case 'phone':
      return normalisePhone(answer) === null ? RuleMsg.phone : null;
    case 'email':
      return isEmail(answer) ? null : RuleMsg.email;
    default: {
      const len = answer.trim().length;
      const { minLength: lo, maxLength: hi } = c;
      if ((lo === undefined || len >= lo) && (hi === undefined || len <= hi)) return null;
      if (c.message) return c.message;
      if (lo !== undefined && hi !== undefined) return RuleMsg.lengthBetween(lo, hi);
      return lo !== undefined && len < lo ? RuleMsg.minLength(lo) : RuleMsg.maxLength(hi!);
    }
  }
}

/**
 * Every problem of a response, in form order: compulsory visible questions unanswered, answers
 * that break their type or constraint, and answers to hidden questions (the phone clears those
 * before it queues, so only a bypassed form sends one).
 */
export function responseProblems(questions: readonly RuleQuestion[], answerOf: (q: RuleQuestion) => RuleAnswer | undefined, now: Date): Problem[] {
  const visible = visibleQuestions(questions, answerOf);
  const problems: Problem[] = [];
  for (const q of questions) {
    const answer = answerOf(q);
    const answered = isAnswered(answer);
    let message: string | null = null;
    if (!visible.has(q.id)) message = answered ? RuleMsg.hidden : null;
    else if (!answered) message = q.compulsory ? RuleMsg.required : null;
    else message = answerProblem(q, answer!, now);
    if (message !== null) problems.push({ question: q.id, text: q.text, message });
  }
  return problems;
}

/** The stored form of a typed answer: phone numbers as +234..., numbers and dates trimmed. */
export function normaliseAnswer<A>(type: string, answer: A): A | string {
  if (typeof answer !== 'string') return answer;
  if (type === 'phone') return normalisePhone(answer) ?? answer;
  if (type === 'email') return answer.trim().toLowerCase();
  if (type === 'number' || type === 'decimal' || type === 'date' || type === 'time') return answer.trim();
  return answer;
}

/**
 * Problems with the rules themselves, for the builder and the API at publish: a condition must
 * name an earlier question, compare with a value where it needs one, and min must not pass max.
 */
export function ruleProblems(questions: readonly RuleQuestion[]): Problem[] {
  const problems: Problem[] = [];
  const earlier = new Map<string, RuleQuestion>();
  for (const q of questions) {
    const add = (message: string) => problems.push({ question: q.id, text: q.text, message });
    for (const c of q.showIf?.conditions ?? []) {
      const source = earlier.get(c.question);
      if (source === undefined) add('A condition can only use an earlier question');
      else if (c.op !== 'answered' && c.value === undefined) add('A condition needs a value to compare with');
      else if ((c.op === 'greaterThan' || c.op === 'lessThan') && comparable(source.type, c.value!) === null) add('Greater or less than compares numbers, dates or times');
    }
    const k = q.constraint;
    if (k?.min !== undefined && k.max !== undefined) {
      const lo = comparable(q.type, k.min);
      const hi = comparable(q.type, k.max);
      if (lo === null || hi === null) add('The limits must be numbers, or dates for a date question');
      else if (lo > hi) add('The minimum is above the maximum');
    }
    if (k?.minLength !== undefined && k.maxLength !== undefined && k.minLength > k.maxLength) add('The minimum length is above the maximum');
    earlier.set(q.id, q);
  }
  return problems;
}
