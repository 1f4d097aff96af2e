import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, type Finding } from './lib.js';

/**
 * Target 7, the PWA's weight, from `budget.mjs` (the same check CI runs on its own) on the current
 * production build of apps/pwa, so the report holds every target. A budget needs no baseline: it
 * is a size, not a time.
 */
export async function benchBundle(): Promise<{ findings: Finding[]; lines: string[] }> {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts/bench/budget.mjs')], { encoding: 'utf8' });
  if (run.error) throw run.error;
  const out = run.stdout.trim().split('\n').filter(Boolean);
  const info = out.filter((line) => line.startsWith('info')).map((line) => line.replace(/^info\s+/, ''));
  const findings: Finding[] = out.filter((line) => !line.startsWith('info')).map((line) => {
    const ok = line.startsWith('ok');
    const text = line.replace(/^(ok|OVER)\s+/, '');
    const sized = /^(.*): ([\d.]+ KB) \(budget (\d+) KB\)$/.exec(text);
    if (sized) return { target: `7. ${sized[1]} <= ${sized[3]} KB`, measured: sized[2]!, holds: ok };
    if (/lazy/.test(text)) return { target: '7. signature, barcode, maps and audio load lazily, never with the form', measured: text, holds: ok };
    return { target: '7. chart.js loads only on dashboard routes', measured: text, holds: ok };
  });
  if (findings.length < 3) throw new Error(`budget.mjs printed ${out.length} lines: ${run.stderr.trim() || out.join(' | ')}`);
  return { findings, lines: ['bundle: scripts/bench/budget.mjs on apps/pwa/dist (gzip level 9 of each JavaScript chunk the route loads before it renders)', ...info] };
}
