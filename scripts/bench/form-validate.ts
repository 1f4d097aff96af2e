/**
 * The cost of the server's check of a response to a form using the XLSForm model: the contracts'
 * formState in its server mode (relevance, requirements, constraints, choices, calculations
 * recomputed and compared, repeat counts), as built (packages/contracts/dist, what the server
 * runs), over the expression benchmark's workload (expressions-workload.ts): 100 questions, 40
 * expressions, a 10-instance repeat. The form is compiled once per version (the survey cache keeps
 * it), so compiling is reported apart. CPU time, as form-rules.ts measures. Target: < 1 ms per response.
 * `npx tsx scripts/bench/form-validate.ts` on its own, or `npm run bench form-validate`.
 */
import { compileForm, formState, QuestionType, withQuestionIds, type EngineQuestion } from '@survey-bird/contracts';
import { BENCH_ANSWERS, BENCH_EXPRESSIONS } from './expressions-workload.js';
import { QUICK, type Finding } from './lib.js';

const TARGET_US = 1000;

function typeOf(n: number): string {
  if (n <= 30) return QuestionType.decimal;
  if (n <= 50) return QuestionType.text;
  if (n <= 60) return QuestionType.select;
  if (n <= 70) return QuestionType.text;
  if (n <= 80) return QuestionType.date;
  return QuestionType.text;
}

/** The workload as stored questions: each expression on its question (relevant, constraint on `.`, or calculation). */
export function benchQuestions(): EngineQuestion[] {
  const qs: Record<string, unknown>[] = [];
  for (let n = 1; n <= 97; n++) {
    const type = typeOf(n);
    qs.push({ id: `q${n}`, text: `Question ${n}`, type, compulsory: false, options: type === QuestionType.select ? ['yes', 'no'] : [] });
  }
  qs.push({ id: 'items', text: 'Item', type: QuestionType.repeat, compulsory: false, options: [] });
  qs.push({ id: 'item_name', text: 'Item name', type: QuestionType.text, compulsory: true, options: [], parent: 'items' });
  qs.push({ id: 'qty', text: 'Quantity', type: QuestionType.number, compulsory: true, options: [], parent: 'items' });
  qs.push({ id: 'price', text: 'Price', type: QuestionType.number, compulsory: true, options: [], parent: 'items' });
  qs.push({ id: 'line_total', text: 'Line total', type: QuestionType.calculate, compulsory: false, options: [], parent: 'items' });
  const byId = new Map(qs.map((q) => [q.id as string, q]));
  for (const e of BENCH_EXPRESSIONS) {
    const q = byId.get(e.question)!;
    if (e.source.includes('.') && /(^|[^$\w{])\.(\s|$|\)|,)/.test(e.source)) q.constraintExpr = e.source;
    else if (/^q(8[6-9]|9[0-7])$/.test(e.question) || e.question === 'line_total') Object.assign(q, { type: QuestionType.calculate, calculation: e.source });
    else q.relevantExpr = e.source;
  }
  return withQuestionIds(qs as unknown as EngineQuestion[]);
}

/** The workload's answers by question text, as a phone sends them (its calculations computed by the same engine). */
export function benchResponse(questions: readonly EngineQuestion[]): Record<string, unknown> {
  const text = new Map(questions.map((q) => [q.id, q.text]));
  const answers: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(BENCH_ANSWERS)) {
    if (id === 'items') {
      answers[text.get(id)!] = (value as Record<string, string>[]).map((inst) => Object.fromEntries(Object.entries(inst).map(([k, v]) => [text.get(k)!, v])));
    } else if (value !== '') answers[text.get(id)!] = value;
  }
  const state = formState(compileForm(questions), answers, { mode: 'phone' });
  // The phone clears the answers of questions its rules hide.
  const sent = state.answers;
  for (const q of state.questions.values()) if (!q.relevant && q.at.length === 0) delete sent[q.text];
  return sent;
}

/** CPU microseconds per call (the machine is shared: wall time measures the neighbours), median of 5 rounds after a warm-up. */
function cpuTime(fn: () => void, ms: number): { us: number; rounds: number[] } {
  const rounds: number[] = [];
  for (let r = 0; r < 6; r++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    let n = 0;
    while (performance.now() - start < ms) {
      for (let i = 0; i < 20; i++) fn();
      n += 20;
    }
    const used = process.cpuUsage(cpu);
    rounds.push((used.user + used.system) / n);
  }
  const kept = rounds.slice(1).sort((a, b) => a - b);
  return { us: kept[2]!, rounds };
}

export async function benchFormValidate(): Promise<{ findings: Finding[]; lines: string[] }> {
  const questions = benchQuestions();
  const expressions = questions.reduce((n, q) => n + [q.relevantExpr, q.constraintExpr, q.calculation].filter((x) => x !== undefined).length, 0);
  const compiled = compileForm(questions);
  const response = benchResponse(questions);
  const check = formState(compiled, response, { mode: 'server' });
  const ms = QUICK ? 40 : 300;
  const validate = cpuTime(() => formState(compiled, response, { mode: 'server' }), ms);
  const compile = cpuTime(() => compileForm(questions), ms);
  return {
    findings: [{ target: `Form engine. Validating a 100-question response with 40 expressions and a 10-instance repeat on the server < ${TARGET_US} µs`, measured: `${validate.us.toFixed(0)} µs`, holds: QUICK ? null : validate.us < TARGET_US }],
    lines: [
      `form-validate: ${questions.length} entries, ${expressions} expressions, ${check.issues.length} issues in the response (${check.issues.map((i) => i.refusal).join('; ') || 'none'})`,
      `form-validate: rounds ${validate.rounds.map((x) => x.toFixed(0)).join(', ')} µs of CPU each; compiling the form once per version ${compile.us.toFixed(0)} µs`,
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchFormValidate();
  for (const f of r.findings) console.log(`${f.target}: ${f.measured}`);
  for (const l of r.lines) console.log(l);
}
