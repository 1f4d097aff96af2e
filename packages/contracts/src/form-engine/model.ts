import type { Expr } from '../expressions/ast.js';
import { compileExpression, type CompiledExpression } from '../expressions/compile.js';
import { NEVER_COMPULSORY_QUESTION_TYPES } from '../question-rules.js';
import { OPTION_QUESTION_TYPES, QuestionType } from '../question-types.js';
import type { StoredQuestion } from '../schemas/survey.js';

/** A question as the engine reads it: a stored one with its id (withQuestionIds gives old ones theirs). */
export type EngineQuestion = Omit<StoredQuestion, 'id' | 'options'> & { id: string; options: readonly string[] };

/** One compiled expression and whether its value depends on the clock or chance (now, today, random, uuid, once, pulldata). */
export interface FormExpr {
  expr: CompiledExpression;
  volatile: boolean;
}

/** An entry of the form with its container tree and compiled expressions. */
export interface FormNode {
  q: EngineQuestion;
  /** Its position in the flat list. */
  index: number;
  kind: 'group' | 'repeat' | 'field';
  children: FormNode[];
  parent: FormNode | null;
  /** The ids of the repeats around it, outermost first (not itself). */
  repeats: readonly string[];
  /** The nearest repeat around it, whose instances hold its answer; null at the response's level. */
  repeat: FormNode | null;
  relevant: FormExpr | null;
  required: FormExpr | null;
  constraint: FormExpr | null;
  calculation: FormExpr | null;
  choiceFilter: FormExpr | null;
  readOnly: FormExpr | boolean;
  repeatCount: FormExpr | number | null;
  /** What a select or checkbox answer may hold: choice names when choices are given, else the options; null for other types. */
  allowed: ReadonlySet<string> | null;
  /** Choice name -> choice, when the question carries choices. */
  choiceByName: ReadonlyMap<string, NonNullable<EngineQuestion['choices']>[number]> | null;
  /** Never compulsory by `compulsory` (containers, notes, calculations, metadata). */
  neverCompulsory: boolean;
}

/** A survey version's questions compiled once: the server caches it per version, the phone per form. */
export interface CompiledForm {
  questions: readonly EngineQuestion[];
  nodes: readonly FormNode[];
  /** The entries at the response's level, groups included (their members are their children). */
  roots: readonly FormNode[];
  byId: ReadonlyMap<string, FormNode>;
  /** For the expression engine: the repeats around each question or repeat. */
  repeatsOf: Readonly<Record<string, readonly string[]>>;
  /** Questions with a calculation, each after the ones it reads. */
  calculations: readonly FormNode[];
  /** Some expression or structure needs this engine (else the builder's rules alone decide). */
  usesModel: boolean;
  /** The ids some expression or show-if condition reads: hiding one of them may change other rules. */
  referenced: ReadonlySet<string>;
  /** Per answer scope ('' for the response, else a repeat's id): the entries answered there, by text (groups see through). */
  scopes: ReadonlyMap<string, ReadonlyMap<string, FormNode>>;
}

const VOLATILE_FUNCTIONS = new Set(['now', 'today', 'random', 'uuid', 'once', 'pulldata', 'randomize']);

function callsVolatile(e: Expr): boolean {
  switch (e.type) {
    case 'call':
      return VOLATILE_FUNCTIONS.has(e.name) || e.args.some(callsVolatile);
    case 'binary':
      return callsVolatile(e.left) || callsVolatile(e.right);
    case 'negate':
      return callsVolatile(e.operand);
    default:
      return false;
  }
}

/** Compiled, or null when absent; an expression that does not compile never reaches a stored version (the publish check), so it reads as absent. */
function compiled(source: string | number | boolean | undefined): FormExpr | null {
  if (typeof source !== 'string' || source.trim() === '') return null;
  const r = compileExpression(source);
  return r.ok ? { expr: r.expr, volatile: callsVolatile(r.expr.ast) } : null;
}

const MODEL_TYPES: readonly string[] = [
  QuestionType.group,
  QuestionType.repeat,
  QuestionType.calculate,
  QuestionType.acknowledge,
  QuestionType.datetime,
  QuestionType.range,
  QuestionType.geotrace,
  QuestionType.geoshape,
  QuestionType.rank,
  QuestionType.audio,
  QuestionType.video,
  QuestionType.file,
  QuestionType.start,
  QuestionType.end,
  QuestionType.today,
  QuestionType.deviceid,
  QuestionType.username,
  QuestionType.userEmail,
];

