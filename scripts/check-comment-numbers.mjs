#!/usr/bin/env node
// Fails when a comment in apps/ or packages/ names an issue, an item of one or a numbered work
// period ("issue 17", "(issue 14 item 6)", "session 11", "sixth session", "h19"): a comment states
// the invariant and the figure behind it, and the history lives in git and CHANGELOG.md.
// Part of `npm run lint`; prints file:line for each.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { commentsOf, lineAt } from './comments.mjs';

const ORDINAL = 'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth';
export const PATTERNS = [
  /\bissues?\s+#?\d+/i,
  /#\d+\b(?=.*\bissue\b)/i,
  /\bitems?\s+\d+(?:\s*(?:-|,|and)\s*\d+)*\s+of\s+(?:the\s+)?issue\b/i,
  /\bsessions?\s+\d+/i,
  new RegExp(`\\b(?:${ORDINAL})\\s+session\\b`, 'i'),
  /\bh\d{2}[a-z]{0,2}\b/i,
];

/** The first pattern a comment's text matches, or null. */
export function namesWorkPeriod(text) {
  for (const p of PATTERNS) {
    const m = p.exec(text);
    if (m) return m;
  }
  return null;
}

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'apps', 'packages'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && !f.includes('/dist/'));

const problems = [];
for (const path of files) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    continue; // deleted in the work tree
  }
  for (const c of commentsOf(path, text)) {
    // Line by line, so the reported line is the one to rewrite.
    let offset = 0;
    let found = false;
    for (const line of c.text.split('\n')) {
      const m = namesWorkPeriod(line);
      if (m) problems.push(`${path}:${lineAt(text, c.pos + offset + m.index)}: comment names '${m[0]}': state the invariant and its figure instead`);
      found ||= Boolean(m);
      offset += line.length + 1;
    }
    // A name broken over two lines ("issue" at the end of one, "17" at the start of the next).
    const joined = namesWorkPeriod(c.text.replace(/\n\s*(?:\*(?!\/)|\/\/)?/g, ' '));
    if (!found && joined) problems.push(`${path}:${lineAt(text, c.pos)}: comment names '${joined[0].replace(/\s+/g, ' ')}': state the invariant and its figure instead`);
  }
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} comment line(s) name an issue or a work period.`);
  process.exit(1);
}
