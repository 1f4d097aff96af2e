/**
 * The expression engine's conformance table in headless Chromium (/usr/bin/chromium), from the
 * engine bundled by esbuild as the phone loads it: `npx tsx scripts/bench/expressions-conformance.ts`.
 * Exits 1 when a case does not hold.
 */
import { join } from 'node:path';
import { runInChromium } from './expressions-chromium.ts';
import { ROOT } from './lib.js';

const { cases, failures } = await runInChromium<{ cases: number; failures: { expr: string; problem: string }[] }>(join(ROOT, 'scripts/bench/expressions-conformance.page.ts'), 'run');
for (const f of failures) console.log(`FAIL ${f.expr}: ${f.problem}`);
console.log(`Chromium: ${cases - failures.length} of ${cases} conformance cases hold`);
process.exitCode = failures.length === 0 ? 0 : 1;
