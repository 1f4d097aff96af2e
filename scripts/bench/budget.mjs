#!/usr/bin/env node
// PWA weight budget (benchmark target 7), per route: every field-user screen ships at most 170 KB of
// gzipped JavaScript (a cheap phone on 2G opens it), every other screen at most 250 KB; chart.js only
// on the dashboards; what only some forms need (signature, barcode, maps, audio) never in the form
// route's static closure. Routes are read from apps/pwa/src/routes/router.tsx's lazy imports, so a new
// screen is weighed without being listed here. Reads apps/pwa/dist/.vite/manifest.json after
// `npm run build`; exits 1 when a budget is exceeded or two chunks import each other (scripts/bench/chunk-cycles.mjs).
// Each route also carries the language catalog's parts it shows, the heaviest language's (lib/i18n.ts).
// A route's weight is what must arrive before its screen renders and captures: the entry, the route
// chunk and their static imports. Code every signed-in screen loads after the first paint (the
// service-worker registration, the sync engine) is not part of a route; the whole app is reported.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chunkCycles } from './chunk-cycles.mjs';

export const BUDGET_KB = { fieldUser: 170, office: 250 };

const root = join(import.meta.dirname, '../..');
// PWA_DIST: weigh another build (a copy built elsewhere for a comparison).
const dist = process.env.PWA_DIST ?? join(root, 'apps/pwa/dist');
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
const kb = (files) => files.reduce((n, f) => n + gz(f), 0) / 1024;
// apps/pwa/chunk-map-plugin.ts: which chunk holds each source module (a screen may sit in a group chunk).
const chunkMap = JSON.parse(readFileSync(join(dist, '.vite/chunk-map.json'), 'utf8'));
const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
/** The manifest key of the chunk holding a source module (`src/...` relative to apps/pwa). */
function chunkOf(src) {
  const file = Object.keys(chunkMap).find((f) => chunkMap[f].includes(src));
  const key = file && keyOfFile.get(file);
  if (!key) throw new Error(`no chunk holds ${src}: was the PWA built with chunk-map-plugin?`);
  return key;
}

