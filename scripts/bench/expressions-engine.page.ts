/** Candidate (b), the contracts' engine, timed on the workload; bundled by expressions.ts for Node and Chromium. */
import { compileExpression, evaluate, type CompiledExpression } from '../../packages/contracts/src/expressions/index.ts';
import { BENCH_ANSWERS, BENCH_EXPRESSIONS, timeIt } from './expressions-workload.ts';

export function run(): { validateUs: number; compileUs: number; evaluations: number } {
  const compiled = BENCH_EXPRESSIONS.map((b) => {
    const c = compileExpression(b.source);
    if (!c.ok) throw new Error(c.error.message);
    return { ...b, expr: c.expr as CompiledExpression };
  });
  const items = BENCH_ANSWERS.items as unknown[];
  const now = Date.UTC(2024, 2, 2);
  let evaluations = 0;
  const validate = () => {
    evaluations = 0;
    for (const b of compiled) {
      if (!b.perInstance) {
        evaluate(b.expr, { answers: BENCH_ANSWERS, question: b.question, now, utcOffsetMinutes: 60 });
        evaluations++;
        continue;
      }
      for (let i = 0; i < items.length; i++) {
        evaluate(b.expr, { answers: BENCH_ANSWERS, question: b.question, at: [{ repeat: 'items', index: i }], now, utcOffsetMinutes: 60 });
        evaluations++;
      }
    }
  };
  const compile = () => {
    for (const b of BENCH_EXPRESSIONS) compileExpression(b.source);
  };
  return { validateUs: timeIt(validate).us, compileUs: timeIt(compile).us, evaluations };
}
