import { isChoiceList, isRepeatAnswer } from '../answer-of.js';
import { compileExpression, evaluate, type CompiledExpression } from '../expressions/compile.js';
import type { EvaluationContext } from '../expressions/context.js';
import { asBoolean, asNumber, asString, type Value } from '../expressions/values.js';
import { answerProblem, holds, isAnswered, type RuleAnswer } from '../form-rules/evaluate.js';
import { RuleMsg } from '../form-rules/messages.js';
import { Msg } from '../messages.js';
import { QuestionType } from '../question-types.js';
import type { Choice } from '../schemas/survey.js';
import { geoProblem } from '../geo-check.js';
import { FormMsg } from './messages.js';
import type { CompiledForm, FormExpr, FormNode } from './model.js';

type Scope = Record<string, unknown>;
type At = readonly { repeat: string; index: number }[];

/** What the state is computed with besides the answers. */
export interface FormContext {
  /**
   * `phone`: every expression runs (the form shows and blocks on them). `server`: a value made by
   * the clock or chance (now(), today(), random(), uuid(), once(), pulldata()) is the phone's: a
   * calculation using one keeps its submitted value, and a relevance, requirement, constraint,
   * choice filter or repeat count using one never refuses (the phone judged it at its own time).
   */
  mode?: 'phone' | 'server';
  /** The clock (epoch ms) and its UTC offset for today() and now(); default this machine's. */
  now?: number;
  utcOffsetMinutes?: number;
  /** The language of labels (jr:choice-name, `${q}` in labels); absent: the default texts. */
  language?: string;
  /** "Not in the future" for dates is judged against this day (the server passes the latest zone's). */
  today?: Date;
  /** pulldata(): the survey's attached CSV files as rows. */
  attachments?: EvaluationContext['attachments'];
}

/** One question (or group or repeat) in one repeat instance. */
export interface QuestionState {
  id: string;
  text: string;
  type: string;
  /** The repeat instances it stands in, outermost first (0-based). */
  at: At;
  relevant: boolean;
  required: boolean;
  readOnly: boolean;
  /** Its value as expressions read it (a calculation's computed value; a repeat's instances). */
  value: unknown;
  /** What the form shows under it, or null. */
  problem: string | null;
}

/** One problem of a response: what the form shows and what the API answers (400). */
export interface ResponseIssue {
  /** The question's text (its answer's key in its scope). */
  question: string;
  /** The question's id and the repeat instances it stands in. */
  id: string;
  at: At;
  message: string;
  /** The API's words, naming the question (and its repeat instance) unless it is the spec's compulsory message. */
  refusal: string;
  /** A compulsory question shown and not answered. */
  missing: boolean;
}

export interface FormState {
  /** By stateKey(id, at). */
  questions: Map<string, QuestionState>;
  /** The answers by question id, repeats as arrays of instance objects, with calculations computed. */
  values: Scope;
  /** The answers by question text, as stored, with calculations written in. */
  answers: Scope;
  issues: ResponseIssue[];
  /** The instances a repeat must have (repeat_count), by stateKey; absent: any number within min/max. */
  repeatCounts: Map<string, number>;
  /** The choices of a select or checkbox in an instance, after its choice_filter. */
  choices(id: string, at?: At): readonly Choice[];
  /** A question's label in the context's language with `${q}` replaced by answers. */
  label(id: string, at?: At): string;
}

/** The state map's key of a question in a repeat instance: `id`, or `id#0.2` (0-based indexes). */
export function stateKey(id: string, at: At = []): string {
  return at.length === 0 ? id : `${id}#${at.map((a) => a.index).join('.')}`;
}

function isInstanceList(raw: unknown): raw is Scope[] {
  return Array.isArray(raw) && raw.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));
}

/** The answers keyed by question id, repeats as arrays of instances keyed by ids: what expressions read. */
export function answersById(form: CompiledForm, answers: Readonly<Scope>): Scope {
  const out: Scope = {};
  byId(form.roots, answers, out);
  return out;
}

function byId(nodes: readonly FormNode[], scope: Readonly<Scope>, out: Scope): void {
  for (const n of nodes) {
    if (n.kind === 'group') {
      byId(n.children, scope, out);
      continue;
    }
    if (!Object.hasOwn(scope, n.q.text)) continue;
    const raw = scope[n.q.text];
    if (n.kind === 'repeat') {
      out[n.q.id] = isInstanceList(raw)
        ? raw.map((inst) => {
            const o: Scope = {};
            byId(n.children, inst, o);
            return o;
          })
        : [];
    } else out[n.q.id] = raw;
  }
}

