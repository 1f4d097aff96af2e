#!/usr/bin/env node
// PWA weight budget (benchmark target 7): the field-user form route ships at most 150 KB of gzipped
// JavaScript, the whole app at most 300 KB, and chart.js only on the dashboard routes.
// Reads apps/pwa/dist/.vite/manifest.json after `npm run build`; exits 1 when a budget is exceeded.
// A route's weight is what must arrive before its screen renders and captures: the entry, the route
// chunk and their static imports. Code every signed-in screen loads after the first paint (the
// service-worker registration, the sync engine) is not part of a route; the whole-app budget holds it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// PWA_DIST: weigh another build (a copy built elsewhere for a comparison).
const dist = process.env.PWA_DIST ?? join(import.meta.dirname, '../../apps/pwa/dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
// A string only chart.js carries (its date-adapter stub); minifiers keep string literals.
const CHART_MARK = 'This method is not implemented: Check that a complete date adapter is provided.';
const hasChart = (file) => readFileSync(join(dist, file), 'utf8').includes(CHART_MARK);

/** Files a key loads before it can run: its chunk, CSS aside, and every static import, transitively. */
function closure(keys) {
  const seen = new Set();
  const files = new Set();
  const walk = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the Vite manifest: ${key}`);
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) walk(dep);
  };
  keys.forEach(walk);
  return [...files];
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const route = (src) => closure([entry, src]);
const kb = (files) => files.reduce((n, f) => n + gz(f), 0) / 1024;

const fieldUser = route('src/features/field-user/QuestionsPage.tsx');
const allJs = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).map((f) => `assets/${f}`);
const checks = [
  { name: 'field-user form route JS (gzip)', value: kb(fieldUser), max: 150 },
  { name: 'whole app JS (gzip)', value: kb(allJs), max: 300 },
];
const chartOutsideDashboards = fieldUser.filter(hasChart).concat(closure([entry]).filter(hasChart));
let failed = false;
for (const c of checks) {
  const ok = c.value <= c.max;
  failed ||= !ok;
  console.log(`${ok ? 'ok    ' : 'OVER  '} ${c.name}: ${c.value.toFixed(1)} KB (budget ${c.max} KB)`);
}
const chartAnywhere = allJs.filter(hasChart);
if (chartOutsideDashboards.length) {
  failed = true;
  console.log(`OVER   chart.js is loaded outside the dashboards: ${chartOutsideDashboards.join(', ')}`);
} else console.log(`ok     chart.js only in dashboard chunks (${chartAnywhere.length ? chartAnywhere.join(', ') : 'not bundled yet'})`);
process.exit(failed ? 1 : 0);
