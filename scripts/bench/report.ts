/**
 * The benchmark record: docs/benchmarks.json holds every target's latest figure (one row per
 * finding, with the suite, date and commit it was measured on) and each suite's notes from its
 * latest full run. A full run replaces only the rows of the suites it ran, then docs/benchmarks.md
 * is written from all recorded rows: one table, the notes per suite, then the hand-written part
 * (method and findings) kept from below the marker.
 * `npx tsx scripts/bench/report.ts` writes docs/benchmarks.md again from the record alone.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, type Finding } from './lib.js';

export const RESULTS_FILE = join(ROOT, 'docs/benchmarks.json');
export const REPORT_FILE = join(ROOT, 'docs/benchmarks.md');
export const HAND_WRITTEN = '<!-- Below: written by hand, kept by run.ts. -->';

/** Table order for targets without a number: run.ts's suites, then scripts run on their own. */
export const SUITE_ORDER = [
  'form-rules', 'ingest', 'ingest-backcheck', 'search', 'dashboard', 'changes-feed', 'payouts', 'export', 'offline-queue',
  'photo-quality', 'slow-link', 'lighthouse', 'map-render', 'bundle', 'multi-instance',
];

export interface ResultRow extends Finding {
  suite: string;
  /** YYYY-MM-DD (UTC) of the run. */
  date: string;
  /** Short hash of the commit the run measured. */
  commit: string;
}

export interface SuiteRun {
  date: string;
  commit: string;
  /** Machine and command of that run. */
  context: string;
  lines: string[];
}

export interface Results {
  rows: ResultRow[];
  runs: Record<string, SuiteRun>;
}

export function readResults(file = RESULTS_FILE): Results {
  if (!existsSync(file)) return { rows: [], runs: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as Results;
}

export function currentRun(command: string): { date: string; commit: string; context: string } {
  const commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
  const dirty = execSync("git status --porcelain --untracked-files=no -- . ':!docs/benchmarks.md' ':!docs/benchmarks.json'", { cwd: ROOT }).toString().trim() ? ' (with uncommitted changes)' : '';
  return {
    date: new Date().toISOString().slice(0, 10),
    commit,
    context: `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown cpu'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; \`${command}\`${dirty}`,
  };
}

/**
 * Replaces the rows and notes of the suites in `ran`. A suite that measured no PostgreSQL row
 * (BENCH_PG_URL unset) keeps its PostgreSQL rows from an earlier run, so a SQLite-only run does not
 * erase them.
 */
export function merge(results: Results, ran: { suite: string; findings: Finding[]; lines: string[] }[], run: { date: string; commit: string; context: string }): Results {
  let rows = results.rows;
  const runs = { ...results.runs };
  for (const r of ran) {
    const measuredPg = r.findings.some((f) => f.target.includes('PostgreSQL'));
    rows = rows.filter((row) => row.suite !== r.suite || (!measuredPg && row.target.includes('PostgreSQL')));
    rows.push(...r.findings.map((f) => ({ suite: r.suite, target: f.target, measured: f.measured, holds: f.holds, date: run.date, commit: run.commit })));
    runs[r.suite] = { ...run, lines: r.lines };
  }
  return { rows: sortRows(rows), runs };
}

/** Numbered targets by number (1 to 13), then the others by suite; a suite's own order is kept. */
function sortRows(rows: ResultRow[]): ResultRow[] {
  const key = (row: ResultRow) => {
    const n = /^(\d+)\./.exec(row.target);
    const suite = SUITE_ORDER.indexOf(row.suite);
    return n ? Number(n[1]) : 100 + (suite < 0 ? SUITE_ORDER.length : suite);
  };
  return rows.map((row, i) => ({ row, i })).sort((a, b) => key(a.row) - key(b.row) || a.i - b.i).map((x) => x.row);
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const holds = (h: boolean | null) => (h === null ? 'n/a' : h ? 'yes' : '**no**');

export function render(results: Results, handWritten: string): string {
  const suites = Object.keys(results.runs).sort((a, b) => {
    const ia = SUITE_ORDER.indexOf(a);
    const ib = SUITE_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
  return [
    '# Benchmarks',
    '',
    'Every target with its latest figure. Written by `scripts/bench/run.ts` from `docs/benchmarks.json`:',
    'a full run (`BENCH_MODE=full npm run bench [suites...]`, `BENCH_PG_URL=...` for the PostgreSQL rows)',
    'replaces the rows of the suites it ran and writes this file again; quick mode (CI) writes nothing.',
    'Each figure is a ratio to a baseline measured in the same run where the target is relative. How each',
    'target is measured, and what the figures showed, is below the table and notes.',
    '',
    '| target | measured | holds | measured on |',
    '|---|---|---|---|',
    ...sortRows(results.rows).map((r) => `| ${cell(r.target)} | ${cell(r.measured)} | ${holds(r.holds)} | ${r.date}, ${r.commit} |`),
    '',
    '## Notes of the latest run per suite',
    ...suites.flatMap((s) => {
      const run = results.runs[s]!;
      return ['', `### ${s} (${run.date}, ${run.commit})`, `- ${run.context}`, ...run.lines.map((l) => `- ${l}`)];
    }),
    '',
    handWritten.trimEnd(),
    '',
  ].join('\n');
}

export function handWrittenPart(file = REPORT_FILE): string {
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return previous.includes(HAND_WRITTEN) ? previous.slice(previous.indexOf(HAND_WRITTEN)) : `${HAND_WRITTEN}\n`;
}

/** Records a full run's suites and writes docs/benchmarks.json and docs/benchmarks.md. */
export function record(ran: { suite: string; findings: Finding[]; lines: string[] }[], command: string): void {
  const results = merge(readResults(), ran, currentRun(command));
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(REPORT_FILE, render(results, handWrittenPart()));
  console.log(`recorded ${ran.map((r) => r.suite).join(', ')} in docs/benchmarks.json; wrote docs/benchmarks.md`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(REPORT_FILE, render(readResults(), handWrittenPart()));
  console.log('wrote docs/benchmarks.md from docs/benchmarks.json');
}