/** The answers keyed by question text (as stored) from answers keyed by id. */
export function answersByText(form: CompiledForm, values: Readonly<Scope>): Scope {
  const out: Scope = {};
  byText(form.roots, values, out);
  return out;
}

function byText(nodes: readonly FormNode[], scope: Readonly<Scope>, out: Scope): void {
  for (const n of nodes) {
    if (n.kind === 'group') {
      byText(n.children, scope, out);
      continue;
    }
    if (!Object.hasOwn(scope, n.q.id)) continue;
    const raw = scope[n.q.id];
    if (n.kind === 'repeat' && isInstanceList(raw)) {
      out[n.q.text] = raw.map((inst) => {
        const o: Scope = {};
        byText(n.children, inst, o);
        return o;
      });
    } else out[n.q.text] = raw;
  }
}

/** Every instance scope a question in `repeats` stands in: the repeats' instances, nested. */
function instanceScopes(values: Scope, repeats: readonly string[]): { scope: Scope; at: At }[] {
  let level: { scope: Scope; at: At }[] = [{ scope: values, at: [] }];
  for (const repeat of repeats) {
    const next: { scope: Scope; at: At }[] = [];
    for (const { scope, at } of level) {
      const list = scope[repeat];
      if (isInstanceList(list)) list.forEach((inst, index) => next.push({ scope: inst, at: [...at, { repeat, index }] }));
    }
    level = next;
  }
  return level;
}

/** How sure the state is of a relevance: `unsure` when the server cannot judge a clock-made one. */
type Relevance = 'yes' | 'no' | 'unsure';

function valueText(v: Value): string {
  return asString(v);
}

function choiceRow(c: Choice): Record<string, string> {
  return { ...c.columns, name: c.name, label: c.label };
}

/**
 * The one form state: relevance (a container's applies to its members), requirements, read-only,
 * calculations in dependency order (relative inside repeats), constraint failures, choice filters
 * and repeat counts, over answers keyed by question text (repeats as arrays of instance objects).
 * The phone shows and blocks on it; the API refuses a response by its `issues` (mode `server`),
 * so a response the phone accepts is never refused for a rule the phone judged.
 */
