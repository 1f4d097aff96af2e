/** The conformance table's failures, for the Chromium run (expressions-conformance.ts). */
import { CONFORMANCE, conformanceFailures } from '../../packages/contracts/src/expressions/conformance.ts';

export function run(): { cases: number; failures: ReturnType<typeof conformanceFailures> } {
  return { cases: CONFORMANCE.length, failures: conformanceFailures() };
}
