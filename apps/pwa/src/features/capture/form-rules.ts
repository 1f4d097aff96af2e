import { compileForm, FormMsg, formState, HIDDEN_QUESTION_TYPES, Limits, Msg, RuleMsg, stateKey, translated, withQuestionIds, type Answers, type CompiledForm, type FormNode, type FormState, type StoredQuestion } from '@survey-bird/contracts';
import { pathKey, type AnswerPath } from './answer-path';
import type { QuestionView, RepeatView, ViewNode } from './form-view';
import { isPhotoQuestion, type FormQuestion, type FormRules, type Photos, type Problems, type SentPhotos } from './form-logic';
import { registerMessages } from './rule-text';

// The rules' words, translated where the form shows them (rule-text.ts).
registerMessages('rule.', RuleMsg);
registerMessages('form.', FormMsg);

// Relevance, required, read-only, calculations, choice filters, repeat counts, constraints and
// typed answers on the phone, by the contracts' formState: the one the API refuses a response by. Loaded with the first form (form-logic.ts FormRules), kept offline by the service
// worker like the capture components.

/** A photo question's answer for the check while its photo is on the phone (the server's reference replaces it). */
const PHOTO_ON_PHONE = 'photo';

type Json = Readonly<Record<string, unknown>>;
type At = AnswerPath['at'];
type EngineAt = readonly { repeat: string; index: number }[];

/** Never drawn: metadata the app fills and calculations (stored, recomputed by the server). */
const HIDDEN: readonly string[] = HIDDEN_QUESTION_TYPES;
const NO_ANSWER = new Set<string>(['note', 'group']);

const put = (to: Record<string, unknown>, key: string, value: unknown) => Object.defineProperty(to, key, { value, enumerable: true, writable: true, configurable: true });
const own = (from: Json, key: string): unknown => (Object.hasOwn(from, key) ? from[key] : undefined);
const isInstances = (raw: unknown): raw is Json[] => Array.isArray(raw) && raw.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));
/** The engine names repeats by id, the answers (and paths) by text. */
const engineAt = (at: At, ids: ReadonlyMap<string, string>): EngineAt => at.map((s) => ({ repeat: ids.get(s.repeat) ?? s.repeat, index: s.index }));

interface Prepared {
  form: CompiledForm;
  /** Repeat text -> id. */
  repeatIds: Map<string, string>;
  /** Repeat id -> text. */
  repeatTexts: Map<string, string>;
}

const prepared = new WeakMap<readonly FormQuestion[], Prepared>();
function prepare(questions: readonly FormQuestion[]): Prepared {
  let p = prepared.get(questions);
  if (!p) {
    const form = compileForm(withQuestionIds(questions));
    const repeats = form.nodes.filter((n) => n.kind === 'repeat');
    p = { form, repeatIds: new Map(repeats.map((n) => [n.q.text, n.q.id])), repeatTexts: new Map(repeats.map((n) => [n.q.id, n.q.text])) };
    prepared.set(questions, p);
  }
  return p;
}

/** The answers as the engine checks them: a photo question answered by its photo on the phone, or the one already sent (keyed by pathKey). */
function withPhotos(p: Prepared, answers: Json, photos: Photos, sent: SentPhotos): Json {
  const walk = (nodes: readonly FormNode[], from: Json, at: At): Json => {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(from)) put(out, k, from[k]);
    const visit = (list: readonly FormNode[]) => {
      for (const n of list) {
        if (n.kind === 'group') visit(n.children);
        else if (n.kind === 'repeat') {
          const raw = own(from, n.q.text);
          if (isInstances(raw)) put(out, n.q.text, raw.map((inst, index) => walk(n.children, inst, [...at, { repeat: n.q.text, index }])));
        } else if (isPhotoQuestion(n.q)) {
          const key = pathKey({ at, question: n.q.text });
          const value = Object.hasOwn(photos, key) ? PHOTO_ON_PHONE : Object.hasOwn(sent, key) ? sent[key] : undefined;
          // A photo question is answered by its photo only, never by a text in the answers.
          if (value !== undefined) put(out, n.q.text, value);
          else delete out[n.q.text];
        }
      }
    };
    visit(nodes);
    return out;
  };
  return walk(p.form.roots, answers, []);
}

const stateOf = (p: Prepared, answers: Json, language?: string, now = new Date()): FormState => formState(p.form, answers, { mode: 'phone', now: now.getTime(), ...(language !== undefined ? { language } : {}) });

/**
 * One pass over the answers on the form state: calculations written in (the engine's), answers of
 * questions that are not relevant or not of the form dropped, repeats with a repeat_count given
 * that many instances (a new one with its defaults).
 */
