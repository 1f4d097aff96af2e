/**
 * `npm run bench` (quick: every benchmark runs briefly, to prove it works) and
 * `BENCH_MODE=full npm run bench` (the figures: 3+ alternating rounds, written to docs/benchmarks.md).
 * Every figure is a ratio against a baseline measured in the same run; the machine is noisy.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchBundle } from './bundle.js';
import { benchChangesFeed } from './changes-feed.js';
import { benchPayouts } from './payouts.js';
import { benchDashboard } from './dashboard.js';
import { benchExport } from './export.js';
import { benchFormRules } from './form-rules.js';
import { benchIngest } from './ingest.js';
import { QUICK, ROOT, type Finding } from './lib.js';
import { benchLighthouse } from './lighthouse.js';
import { benchOfflineQueue } from './offline-queue.js';
import { benchPhotoQuality } from './photo-quality.js';
import { dropScaleData } from './scale-data.js';
import { benchSlowLink } from './slow-link.js';
import { benchSearch } from './search.js';

const only = process.argv.slice(2);
const HAND_WRITTEN = '<!-- Below: written by hand, kept by run.ts. -->';
const suites: Record<string, () => Promise<{ findings: Finding[]; lines: string[] }>> = {
  'form-rules': benchFormRules,
  ingest: benchIngest,
  search: benchSearch,
  dashboard: benchDashboard,
  'changes-feed': benchChangesFeed,
  payouts: benchPayouts,
  export: benchExport,
  'offline-queue': benchOfflineQueue,
  'photo-quality': benchPhotoQuality,
  'slow-link': benchSlowLink,
  lighthouse: benchLighthouse,
  bundle: benchBundle,
};

const findings: Finding[] = [];
const notes: string[] = [];
try {
  for (const [name, run] of Object.entries(suites)) {
    if (only.length && !only.includes(name)) continue;
    const started = Date.now();
    console.log(`bench ${name}...`);
    // A suite that throws is recorded and the others still run (and the report is still written); the exit code says so.
    const r = await run().catch((err: unknown) => {
      process.exitCode = 1;
      console.error(err);
      return { findings: [{ target: `${name} suite`, measured: `failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, holds: false }], lines: [] };
    });
    findings.push(...r.findings);
    notes.push(...r.lines, `${name} took ${((Date.now() - started) / 1000).toFixed(0)} s`);
    for (const f of r.findings) console.log(`  ${f.holds === null ? '-' : f.holds ? 'ok' : 'MISSED'}  ${f.target}: ${f.measured}`);
    for (const l of r.lines) console.log(`     ${l}`);
  }
} finally {
  // The seed-scale data sets (temp directories, PostgreSQL databases) the read and export suites made.
  await dropScaleData();
}

if (!QUICK) {
  const commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
  const md = [
    '# Benchmarks',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} at commit ${commit} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown cpu'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.`,
    `Command: \`${process.env.BENCH_PG_URL ? `BENCH_PG_URL=${process.env.BENCH_PG_URL} ` : ''}BENCH_MODE=full npm run bench${only.length ? ` ${only.join(' ')}` : ''}\` (BENCH_PG_URL adds the PostgreSQL figures, on a fresh database dropped afterwards). Each figure is a ratio to a baseline run in the same session, alternating A B A B, median of the rounds.`,
    '',
    '| target | measured | holds |',
    '|---|---|---|',
    ...findings.map((f) => `| ${f.target} | ${f.measured} | ${f.holds === null ? 'n/a' : f.holds ? 'yes' : '**no**'} |`),
    '',
    '## Notes',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  // What follows the marker is written by hand (method, what changed, why a miss misses): kept.
  const file = join(ROOT, 'docs/benchmarks.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const kept = previous.includes(HAND_WRITTEN) ? previous.slice(previous.indexOf(HAND_WRITTEN)) : `${HAND_WRITTEN}\n`;
  writeFileSync(file, `${md}\n${kept}`);
  console.log('wrote docs/benchmarks.md');
}
