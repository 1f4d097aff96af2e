#!/usr/bin/env node
// Fails when a comment names a repository file that does not exist (a comment that outlived a
// rename misleads the next reader). A name counts as found when some tracked or new file's path
// ends with it, so `offline/outbox.ts`, `outbox.ts` and `apps/pwa/src/offline/outbox.ts` all
// resolve. Part of `npm run lint`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { commentsOf } from './comments.mjs';

const CODE = /\.(ts|tsx|mjs|js|cjs)$/;
const NAMED = /(?:^|[\s`'"(,])((?:[\w.@-]+\/)*[\w.-]+\.(?:tsx?|mjs|cjs|js|css|md|json|html|sh))(?=$|[\s`'"),:;.!?])/g;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);
const known = new Set(files);
const suffixes = new Set();
for (const f of files) {
  const parts = f.split('/');
  for (let i = 0; i < parts.length; i++) suffixes.add(parts.slice(i).join('/'));
}
// npm packages named like files (chart.js).
const packages = new Set(
  files.filter((f) => f.endsWith('package.json')).flatMap((f) => {
    const p = JSON.parse(readFileSync(f, 'utf8'));
    return Object.keys({ ...p.dependencies, ...p.devDependencies });
  }),
);
// Files a build or a run writes (never tracked) that comments may name.
const generated = new Set(['routeTree.gen.ts', 'sw.js', 'jwt-secret', 'demo-logins.json', 'benchmarks.json', 'chunk-map.json', 'manifest.json']);

const problems = [];
for (const path of files) {
  if (!(CODE.test(path) || path.endsWith('.css')) || !known.has(path) && !suffixes.has(path)) continue;
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    continue; // deleted in the work tree
  }
  for (const c of commentsOf(path, text)) {
    for (const m of c.text.matchAll(NAMED)) {
      const name = m[1].replace(/^\.\//, '');
      if (name.includes('://') || name.startsWith('@') || name.startsWith('node_modules/')) continue;
      if (suffixes.has(name) || generated.has(name.split('/').pop()) || packages.has(name) || name.includes('dist/')) continue;
      if (name.startsWith('*.') || name.includes('*')) continue;
      const line = text.slice(0, c.pos + m.index).split('\n').length;
      problems.push(`${path}:${line}: comment names '${name}', which is not in the repository`);
    }
  }
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} comment(s) name files that do not exist: fix the name or the comment.`);
  process.exit(1);
}
