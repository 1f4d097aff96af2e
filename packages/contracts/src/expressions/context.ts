import { answerText, NodeSet, type AnswerNode } from './values.js';

/**
 * What an expression reads: the response's answers as JSON (question name -> text; a repeat ->
 * an array of objects of the same shape, nested) and where in it the expression stands.
 */
export interface EvaluationContext {
  answers: Readonly<Record<string, unknown>>;
  /** The repeat instances the expression stands in, outermost first; `index` is 0-based. */
  at?: readonly { repeat: string; index: number }[];
  /** The question the expression belongs to: `.` is its answer. */
  question?: string;
  /** The choice a choice_filter is testing: a bare name reads its column. */
  choice?: Readonly<Record<string, string>>;
  /**
   * The repeats around each question or repeat, outermost first (the form model knows them). A
   * name missing here is found in the answers: nearest instance first, then outwards.
   */
  repeatsOf?: Readonly<Record<string, readonly string[]>>;
  /** jr:choice-name: the label of a choice of a question. */
  choiceLabel?: (question: string, value: string) => string | undefined;
  /** pulldata: the form's attached CSV files as rows, by file name (with or without .csv). */
  attachments?: Readonly<Record<string, readonly Readonly<Record<string, string>>[]>>;
  /** The clock (default: now) and the offset today() and now() use (default: this machine's). */
  now?: number;
  utcOffsetMinutes?: number;
  random?: () => number;
  uuid?: () => string;
}

type Scope = Readonly<Record<string, unknown>>;

/** The evaluation's state: the chain of objects from the answers down to the current instance. */
export interface Frame {
  ctx: EvaluationContext;
  scopes: readonly Scope[];
  path: readonly string[];
  indexes: readonly number[];
}

function isInstanceList(raw: unknown): raw is Scope[] {
  return Array.isArray(raw) && raw.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));
}

/** An answer as nodes: a repeat's instances, or one text node (an unanswered question is ''). */
function nodesOf(raw: unknown): AnswerNode[] {
  return isInstanceList(raw) ? raw : [answerText(raw)];
}

export class EvaluationError extends Error {}

export function rootFrame(ctx: EvaluationContext): Frame {
  const scopes: Scope[] = [ctx.answers];
  const path: string[] = [];
  const indexes: number[] = [];
  for (const step of ctx.at ?? []) {
    const list = scopes[scopes.length - 1]![step.repeat];
    const instance = isInstanceList(list) ? list[step.index] : undefined;
    if (instance === undefined) throw new EvaluationError(`No instance ${step.index + 1} of repeat '${step.repeat}'`);
    scopes.push(instance);
    path.push(step.repeat);
    indexes.push(step.index);
  }
  return { ctx, scopes, path, indexes };
}

export function enterInstance(frame: Frame, repeat: string, index: number, instance: Scope): Frame {
  return { ctx: frame.ctx, scopes: [...frame.scopes, instance], path: [...frame.path, repeat], indexes: [...frame.indexes, index] };
}

/** Every node named `name` in the repeats below `scope`, or null when no instance holds it. */
function below(scope: Scope, name: string): AnswerNode[] | null {
  let found: AnswerNode[] | null = null;
  for (const key in scope) {
    const raw = scope[key];
    if (!isInstanceList(raw) || raw.length === 0) continue;
    if (raw.some((inst) => Object.hasOwn(inst, name))) {
      found ??= [];
      for (const inst of raw) found.push(...nodesOf(inst[name]));
      continue;
    }
    for (const inst of raw) {
      const deeper = below(inst, name);
      if (deeper) (found ??= []).push(...deeper);
    }
  }
  return found;
}

/**
 * `${name}` from the frame: inside a repeat the same instance's answer, outside it the node-set of
 * every instance's (ODK's relative references), a repeat's name its instances.
 */
export function lookup(name: string, frame: Frame): NodeSet {
  const chain = frame.ctx.repeatsOf?.[name];
  const { scopes } = frame;
  if (chain !== undefined) {
    let depth = 0;
    while (depth < chain.length && depth < frame.path.length && chain[depth] === frame.path[depth]) depth++;
    let holders: Scope[] = [scopes[depth]!];
    for (let i = depth; i < chain.length; i++) holders = holders.flatMap((h) => (isInstanceList(h[chain[i]!]) ? (h[chain[i]!] as Scope[]) : []));
    return new NodeSet(holders.length === 1 ? nodesOf(holders[0]![name]) : holders.flatMap((h) => nodesOf(h[name])));
  }
  for (let i = scopes.length - 1; i >= 0; i--) {
    const scope = scopes[i]!;
    if (Object.hasOwn(scope, name)) return new NodeSet(nodesOf(scope[name]));
    // A question of the repeat we stand in, unanswered in this instance: this instance's ''.
    const inner = i < frame.path.length ? scope[frame.path[i]!] : undefined;
    if (isInstanceList(inner) && inner.some((inst) => Object.hasOwn(inst, name))) return new NodeSet(['']);
    const found = below(scope, name);
    if (found) return new NodeSet(found);
  }
  return new NodeSet(['']);
}