/** Whether a question uses anything of the XLSForm model (a builder's plain question does not). */
export function usesModel(q: Partial<EngineQuestion> & { type: string }): boolean {
  return (
    MODEL_TYPES.includes(q.type) ||
    q.parent !== undefined ||
    q.relevantExpr !== undefined ||
    q.requiredExpr !== undefined ||
    q.constraintExpr !== undefined ||
    q.calculation !== undefined ||
    q.choiceFilter !== undefined ||
    q.readOnly !== undefined ||
    q.choices !== undefined
  );
}

/** Compiles a version's questions (in form order, each with its id) into the tree the engine walks. */
export function compileForm(questions: readonly EngineQuestion[]): CompiledForm {
  const byId = new Map<string, FormNode>();
  const nodes: FormNode[] = [];
  const roots: FormNode[] = [];
  const repeatsOf: Record<string, readonly string[]> = {};
  for (const [index, q] of questions.entries()) {
    const parent = q.parent !== undefined ? (byId.get(q.parent) ?? null) : null;
    const container = parent !== null && parent.kind !== 'field' ? parent : null;
    const repeats = container === null ? [] : container.kind === 'repeat' ? [...container.repeats, container.q.id] : container.repeats;
    const repeat = container === null ? null : container.kind === 'repeat' ? container : container.repeat;
    const kind = q.type === QuestionType.group ? 'group' : q.type === QuestionType.repeat ? 'repeat' : 'field';
    const isOption = (OPTION_QUESTION_TYPES as readonly string[]).includes(q.type);
    const node: FormNode = {
      q,
      index,
      kind,
      children: [],
      parent: container,
      repeats,
      repeat,
      relevant: compiled(q.relevantExpr),
      required: compiled(q.requiredExpr),
      constraint: compiled(q.constraintExpr),
      calculation: compiled(q.calculation),
      choiceFilter: compiled(q.choiceFilter),
      readOnly: typeof q.readOnly === 'boolean' ? q.readOnly : (compiled(q.readOnly) ?? false),
      repeatCount: typeof q.repeatCount === 'number' ? q.repeatCount : compiled(q.repeatCount),
      allowed: isOption ? new Set(q.choices !== undefined ? q.choices.map((c) => c.name) : q.options) : null,
      choiceByName: q.choices !== undefined ? new Map(q.choices.map((c) => [c.name, c])) : null,
      neverCompulsory: (NEVER_COMPULSORY_QUESTION_TYPES as readonly string[]).includes(q.type),
    };
    if (!byId.has(q.id)) byId.set(q.id, node);
    nodes.push(node);
    repeatsOf[q.id] = repeats;
    if (container) container.children.push(node);
    else roots.push(node);
  }
  const scopes = new Map<string, Map<string, FormNode>>([['', new Map()]]);
  for (const n of nodes) {
    if (n.kind === 'repeat') scopes.set(n.q.id, new Map());
    if (n.kind !== 'group') scopes.get(n.repeat?.q.id ?? '')?.set(n.q.text, n);
  }
  const referenced = new Set<string>();
  for (const n of nodes) {
    for (const e of [n.relevant, n.required, n.constraint, n.calculation, n.choiceFilter, n.readOnly, n.repeatCount]) if (typeof e === 'object' && e !== null) for (const ref of e.expr.references) referenced.add(ref);
    for (const c of n.q.showIf?.conditions ?? []) referenced.add(c.question);
  }
  return { questions, nodes, roots, byId, repeatsOf, calculations: calculationOrder(nodes, byId), usesModel: questions.some((q) => usesModel(q)), referenced, scopes };
}

/** The questions with a calculation, each after those it reads (a cycle, refused at publish, keeps form order). */
function calculationOrder(nodes: readonly FormNode[], byId: ReadonlyMap<string, FormNode>): FormNode[] {
  const out: FormNode[] = [];
  const state = new Map<FormNode, 1 | 2>();
  const visit = (n: FormNode) => {
    if (state.has(n)) return;
    state.set(n, 1);
    for (const ref of n.calculation!.expr.references) {
      const dep = byId.get(ref);
      if (dep?.calculation) visit(dep);
    }
    state.set(n, 2);
    out.push(n);
  };
  for (const n of nodes) if (n.calculation) visit(n);
  return out;
}
