/**
 * The cost of the form's rules on the ingest hot path. Validates a 30-question response
 * (typed answers, constraints and show-if conditions on most questions) with the API's own
 * `answersProblem` and `normaliseAnswers`, as built (apps/api/dist, what the server runs; tsx's
 * transpiled source names every closure and costs more), in a plain node process, measuring CPU
 * time: target < 50 µs per response.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { QUICK, ROOT, type Finding } from './lib.js';

const TARGET_US = 50;

export async function benchFormRules(): Promise<{ findings: Finding[]; lines: string[] }> {
  const out = execFileSync(process.execPath, [join(ROOT, 'scripts/bench/form-rules-worker.mjs')], { env: { ...process.env }, encoding: 'utf8' });
  const { us, rounds, n } = JSON.parse(out) as { us: number; rounds: number[]; n: number };
  return {
    findings: [{ target: `Form rules. Validating a 30-question response (rules, types, show-if) < ${TARGET_US} µs`, measured: `${us.toFixed(1)} µs`, holds: QUICK ? null : us < TARGET_US }],
    lines: [`form-rules: ${n.toLocaleString('en')} validations per round, ${rounds.length} rounds (first dropped as warm-up), rounds ${rounds.map((x) => x.toFixed(1)).join(', ')} µs of CPU each`],
  };
}
