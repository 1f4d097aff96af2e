/**
 * The expression benchmark's form: 100 questions (97 at the top, a 10-instance repeat of 3) and 40
 * expressions (15 relevant, 12 constraints on `.`, 8 calculations, 5 over the repeat, one of them
 * run in each instance), so one validation is 49 evaluations. Shared by both candidates.
 */
export interface BenchExpression {
  /** The question the expression belongs to (`.`). */
  question: string;
  source: string;
  /** Run once per instance of `items` (a calculation inside the repeat). */
  perInstance?: boolean;
}

function answersOf(): Record<string, unknown> {
  const a: Record<string, unknown> = {};
  for (let i = 1; i <= 30; i++) a[`q${i}`] = String((i * 7) % 50);
  a.q1 = '34';
  a.q21 = '3';
  for (let i = 31; i <= 50; i++) a[`q${i}`] = `answer ${i}`;
  for (let i = 51; i <= 60; i++) a[`q${i}`] = i % 2 === 0 ? 'yes' : 'no';
  for (let i = 61; i <= 70; i++) a[`q${i}`] = i % 3 === 0 ? 'a b c' : 'b';
  for (let i = 71; i <= 80; i++) a[`q${i}`] = `2023-0${1 + (i % 9)}-1${i % 10}`;
  for (let i = 81; i <= 90; i++) a[`q${i}`] = `0803${String(1234567 + i)}`;
  for (let i = 91; i <= 97; i++) a[`q${i}`] = '';
  a.items = Array.from({ length: 10 }, (_, i) => ({ item_name: `item ${i}`, qty: String(i + 1), price: String(100 + i * 25) }));
  return a;
}

export const BENCH_ANSWERS = answersOf();

export const BENCH_EXPRESSIONS: BenchExpression[] = [
  { question: 'q2', source: '${q1} > 18' },
  { question: 'q3', source: "${q51} = 'yes'" },
  { question: 'q4', source: "${q52} = 'yes' and ${q1} >= 21" },
  { question: 'q5', source: "selected(${q61}, 'b')" },
  { question: 'q6', source: "${q31} != ''" },
  { question: 'q7', source: 'count-selected(${q62}) >= 2' },
  { question: 'q8', source: "${q53} = 'no' or ${q2} < 5" },
  { question: 'q9', source: "not(${q54} = 'yes')" },
  { question: 'q10', source: '${q3} + ${q4} > 10' },
  { question: 'q11', source: '${q71} < today()' },
  { question: 'q12', source: 'string-length(${q32}) > 3' },
  { question: 'q13', source: "${q55} = 'yes' and selected(${q63}, 'c')" },
  { question: 'q14', source: '${q5} div 2 >= 1' },
  { question: 'q15', source: 'count(${items}) > 0' },
  { question: 'q16', source: "${q56} != 'no'" },
  { question: 'q1', source: '. >= 0 and . <= 120' },
  { question: 'q2', source: '. >= 0' },
  { question: 'q17', source: '. <= ${q1}' },
  { question: 'q81', source: "regex(., '^0[789][01][0-9]{8}$')" },
  { question: 'q82', source: "regex(., '^0[789][01][0-9]{8}$')" },
  { question: 'q31', source: 'string-length(.) <= 50' },
  { question: 'q72', source: '. <= today()' },
  { question: 'q73', source: '. >= ${q72}' },
  { question: 'q18', source: '. mod 1 = 0' },
  { question: 'q19', source: '. > 0 and . < 1000000' },
  { question: 'q64', source: 'count-selected(.) <= 3' },
  { question: 'q20', source: '. != ${q21}' },
  { question: 'q91', source: '${q1} + ${q2} + ${q3}' },
  { question: 'q92', source: "concat(${q33}, ' ', ${q34})" },
  { question: 'q93', source: "if(${q1} >= 18, 'adult', 'minor')" },
  { question: 'q94', source: 'round(${q22} * 1.075, 2)' },
  { question: 'q95', source: "format-date(${q74}, '%Y-%m')" },
  { question: 'q96', source: "coalesce(${q35}, 'none')" },
  { question: 'q97', source: 'int((today() - ${q75}) div 365.25)' },
  { question: 'q90', source: 'substr(${q36}, 0, 3)' },
  { question: 'q89', source: 'sum(${qty})' },
  { question: 'q88', source: 'count(${items})' },
  { question: 'q87', source: 'max(${price})' },
  { question: 'q86', source: 'sum(${qty}) > 0 and count(${items}) <= 20' },
  { question: 'line_total', source: '${qty} * ${price}', perInstance: true },
];

/** Repeats `validate` for about `ms` milliseconds; µs per call, median of 5 rounds after a warm-up. */
export function timeIt(validate: () => void, ms = 300): { us: number; rounds: number[] } {
  const rounds: number[] = [];
  for (let r = 0; r < 6; r++) {
    const start = performance.now();
    let n = 0;
    while (performance.now() - start < ms) {
      for (let i = 0; i < 50; i++) validate();
      n += 50;
    }
    rounds.push(((performance.now() - start) * 1000) / n);
  }
  const kept = rounds.slice(1).sort((a, b) => a - b);
  return { us: kept[2]!, rounds };
}
