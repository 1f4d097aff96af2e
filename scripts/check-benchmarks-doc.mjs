#!/usr/bin/env node
// Checks docs/benchmarks.md as scripts/bench/report.ts writes it: one table of every target, each row
// with a measured value, yes/no/n/a and the date and commit it was measured on; every recorded row of
// docs/benchmarks.json in it; targets 1 to 13 all present; and no heading named after a work period
// ("session", "sixth", "issue 20"): the doc is a reference, the history is in git. Part of `npm run lint`.
import { readFileSync } from 'node:fs';

const ORDINAL = /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth)\b/i;
const BAD_HEADING = [/session/i, ORDINAL, /\bissues?\s+\d+/i, /\bh\d{2}[a-z]{0,2}\b/i];
const HEADER = '| target | measured | holds | measured on |';

export function problemsOf(md, recordedRows) {
  const problems = [];
  const lines = md.split('\n');
  for (const [i, line] of lines.entries()) {
    if (/^#+\s/.test(line) && BAD_HEADING.some((p) => p.test(line))) problems.push(`line ${i + 1}: heading names a work period: ${line}`);
  }
  const start = lines.indexOf(HEADER);
  if (start < 0) return [...problems, `no table headed ${HEADER}`];
  const rows = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const cells = lines[i].slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim());
    rows.push(cells[0]);
    const where = `line ${i + 1}`;
    if (cells.length !== 4) problems.push(`${where}: ${cells.length} cells, not 4`);
    else {
      const [target, measured, holds, on] = cells;
      if (!target) problems.push(`${where}: no target`);
      if (!measured) problems.push(`${where}: no measured value for ${target}`);
      if (!['yes', 'no', '**no**', 'n/a'].includes(holds)) problems.push(`${where}: holds is '${holds}', not yes/no/n/a (${target})`);
      if (!/^\d{4}-\d{2}-\d{2}, [0-9a-f]{7,40}$/.test(on)) problems.push(`${where}: measured on '${on}' is not 'YYYY-MM-DD, commit' (${target})`);
    }
  }
  for (let n = 1; n <= 13; n++) if (!rows.some((t) => t.startsWith(`${n}. `))) problems.push(`target ${n} has no row`);
  if (recordedRows && recordedRows.length !== rows.length) problems.push(`the table has ${rows.length} rows, docs/benchmarks.json ${recordedRows.length}: write the doc with scripts/bench/report.ts`);
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const md = readFileSync('docs/benchmarks.md', 'utf8');
  const recorded = JSON.parse(readFileSync('docs/benchmarks.json', 'utf8')).rows;
  const problems = problemsOf(md, recorded);
  if (problems.length) {
    console.error(`docs/benchmarks.md:\n${problems.join('\n')}`);
    process.exit(1);
  }
}