function normaliseOnce(p: Prepared, answers: Json): Json {
  const state = stateOf(p, answers);
  const relevantAt = (n: FormNode, at: At) => state.questions.get(stateKey(n.q.id, engineAt(at, p.repeatIds)))?.relevant !== false;
  const walk = (nodes: readonly FormNode[], from: Json, to: Record<string, unknown>, at: At) => {
    for (const n of nodes) {
      if (!relevantAt(n, at)) continue;
      if (n.kind === 'group') {
        walk(n.children, from, to, at);
        continue;
      }
      if (n.kind === 'repeat') {
        const raw = own(from, n.q.text);
        let list = isInstances(raw) ? raw : [];
        const count = state.repeatCounts.get(stateKey(n.q.id, engineAt(at, p.repeatIds)));
        if (count !== undefined) {
          const wanted = Math.min(count, Limits.maxRepeatInstances);
          list = list.length > wanted ? list.slice(0, wanted) : [...list, ...Array.from({ length: wanted - list.length }, () => defaultsOf(n.children))];
        }
        // No instance is no answer: an empty list would read as an empty checkbox answer.
        if (list.length > 0) put(to, n.q.text, list.map((inst, index) => {
          const o: Record<string, unknown> = {};
          walk(n.children, inst, o, [...at, { repeat: n.q.text, index }]);
          return o;
        }));
        continue;
      }
      if (Object.hasOwn(from, n.q.text)) put(to, n.q.text, from[n.q.text]);
    }
  };
  const out: Record<string, unknown> = {};
  walk(p.form.roots, state.answers, out, []);
  return out;
}

function sameAnswers(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameAnswers((a as Json)[k], (b as Json)[k]));
}

/** Normalised until stable (dropping a hidden answer may hide more); the same object when nothing changed. */
function normalise(p: Prepared, answers: Json): Json {
  let current = answers;
  for (let i = 0; i < 4; i++) {
    const next = normaliseOnce(p, current);
    if (sameAnswers(next, current)) return i === 0 ? answers : current;
    current = next;
  }
  return current;
}

/** A new instance's (or response's) answers: its questions' defaults, and the minimum instances of its open repeats. */
function defaultsOf(nodes: readonly FormNode[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of nodes) {
    const q = n.q;
    if (n.kind === 'group') Object.assign(out, defaultsOf(n.children));
    else if (n.kind === 'repeat') {
      const min = q.repeatCount === undefined ? (q.repeat?.min ?? 0) : 0;
      if (min > 0) put(out, q.text, Array.from({ length: min }, () => defaultsOf(n.children)));
    } else if (q.default !== undefined && q.default !== '' && !HIDDEN.includes(q.type)) put(out, q.text, q.type === 'checkbox' ? q.default.split(/\s+/).filter(Boolean) : q.default);
  }
  return out;
}

interface Walked {
  view: ViewNode[];
  shown: Set<string>;
  /** Every problem, by key, with whether it is a missing answer. */
  issues: { key: string; message: string; missing: boolean }[];
}

/** The form's tree for these answers, and the form state's issues keyed by path, in form order. */
function walkForm(p: Prepared, answers: Json, photos: Photos, sent: SentPhotos, language: string | undefined, now: Date): Walked {
  const state = stateOf(p, withPhotos(p, answers, photos, sent), language, now);
  const shown = new Set<string>();
  let number = 0;

  const walk = (nodes: readonly FormNode[], holder: Json, at: At): ViewNode[] => {
    const out: ViewNode[] = [];
    for (const n of nodes) {
      const q = n.q as StoredQuestion;
      const eAt = engineAt(at, p.repeatIds);
      const s = state.questions.get(stateKey(q.id, eAt));
      if (HIDDEN.includes(q.type) || s?.relevant === false) continue;
      const path: AnswerPath = { at, question: q.text };
      const key = pathKey(path);
      const label = state.label(q.id, eAt);
      const hint = translated(q, 'hint', language);
      if (n.kind === 'group') {
        out.push({ kind: 'group', question: q, key: `${key}§${n.index}`, label, hint, fieldList: /(^|\s)field-list(\s|$)/.test(q.appearance ?? ''), children: walk(n.children, holder, at) });
        continue;
      }
      if (n.kind === 'repeat') {
        const raw = own(holder, q.text);
        const list = isInstances(raw) ? raw : [];
        const fixed = state.repeatCounts.has(stateKey(q.id, eAt));
        const readOnly = s?.readOnly === true;
        const max = Math.min(q.repeat?.max ?? Limits.maxRepeatInstances, Limits.maxRepeatInstances);
        const view: RepeatView = {
          kind: 'repeat', question: q, at, key, label, hint, fixed,
          canAdd: !fixed && !readOnly && list.length < max,
          canRemove: !fixed && !readOnly && list.length > (q.repeat?.min ?? 0),
          instances: list.map((inst, index) => ({ index, key: `${key}#${index + 1}`, children: walk(n.children, inst, [...at, { repeat: q.text, index }]) })),
        };
        out.push(view);
        continue;
      }
      shown.add(key);
      const choices = n.allowed === null ? undefined : state.choices(q.id, eAt).map((c) => ({ value: c.name, label: (language !== undefined ? c.labels?.[language] : undefined) ?? c.label }));
      const view: QuestionView = {
        kind: 'question', question: q, path, key, number: NO_ANSWER.has(q.type) ? number : ++number, label, hint,
        guidanceHint: translated(q, 'guidanceHint', language), required: s?.required === true, readOnly: s?.readOnly === true, choices,
      };
      out.push(view);
    }
    return out;
  };
  const view = walk(p.form.roots, answers, []);
  const issues = state.issues.map((issue) => {
    const at = issue.at.map((a) => ({ repeat: p.repeatTexts.get(a.repeat) ?? a.repeat, index: a.index }));
    const q = p.form.byId.get(issue.id)?.q;
    // The form's own words for a missing answer, in the language shown.
    const message = issue.missing && q ? (translated(q, 'requiredMessage', language) ?? issue.message) : issue.message;
    return { key: pathKey({ at, question: issue.question }), message, missing: issue.missing };
  });
  return { view, shown, issues };
}

