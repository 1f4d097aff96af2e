// Run by form-rules.ts in a plain node process, on the built API and contracts (npm run build first).
import { QuestionType, withQuestionIds } from '@survey-bird/contracts';
import { answersProblem, normaliseAnswers } from '../../apps/api/dist/modules/responses/ingest-service.js';

const QUICK = process.env.BENCH_MODE !== 'full';

/** 30 questions: a yes/no gate, then number, decimal, date, time, phone, e-mail, text and checkbox in turn, each shown if the gate is "Yes" and the age is over 17. */
const kinds = [
  { type: QuestionType.number, compulsory: true, options: [], constraint: { min: 0, max: 120 } },
  { type: QuestionType.decimal, compulsory: false, options: [], constraint: { min: 0.5, max: 300 } },
  { type: QuestionType.date, compulsory: false, options: [], constraint: { notInFuture: true, min: '2000-01-01' } },
  { type: QuestionType.time, compulsory: false, options: [] },
  { type: QuestionType.phone, compulsory: false, options: [] },
  { type: QuestionType.email, compulsory: false, options: [] },
  { type: QuestionType.text, compulsory: false, options: [], constraint: { minLength: 2, maxLength: 200 } },
  { type: QuestionType.checkbox, compulsory: false, options: ['Rice', 'Beans', 'Garri'] },
];
const gate = { id: 'gate', text: 'Consent given?', type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] };
const rest = Array.from({ length: 29 }, (_, i) => ({
  ...kinds[i % kinds.length],
  text: `Question ${i + 2}`,
  showIf: { combine: 'all', conditions: [{ question: 'gate', op: 'equals', value: 'Yes' }, ...(i > 0 ? [{ question: 'q2', op: 'greaterThan', value: 17 }] : [])] },
}));
const questions = withQuestionIds([gate, ...rest]);
const TYPED = new Set([QuestionType.number, QuestionType.decimal, QuestionType.date, QuestionType.time, QuestionType.phone, QuestionType.email, QuestionType.barcode]);
const survey = {
  id: 's',
  organizationId: 'o',
  questions: new Map(questions.map((q) => [q.text, q])),
  ordered: questions,
  compulsory: questions.filter((q) => q.compulsory),
  hasShowIf: true,
  typed: questions.filter((q) => TYPED.has(q.type)),
  options: new Map(questions.filter((q) => q.type === QuestionType.select || q.type === QuestionType.checkbox).map((q) => [q.id, new Set(q.options)])),
  hasLargeSelect: false,
  unsearched: new Set(),
  payAfterReview: false,
};
const VALUES = {
  [QuestionType.number]: '42',
  [QuestionType.decimal]: '72.5',
  [QuestionType.date]: '2026-03-14',
  [QuestionType.time]: '09:30',
  [QuestionType.phone]: '0803 123 4567',
  [QuestionType.email]: 'ada@example.ng',
  [QuestionType.text]: 'Owner was cooperative',
  [QuestionType.checkbox]: ['Rice', 'Garri'],
};
const answers = { 'Consent given?': 'Yes' };
for (const q of questions.slice(1)) answers[q.text] = VALUES[q.type];
const phones = questions.filter((q) => q.type === QuestionType.phone).map((q) => q.text);
const now = Date.now();
const problem = answersProblem(survey, answers, now);
if (problem !== null) throw new Error(`the bench response is refused: ${problem}`);

const n = QUICK ? 2_000 : 50_000;
const rounds = [];
for (let r = 0; r < (QUICK ? 2 : 7); r++) {
  // CPU time of this process, not wall time: on a shared machine the wall clock counts other work.
  const started = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    // Each response arrives with its phone numbers as typed (normalising changes them in place).
    for (const p of phones) answers[p] = '0803 123 4567';
    if (answersProblem(survey, answers, now) !== null) throw new Error('refused');
    normaliseAnswers(survey, answers);
  }
  const used = process.cpuUsage(started);
  rounds.push((used.user + used.system) / n);
}
const sorted = rounds.slice(1).sort((a, b) => a - b);
console.log(JSON.stringify({ us: sorted[Math.floor(sorted.length / 2)], rounds, n }));
