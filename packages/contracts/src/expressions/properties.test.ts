import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BinaryOp, Expr } from './ast.js';
import { compileExpression, evaluate, printExpression } from './index.js';
import { LIBRARY } from './functions.js';

const name = fc.constantFrom('age', 'name', 'q1', 'members', 'h', 'x_y', 'a-b', 'jr.x');
const ops: BinaryOp[] = ['or', 'and', '=', '!=', '<', '<=', '>', '>=', '+', '-', '*', 'div', 'mod', '|'];
const functions = Object.entries(LIBRARY).filter(([n]) => n !== 'choice-name');

/** Random trees of what the parser produces, positions aside. */
const { tree } = fc.letrec<{ tree: Expr }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.double({ min: 0, max: 1e6, noNaN: true }).map((value): Expr => ({ type: 'number', value, at: 0 })),
    fc.string({ maxLength: 6 }).filter((s) => !s.includes("'") || !s.includes('"')).map((value): Expr => ({ type: 'string', value, at: 0 })),
    name.map((n): Expr => ({ type: 'ref', name: n, at: 0 })),
    fc.constant<Expr>({ type: 'self', at: 0 }),
    fc.constantFrom('state', 'label').map((n): Expr => ({ type: 'name', name: n, at: 0 })),
    tie('tree').map((operand): Expr => ({ type: 'negate', operand, at: 0 })),
    fc.tuple(fc.constantFrom(...ops), tie('tree'), tie('tree')).map(([op, left, right]): Expr => ({ type: 'binary', op, left, right, at: 0 })),
    fc.tuple(fc.constantFrom(...functions), fc.array(tie('tree'), { maxLength: 4 })).map(([[fname, f], args]): Expr => ({ type: 'call', name: fname, args: args.slice(0, Math.min(f.max, 4)).concat(Array.from({ length: Math.max(0, f.min - args.length) }, () => ({ type: 'number', value: 1, at: 0 }) as Expr)), at: 0 })),
  ),
}));

function withoutPositions(e: Expr): unknown {
  return JSON.parse(JSON.stringify(e, (k, v: unknown) => (k === 'at' ? undefined : v)));
}

const answerValue = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', '12', '-3.5', '2024-03-02', 'a b c', 'NaN'), fc.integer(), fc.constant(null), fc.boolean());
const instance = fc.dictionary(name, answerValue, { maxKeys: 4 });
const answers = fc.dictionary(name, fc.oneof(answerValue, fc.array(instance, { maxLength: 4 })), { maxKeys: 8 });

describe('properties', () => {
  it('printing a tree and parsing it back gives the same tree', () => {
    fc.assert(
      fc.property(tree, (t) => {
        const printed = printExpression(t);
        const compiled = compileExpression(printed);
        expect(compiled.ok, printed).toBe(true);
        if (compiled.ok) expect(withoutPositions(compiled.expr.ast)).toEqual(withoutPositions(t));
      }),
      { numRuns: 500 },
    );
  });

  it('compiling any text returns a result, never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (src) => {
        const r = compileExpression(src);
        if (!r.ok) expect(r.error.column).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 2000 },
    );
  });

  it('evaluating any expression over any answers returns a result, never throws', () => {
    fc.assert(
      fc.property(tree, answers, fc.option(fc.nat(3), { nil: undefined }), (t, a, index) => {
        const compiled = compileExpression(printExpression(t));
        if (!compiled.ok) return;
        const at = index !== undefined && Array.isArray(a.members) && a.members[index] ? [{ repeat: 'members', index }] : [];
        const r = evaluate(compiled.expr, { answers: a, at, question: 'age', choice: { state: 'lagos' } });
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  });
});