/** The photos (and sent photos) of questions still shown: a dropped instance or hidden question drops its photo. */
function keptPhotos<T>(from: Record<string, T>, shown: Set<string>): Record<string, T> {
  const drop = Object.keys(from).filter((k) => !shown.has(k));
  if (drop.length === 0) return from;
  const copy = { ...from };
  for (const k of drop) delete copy[k];
  return copy;
}

const answered: FormRules['answered'] = (questions, answers) => normalise(prepare(questions), answers) as Answers;

function problemsOf(issues: Walked['issues'], photos: Photos, only?: (missing: boolean) => boolean): Problems {
  const problems: Problems = {};
  for (const issue of issues) {
    if (only && !only(issue.missing)) continue;
    if (!Object.hasOwn(problems, issue.key)) put(problems, issue.key, issue.message);
  }
  // The upload route refuses a larger photo (413): said now rather than after a day offline.
  // (A recording, video or document was held to its type's cap when picked: MediaQuestion.)
  for (const [key, photo] of Object.entries(photos)) if (photo.type.startsWith('image/') && photo.size > Limits.maxImageBytes) put(problems, key, Msg.payloadTooLarge);
  return problems;
}

/**
 * The walk with the photos of questions no longer shown left out (a photo sent for a question an
 * answer now hides is not an answer to it), so the state judges what will be sent.
 */
function settled(p: Prepared, answers: Json, photos: Photos, sent: SentPhotos, language: string | undefined, now: Date): Walked & { photos: Photos; sent: SentPhotos } {
  const first = walkForm(p, answers, photos, sent, language, now);
  const keptP = keptPhotos(photos, first.shown);
  const keptS = keptPhotos(sent, first.shown);
  const walked = keptP === photos && keptS === sent ? first : walkForm(p, answers, keptP, keptS, language, now);
  return { ...walked, photos: keptP, sent: keptS };
}

const view: FormRules['view'] = (questions, answers, photos, problems, sent = {}, language) => {
  const p = prepare(questions);
  const walked = settled(p, normalise(p, answers), photos, sent, language, new Date());
  // What is wrong with the answers given so far shows live; a missing answer waits for the submit.
  const live = problemsOf(walked.issues, photos, (missing) => !missing);
  return { view: walked.view, shown: walked.shown, problems: Object.keys(live).length === 0 ? problems : { ...live, ...problems } };
};

/**
 * Before a response is queued: hidden and unknown questions' answers dropped, calculations
 * filled, then every problem (a hidden question is never required) and the photo size limit.
 */
export function check(questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent: SentPhotos = {}, language?: string, now = new Date()): { answers: Answers; photos: Photos; sent: SentPhotos; problems: Problems } {
  const p = prepare(questions);
  const kept = normalise(p, answers) as Answers;
  const walked = settled(p, kept, photos, sent, language, now);
  return { answers: kept, photos: walked.photos, sent: walked.sent, problems: problemsOf(walked.issues, walked.photos) };
}

const newInstance: FormRules['newInstance'] = (questions, repeatId) => {
  const node = prepare(questions).form.byId.get(repeatId);
  return (node ? defaultsOf(node.children) : {}) as Answers;
};

const started: FormRules['started'] = (questions) => {
  const p = prepare(questions);
  return normalise(p, defaultsOf(p.form.roots)) as Answers;
};

/* The old builder preview's entry points (surveys/FormPreview.tsx), on the same walk. */

/** The keys of the questions shown for these answers (texts at the top level). */
export function shownQuestions(questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent: SentPhotos = {}): Set<string> {
  const p = prepare(questions);
  return walkForm(p, normalise(p, answers), photos, sent, undefined, new Date()).shown;
}

/** The answers without those of hidden or unknown questions (calculations filled); the same objects when nothing is dropped. */
export function withoutHidden(questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent: SentPhotos = {}): { answers: Answers; photos: Photos; sent: SentPhotos } {
  const p = prepare(questions);
  const kept = normalise(p, answers) as Answers;
  const walked = settled(p, kept, photos, sent, undefined, new Date());
  return { answers: kept, photos: walked.photos, sent: walked.sent };
}

/** What is wrong with the answers given so far (a missing answer waits for the submit). */
export function answerProblems(questions: readonly FormQuestion[], answers: Answers, photos: Photos, now = new Date(), sent: SentPhotos = {}): Problems {
  const p = prepare(questions);
  return problemsOf(settled(p, normalise(p, answers), photos, sent, undefined, now).issues, photos, (missing) => !missing);
}

export const formRules: FormRules = { check, answered, view, newInstance, started };
