import type { Expr } from './ast.js';
import { enterInstance, EvaluationError, lookup, rootFrame, type EvaluationContext, type Frame } from './context.js';
import { LIBRARY, lookupSelf } from './functions.js';
import { ExpressionSyntaxError, parseExpression, type ExpressionError } from './parse.js';
import { asBoolean, asNumber, asString, compare, NodeSet, type Value } from './values.js';

type Run = (frame: Frame) => Value;

/** An expression parsed and checked once, run many times (a closure per node, no tree walk). */
export interface CompiledExpression {
  source: string;
  ast: Expr;
  /** The question and repeat names it reads through ${name}, in order of first use. */
  references: readonly string[];
  run: Run;
}

export type CompileResult = { ok: true; expr: CompiledExpression } | { ok: false; error: ExpressionError };
export type EvaluationResult = { ok: true; value: Value } | { ok: false; error: string };

/** Functions compile.ts evaluates itself, with their arity (see compileCall). */
const SPECIAL: Record<string, { min: number; max: number }> = { if: { min: 3, max: 3 }, once: { min: 1, max: 1 }, position: { min: 0, max: 1 }, 'indexed-repeat': { min: 3, max: Infinity } };

function arityText(min: number, max: number): string {
  if (min === max) return `${min} argument${min === 1 ? '' : 's'}`;
  return max === Infinity ? `at least ${min} argument${min === 1 ? '' : 's'}` : `${min} to ${max} arguments`;
}

function compileNode(e: Expr, fail: (detail: string, at: number) => never): Run {
  switch (e.type) {
    case 'number': {
      const v = e.value;
      return () => v;
    }
    case 'string': {
      const v = e.value;
      return () => v;
    }
    case 'ref': {
      const name = e.name;
      return (f) => lookup(name, f);
    }
    case 'self':
      return lookupSelf;
    case 'parent':
      return (f) => new NodeSet([f.scopes[f.scopes.length - 1]!]);
    case 'name': {
      const name = e.name;
      return (f) => {
        const v = f.ctx.choice?.[name];
        return new NodeSet(v === undefined ? [] : [v]);
      };
    }
    case 'negate': {
      const operand = compileNode(e.operand, fail);
      return (f) => -asNumber(operand(f));
    }
    case 'binary':
      return compileBinary(e.op, compileNode(e.left, fail), compileNode(e.right, fail));
    case 'call':
      return compileCall(e, fail);
  }
}

function compileBinary(op: Extract<Expr, { type: 'binary' }>['op'], l: Run, r: Run): Run {
  switch (op) {
    case 'or':
      return (f) => asBoolean(l(f)) || asBoolean(r(f));
    case 'and':
      return (f) => asBoolean(l(f)) && asBoolean(r(f));
    case '+':
      return (f) => asNumber(l(f)) + asNumber(r(f));
    case '-':
      return (f) => asNumber(l(f)) - asNumber(r(f));
    case '*':
      return (f) => asNumber(l(f)) * asNumber(r(f));
    case 'div':
      return (f) => asNumber(l(f)) / asNumber(r(f));
    case 'mod':
      // XPath 1.0: the sign of the dividend, as JavaScript's %.
      return (f) => asNumber(l(f)) % asNumber(r(f));
    case '|':
      return (f) => {
        const a = l(f);
        const b = r(f);
        if (!(a instanceof NodeSet) || !(b instanceof NodeSet)) throw new EvaluationError("'|' joins questions or repeats only");
        return new NodeSet([...a.nodes, ...b.nodes.filter((n) => !a.nodes.includes(n) || typeof n === 'string')]);
      };
    default:
      return (f) => compare(op, l(f), r(f));
  }
}