export function formState(form: CompiledForm, answers: Readonly<Scope>, context: FormContext = {}): FormState {
  const server = context.mode === 'server';
  const values = answersById(form, answers);
  const choiceLabel = (question: string, value: string): string | undefined => {
    const node = form.byId.get(question);
    const choice = node?.choiceByName?.get(value);
    if (choice === undefined) return node?.allowed?.has(value) ? value : undefined;
    return (context.language !== undefined ? choice.labels?.[context.language] : undefined) ?? choice.label;
  };
  const base: EvaluationContext = {
    answers: values,
    repeatsOf: form.repeatsOf,
    choiceLabel,
    ...(context.now !== undefined ? { now: context.now } : {}),
    ...(context.utcOffsetMinutes !== undefined ? { utcOffsetMinutes: context.utcOffsetMinutes } : {}),
    ...(context.attachments !== undefined ? { attachments: context.attachments } : {}),
  };
  // One context object, re-aimed per evaluation (evaluate is synchronous and never re-entered): a
  // fresh object per call was a seventh of the check's time.
  const aimed: { -readonly [K in keyof EvaluationContext]: EvaluationContext[K] } = { ...base };
  const run = (e: FormExpr, question: string, at: At, choice?: Record<string, string>) => {
    aimed.question = question;
    aimed.at = at;
    if (choice) aimed.choice = choice;
    else delete aimed.choice;
    return evaluate(e.expr, aimed);
  };

  // Calculations first, each after what it reads, in every instance of its repeats.
  const computed = new Map<string, string>();
  const calculate = () => {
    computed.clear();
    for (const n of form.calculations) {
      if (server && n.calculation!.volatile) continue;
      for (const { scope, at } of instanceScopes(values, n.repeats)) {
        const r = run(n.calculation!, n.q.id, at);
        const value = r.ok ? valueText(r.value) : '';
        scope[n.q.id] = value;
        computed.set(stateKey(n.q.id, at), value);
      }
    }
  };

  const questions = new Map<string, QuestionState>();
  /** A value another rule reads was removed as hidden in this pass: the rules run again without it. */
  let hidHeard = false;
  const issues: ResponseIssue[] = [];
  const repeatCounts = new Map<string, number>();
  const today = context.today ?? new Date(context.now ?? Date.now());

  const where = (at: At) => at.map((a) => `${form.byId.get(a.repeat)?.q.text ?? a.repeat} ${a.index + 1}`).join(', ');
  const issue = (n: FormNode, at: At, message: string, missing = false) => {
    const named = at.length === 0 ? `"${n.q.text}"` : `"${n.q.text}" in ${where(at)}`;
    issues.push({ question: n.q.text, id: n.q.id, at, message, refusal: missing && at.length === 0 ? Msg.fillCompulsory : `${named}: ${message}`, missing });
  };

  /** A legacy show-if condition, read in the same instance (else at the response's level). */
  const showIfHolds = (n: FormNode, scope: Scope, at: At): boolean => {
    const rule = n.q.showIf!;
    const test = (c: (typeof rule.conditions)[number]) => {
      const source = form.byId.get(c.question);
      if (source === undefined || source.index >= n.index) return holds(c, undefined, undefined);
      const sourceAt = at.slice(0, source.repeats.length);
      const shown = questions.get(stateKey(source.q.id, sourceAt))?.relevant !== false;
      const raw = Object.hasOwn(scope, c.question) ? scope[c.question] : values[c.question];
      const answer: RuleAnswer | undefined = shown && (typeof raw === 'string' || isChoiceList(raw)) ? raw : undefined;
      return holds(c, source.q, answer);
    };
    return rule.combine === 'any' ? rule.conditions.some(test) : rule.conditions.every(test);
  };

  const flag = (n: FormNode, e: FormExpr | null, at: At, fallback: boolean): boolean | null => {
    if (e === null) return fallback;
    if (server && e.volatile) return null;
    const r = run(e, n.q.id, at);
    return r.ok ? asBoolean(r.value) : fallback;
  };

  const walk = (nodes: readonly FormNode[], scope: Scope, textScope: Readonly<Scope> | null, at: At, parentRelevance: Relevance) => {
    // Keys of this scope that are no question of it (a group's members answer in its scope).
    if (textScope !== null && (at.length > 0 || nodes === form.roots)) {
      const members = form.scopes.get(at.length === 0 ? '' : at[at.length - 1]!.repeat)!;
      for (const key of Object.keys(textScope)) {
        if (members.has(key)) continue;
        const repeatNode = at.length > 0 ? form.byId.get(at[at.length - 1]!.repeat) : undefined;
        const named = repeatNode === undefined ? `"${key}"` : `"${key}" in ${where(at)}`;
        issues.push({ question: key, id: '', at, message: 'Not a question of this survey', refusal: `${named} is not a question of this survey`, missing: false });
      }
    }
    for (const n of nodes) {
      let relevance: Relevance = parentRelevance;
      if (relevance !== 'no' && n.q.showIf !== undefined && !showIfHolds(n, scope, at)) relevance = 'no';
      if (relevance !== 'no' && n.relevant !== null) {
        const r = flag(n, n.relevant, at, true);
        if (r === null) relevance = 'unsure';
        else if (!r) relevance = 'no';
      }
      const key = stateKey(n.q.id, at);
      // A hidden question's value is no value: later rules (and the stored answers) see it unanswered.
      if (relevance === 'no' && n.kind !== 'group' && Object.hasOwn(scope, n.q.id)) {
        delete scope[n.q.id];
        if (form.referenced.has(n.q.id)) hidHeard = true;
      }
      const raw = textScope !== null && Object.hasOwn(textScope, n.q.text) ? textScope[n.q.text] : undefined;
      const present = textScope !== null && Object.hasOwn(textScope, n.q.text);
      const required = relevance === 'yes' && n.kind === 'field' && ((!n.neverCompulsory && n.q.compulsory) || flag(n, n.required, at, false) === true);
      const readOnly = n.readOnly === true || (typeof n.readOnly === 'object' && flag(n, n.readOnly, at, false) === true);
      const state: QuestionState = { id: n.q.id, text: n.q.text, type: n.q.type, at, relevant: relevance !== 'no', required, readOnly, value: scope[n.q.id], problem: null };
      questions.set(key, state);
      const before = issues.length;

      if (n.kind === 'group') {
        walk(n.children, scope, textScope, at, relevance);
        continue;
      }
      if (n.kind === 'repeat') {
        if (present && raw !== undefined && !isInstanceList(raw)) {
          issue(n, at, FormMsg.repeatShape);
        } else {
          const instances = isInstanceList(raw) ? raw : [];
          const idInstances = isInstanceList(scope[n.q.id]) ? (scope[n.q.id] as Scope[]) : [];
          if (relevance === 'no') {
            if (server && instances.length > 0) issue(n, at, RuleMsg.hidden);
          } else {
            const count = n.repeatCount === null ? null : typeof n.repeatCount === 'number' ? n.repeatCount : server && n.repeatCount.volatile ? null : ((r) => (r.ok ? asNumber(r.value) : null))(run(n.repeatCount, n.q.id, at));
            if (count !== null && Number.isFinite(count)) {
              const wanted = Math.max(0, Math.trunc(count));
              repeatCounts.set(key, wanted);
              if (relevance === 'yes' && instances.length !== wanted) issue(n, at, FormMsg.repeatCount(wanted));
            } else if (relevance === 'yes') {
              const { min, max } = n.q.repeat ?? {};
              if (min !== undefined && instances.length < min) issue(n, at, FormMsg.repeatMin(min));
              if (max !== undefined && instances.length > max) issue(n, at, FormMsg.repeatMax(max));
            }
            instances.forEach((inst, index) => walk(n.children, idInstances[index] ?? {}, inst, [...at, { repeat: n.q.id, index }], relevance));
          }
        }
        if (issues.length > before) state.problem = issues[before]!.message;
        continue;
      }

      // A field.
      const answered = isAnswered(raw);
      if (n.q.type === QuestionType.calculate) {
        // The phone recomputes and stores its calculations (a hidden one not at all); the server
        // compares what arrived with its own computation: a difference is tampering.
        if (!server) {
          // Nothing to check: the stored answers carry the computed value.
        } else if (relevance === 'no') {
          if (answered) issue(n, at, RuleMsg.hidden);
        } else {
          const expected = computed.get(key);
          if (expected !== undefined && present && raw !== expected) issue(n, at, FormMsg.calculationMismatch);
        }
      } else if (relevance === 'no') {
        // The phone leaves a hidden question's answer out of what it stores (state.answers).
        if (server && answered) issue(n, at, RuleMsg.hidden);
      } else if (!present) {
        if (required) issue(n, at, Msg.answerRequired, true);
      } else if (answered) {
        const problem = fieldProblem(n, raw, at);
        if (problem !== null) issue(n, at, problem);
      } else if (typeof raw !== 'string' && !isChoiceList(raw)) issue(n, at, FormMsg.textShape);
      if (issues.length > before) state.problem = issues[before]!.message;
    }
  };

  /** What is wrong with an answered field's answer, or null. */
  const fieldProblem = (n: FormNode, raw: unknown, at: At): string | null => {
    const q = n.q;
    if (q.type === QuestionType.checkbox || q.type === QuestionType.rank) {
      if (!isChoiceList(raw)) return FormMsg.listShape;
    } else if (typeof raw !== 'string') return isRepeatAnswer(raw) ? FormMsg.repeatAnswerShape : FormMsg.textShape;
    if (q.type === QuestionType.note) return FormMsg.noteAnswered;
    const base = answerProblem(q, raw, today);
    if (base !== null) return base;
    const text = typeof raw === 'string' ? raw.trim() : '';
    switch (q.type) {
      case QuestionType.datetime:
        if (!DATETIME.test(text) || Number.isNaN(Date.parse(text))) return FormMsg.datetime;
        break;
      case QuestionType.range: {
        const x = Number(text);
        const r = q.range;
        if (text === '' || !Number.isFinite(x)) return RuleMsg.decimal;
        if (r !== undefined) {
          const lo = Math.min(r.start, r.end);
          const hi = Math.max(r.start, r.end);
          const steps = (x - r.start) / r.step;
          if (x < lo || x > hi) return RuleMsg.between(String(lo), String(hi));
          if (Math.abs(steps - Math.round(steps)) > 1e-9) return FormMsg.rangeStep(r.step);
        }
        break;
      }
      case QuestionType.acknowledge:
        if (text !== 'OK') return FormMsg.acknowledge;
        break;
      case QuestionType.geotrace:
      case QuestionType.geoshape: {
        const problem = geoProblem(text, q.type === QuestionType.geoshape);
        if (problem !== null) return problem;
        break;
      }
      case QuestionType.rank: {
        // Every choice offered, each once, in the order given.
        const order = raw as readonly string[];
        if (new Set(order).size !== order.length) return FormMsg.rankOnce;
        const all: readonly Choice[] = q.choices ?? q.options.map((o) => ({ name: o, label: o }));
        const offered = n.choiceFilter === null || (server && n.choiceFilter.volatile) ? all : all.filter((c) => {
          const r = run(n.choiceFilter!, q.id, at, choiceRow(c));
          return !r.ok || asBoolean(r.value);
        });
        if (order.length !== offered.length) return FormMsg.rankAll;
        break;
      }
    }
    if (n.allowed !== null) {
      const chosen = typeof raw === 'string' ? [raw] : (raw);
      if (!chosen.every((c) => n.allowed!.has(c))) return RuleMsg.notAnOption;
      if (n.choiceFilter !== null && !(server && n.choiceFilter.volatile)) {
        for (const c of chosen) {
          const choice = n.choiceByName?.get(c);
          const r = run(n.choiceFilter, q.id, at, choice ? choiceRow(choice) : { name: c, label: c });
          if (r.ok && !asBoolean(r.value)) return FormMsg.notAmongFiltered;
        }
      }
    }
    if (n.constraint !== null && !(server && n.constraint.volatile)) {
      const r = run(n.constraint, q.id, at);
      if (r.ok && !asBoolean(r.value)) return translated(q, 'constraintMessage', context.language) ?? FormMsg.constraint;
    }
    return null;
  };

  // Calculations, then the rules in form order; when a hidden value that other rules read was
  // removed, once more without it (at most three passes: a form whose hiding flips back and forth
  // settles on the third).
  for (let pass = 0; pass < 3; pass++) {
    calculate();
    questions.clear();
    issues.length = 0;
    repeatCounts.clear();
    hidHeard = false;
    walk(form.roots, values, answers, [], 'yes');
    if (!hidHeard) break;
  }

  // The answers to store: as given, with the computed calculations written in; the phone's without
  // its hidden questions' answers.
  const rebuilt = !server || computed.size > 0;
  const stored = rebuilt ? answersByText(form, values) : (answers as Scope);
  if (rebuilt) keepUnknown(answers, stored, form.scopes.get('')!);

  const filtered = new Map<string, readonly Choice[]>();
  return {
    questions,
    values,
    answers: stored,
    issues,
    repeatCounts,
    choices(id, at = []) {
      const key = stateKey(id, at);
      const hit = filtered.get(key);
      if (hit) return hit;
      const n = form.byId.get(id);
      const all: readonly Choice[] = n?.q.choices ?? (n?.q.options ?? []).map((o) => ({ name: o, label: o }));
      const list = n?.choiceFilter ? all.filter((c) => {
        const r = run(n.choiceFilter!, id, at, choiceRow(c));
        return !r.ok || asBoolean(r.value);
      }) : all;
      filtered.set(key, list);
      return list;
    },
    label(id, at = []) {
      const n = form.byId.get(id);
      if (n === undefined) return '';
      const text = translated(n.q, 'text', context.language) ?? n.q.text;
      return substitute(text, (name) => {
        const e = refExpr(name);
        const r = e === null ? null : evaluate(e, { ...base, question: id, at });
        if (r === null || !r.ok) return '';
        const value = asString(r.value);
        const source = form.byId.get(name);
        // A select's answer shows as its choice's label.
        return source?.choiceByName ? value.split(' ').map((v) => choiceLabel(name, v) ?? v).join(' ') : value;
      });
    },
  };
}

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Answers the form has no question for stay as sent (they are issues; a stored response keeps what it had). */
function keepUnknown(from: Readonly<Scope>, to: Scope, known: ReadonlyMap<string, unknown>): void {
  for (const key of Object.keys(from)) if (!known.has(key) && !Object.hasOwn(to, key)) to[key] = from[key];
}

type TranslatedField = 'text' | 'hint' | 'guidanceHint' | 'requiredMessage' | 'constraintMessage';

/** A question's text field in a language, falling back to the default language's. */
export function translated(q: Pick<CompiledForm['questions'][number], TranslatedField | 'translations'>, field: TranslatedField, language: string | undefined): string | undefined {
  return (language !== undefined ? q.translations?.[language]?.[field] : undefined) ?? q[field];
}

const refCache = new Map<string, CompiledExpression | null>();
/** `${name}` compiled once, read by the engine's rules (relative inside repeats). */
function refExpr(name: string): CompiledExpression | null {
  let e = refCache.get(name);
  if (e === undefined) {
    const r = compileExpression(`\${${name}}`);
    e = r.ok ? r.expr : null;
    if (refCache.size > 2000) refCache.clear();
    refCache.set(name, e);
  }
  return e;
}

/** `${name}` in a label replaced by `value(name)`. */
export function substitute(text: string, value: (name: string) => string): string {
  return text.includes('${') ? text.replace(/\$\{\s*([^}\s]+)\s*\}/g, (_, name: string) => value(name)) : text;
}