const router = readFileSync(join(root, 'apps/pwa/src/routes/router.tsx'), 'utf8');
const screens = [...new Set([...router.matchAll(/import\('\.\.\/(features\/[^']+)'\)/g)].map((m) => `src/${m[1]}.tsx`))];
if (screens.length < 10) throw new Error(`found only ${screens.length} lazy screens in router.tsx: has its import form changed?`);

// A field user's screens are the routes under the `fieldUser` layout route, wherever their domain folder is.
const fieldUserScreens = new Set(
  [...router.matchAll(/getParentRoute: \(\) => fieldUser,[^\n]*?import\('\.\.\/(features\/[^']+)'\)/g)].map((m) => `src/${m[1]}.tsx`),
);
if (fieldUserScreens.size < 3) throw new Error(`found only ${fieldUserScreens.size} field-user screens in router.tsx: has its route form changed?`);
const formRoute = 'src/features/capture/QuestionsPage.tsx';
if (!fieldUserScreens.has(formRoute)) throw new Error(`${formRoute} is not a field-user route in router.tsx: has the form moved?`);
// The app's language catalogs (src/locales/<lang>/messages.po), each in parts of a chunk each
// (apps/pwa/i18n/po-plugin.ts partsOf): `core` arrives before any screen paints, a route's own part
// (`withWords(import(...), 'part', ...)` in router.tsx) with the route, `server` after the first paint.
// A route carries the heaviest language's core and own part.
const catalogKeys = Object.keys(manifest).filter((k) => /src\/locales\/[a-z]+\/messages\.po\?part=[a-z]+$/.test(k));
if (catalogKeys.length < 10) throw new Error(`found ${catalogKeys.length} language catalog parts in the manifest: has lib/i18n.ts changed how it loads them?`);
const entryFiles = closure([entry]);
const partKb = (k) => kb(closure([k]).filter((f) => !entryFiles.includes(f)));
const parts = [...new Set(catalogKeys.map((k) => k.split('?part=')[1]))];
const catalogKb = Object.fromEntries(parts.map((part) => [part, Math.max(...catalogKeys.filter((k) => k.endsWith(`?part=${part}`)).map(partKb))]));
const partOfScreen = new Map([...router.matchAll(/withWords\(import\('\.\.\/(features\/[^']+)'\)((?:, '[a-z]+')+)\)/g)].map((m) => [`src/${m[1]}.tsx`, [...m[2].matchAll(/'([a-z]+)'/g)].map((p) => p[1])]));
const checks = screens.map((src) => {
  const fieldUser = fieldUserScreens.has(src);
  const name = src === formRoute ? 'field-user form route JS (gzip)' : `${src.replace(/^src\/features\//, '').replace(/\.tsx$/, '')} route JS (gzip)`;
  const words = catalogKb.core + (partOfScreen.get(src) ?? []).reduce((n, part) => n + catalogKb[part], 0);
  return { name, value: kb(closure([entry, chunkOf(src)])) + words, max: fieldUser ? BUDGET_KB.fieldUser : BUDGET_KB.office };
});
console.log(`info   language catalog parts (gzip, the heaviest language's; core on every route, a route's own part with it, server after the first paint): ${parts.map((p) => `${p} ${catalogKb[p].toFixed(1)} KB`).join(', ')}`);
const allJs = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).map((f) => `assets/${f}`);

let failed = false;
for (const c of checks) {
  const ok = c.value <= c.max;
  failed ||= !ok;
  console.log(`${ok ? 'ok    ' : 'OVER  '} ${c.name}: ${c.value.toFixed(1)} KB (budget ${c.max} KB)`);
}
console.log(`info   whole app JS (gzip): ${kb(allJs).toFixed(1)} KB (no budget: each route has its own)`);

const formFiles = closure([entry, chunkOf(formRoute)]);
const chartOutsideDashboards = formFiles.filter(hasChart).concat(closure([entry]).filter(hasChart));
const chartAnywhere = allJs.filter(hasChart);
if (chartOutsideDashboards.length) {
  failed = true;
  console.log(`OVER   chart.js is loaded outside the dashboards: ${chartOutsideDashboards.join(', ')}`);
} else console.log(`ok     chart.js only in dashboard chunks (${chartAnywhere.length ? chartAnywhere.join(', ') : 'not bundled yet'})`);

// Question types only some forms have load when such a question is shown, never with the form.
const lazyOnly = Object.values(chunkMap).flat().filter((src) => /\/(SignatureQuestion|BarcodeQuestion|AudioQuestion|Map[A-Za-z]*)\.tsx$/.test(src));
const eager = lazyOnly.filter((src) => formFiles.includes(manifest[chunkOf(src)].file));
if (eager.length) {
  failed = true;
  console.log(`OVER   loaded with the form route instead of lazily: ${eager.join(', ')}`);
} else console.log(`ok     lazy with the form: ${lazyOnly.map((k) => k.replace(/^.*\//, '')).join(', ') || 'none built yet'}`);
// No two chunks may import each other, directly or around a ring: a module of a chunk on a cycle can
// run before a value it imports is defined (a constant read at module load crashed Settings this way).
const cycles = chunkCycles(manifest);
if (cycles.length) {
  failed = true;
  const name = (k) => manifest[k].name ?? k;
  for (const { path, members } of cycles) {
    const others = members.filter((k) => !path.includes(k));
    console.log(`OVER   chunk import cycle: ${[...path, path[0]].map(name).join(' -> ')}${others.length ? ` (and ${others.map(name).join(', ')} on the same ring)` : ''}`);
  }
} else console.log('ok     no chunk import cycle (static imports of .vite/manifest.json)');
process.exit(failed ? 1 : 0);