function compileCall(e: Extract<Expr, { type: 'call' }>, fail: (detail: string, at: number) => never): Run {
  const lib = LIBRARY[e.name];
  const arity = lib ?? SPECIAL[e.name];
  if (arity === undefined) return fail(`Unknown function '${e.name}'`, e.at);
  if (e.args.length < arity.min || e.args.length > arity.max) fail(`${e.name}() takes ${arityText(arity.min, arity.max)}, not ${e.args.length}`, e.at);
  if (lib) {
    const args = e.args.map((a) => compileNode(a, fail));
    const fn = lib.fn;
    if (args.length === 0) return (f) => fn([], f);
    if (args.length === 1) {
      const [a] = args as [Run];
      return (f) => fn([a(f)], f);
    }
    if (args.length === 2) {
      const [a, b] = args as [Run, Run];
      return (f) => fn([a(f), b(f)], f);
    }
    return (f) => fn(args.map((a) => a(f)), f);
  }
  switch (e.name) {
    case 'if': {
      const [c, a, b] = e.args.map((x) => compileNode(x, fail)) as [Run, Run, Run];
      return (f) => (asBoolean(c(f)) ? a(f) : b(f));
    }
    case 'once': {
      // A calculation kept once made: the question's own answer when it has one.
      const inner = compileNode(e.args[0]!, fail);
      return (f) => {
        const current = lookupSelf(f);
        return asString(current) !== '' ? current : inner(f);
      };
    }
    case 'position': {
      const arg = e.args[0];
      if (arg !== undefined && arg.type !== 'parent') fail("position() reads only '..' (the current repeat instance)", arg.at);
      return (f) => (f.indexes.length === 0 ? 1 : f.indexes[f.indexes.length - 1]! + 1);
    }
    default:
      return compileIndexedRepeat(e, fail);
  }
}

/** indexed-repeat(${q}, ${repeat}, n [, ${inner repeat}, m]...): q in the n-th instance (1-based). */
function compileIndexedRepeat(e: Extract<Expr, { type: 'call' }>, fail: (detail: string, at: number) => never): Run {
  const [target, ...pairs] = e.args as [Expr, ...Expr[]];
  if (target.type !== 'ref') fail('indexed-repeat() reads a ${question} first', target.at);
  if (pairs.length % 2 !== 0) fail('indexed-repeat() takes a ${repeat} and a position for each repeat', e.at);
  const steps: { repeat: string; index: Run }[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const repeat = pairs[i]!;
    if (repeat.type !== 'ref') fail('indexed-repeat() takes a ${repeat} before each position', repeat.at);
    steps.push({ repeat: (repeat as { name: string }).name, index: compileNode(pairs[i + 1]!, fail) });
  }
  const name = (target as { name: string }).name;
  return (f) => {
    let frame = f;
    for (const step of steps) {
      const n = asNumber(step.index(f));
      const instance = lookup(step.repeat, frame).nodes[n - 1];
      if (!Number.isInteger(n) || instance === undefined || typeof instance === 'string') return new NodeSet([]);
      frame = enterInstance(frame, step.repeat, n - 1, instance);
    }
    return lookup(name, frame);
  };
}

function referencesOf(e: Expr, out: Set<string>): Set<string> {
  if (e.type === 'ref') out.add(e.name);
  else if (e.type === 'negate') referencesOf(e.operand, out);
  else if (e.type === 'binary') {
    referencesOf(e.left, out);
    referencesOf(e.right, out);
  } else if (e.type === 'call') for (const a of e.args) referencesOf(a, out);
  return out;
}

/** Parses and checks an expression (functions known, argument counts right) and compiles it once. */
export function compileExpression(source: string): CompileResult {
  try {
    const ast = parseExpression(source);
    const fail = (detail: string, at: number): never => {
      throw new ExpressionSyntaxError(detail, at + 1, source);
    };
    const run = compileNode(ast, fail);
    return { ok: true, expr: { source, ast, references: [...referencesOf(ast, new Set())], run } };
  } catch (err) {
    if (err instanceof ExpressionSyntaxError) return { ok: false, error: { message: err.message, column: err.column } };
    throw err;
  }
}

/** Runs a compiled expression; a failure (a bad regex, count() of a number, a missing instance) is a result, never a throw. */
export function evaluate(expr: CompiledExpression, ctx: EvaluationContext): EvaluationResult {
  try {
    return { ok: true, value: expr.run(rootFrame(ctx)) };
  } catch (err) {
    if (err instanceof EvaluationError) return { ok: false, error: `${err.message} in ${expr.source}` };
    if (err instanceof RangeError) return { ok: false, error: `Too deep to evaluate: ${expr.source}` };
    throw err;
  }
}
