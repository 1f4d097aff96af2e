/**
 * Chooses the expression engine with figures: (a) `xpath` over an `@xmldom/xmldom` document built
 * from the answers, (b) the contracts' hand-written engine. Size: esbuild --minify then gzip -9.
 * Speed: one validation of the workload (expressions-workload.ts: 100 questions, 40 expressions,
 * a 10-instance repeat) in a Node process and in headless Chromium, both from the same bundle.
 * (a)'s packages are not the project's: install them apart first,
 *   npm install --prefix /tmp/expr-xpath xpath@0.0.34 @xmldom/xmldom@0.9.12
 * then `npx tsx scripts/bench/expressions.ts` (EXPR_XPATH_DIR names another folder).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { bundle, runInChromium, runInNode } from './expressions-chromium.ts';
import { ROOT } from './lib.js';

const XPATH_MODULES = join(process.env.EXPR_XPATH_DIR ?? '/tmp/expr-xpath', 'node_modules');
/** The target: validating a 100-question response with 40 expressions on the server. */
const TARGET_US = 1000;

async function gzippedKb(entry: string, nodePaths?: string[]): Promise<{ min: number; gz: number }> {
  const code = await bundle(entry, { format: 'esm', minify: true, nodePaths });
  return { min: code.length / 1024, gz: gzipSync(code, { level: 9 }).length / 1024 };
}

async function stdinSize(contents: string, nodePaths: string[]): Promise<{ min: number; gz: number }> {
  const out = await build({ stdin: { contents, resolveDir: join(ROOT, 'scripts/bench'), loader: 'ts' }, bundle: true, write: false, format: 'esm', minify: true, platform: 'browser', target: 'es2022', nodePaths, logLevel: 'error' });
  const code = out.outputFiles[0]!.text;
  return { min: code.length / 1024, gz: gzipSync(code, { level: 9 }).length / 1024 };
}

const engineEntry = join(ROOT, 'packages/contracts/src/expressions/index.ts');
const enginePage = join(ROOT, 'scripts/bench/expressions-engine.page.ts');
const xpathPage = join(ROOT, 'scripts/bench/expressions-xpath.page.ts');
const lines: string[] = [];
const fmt = (x: number) => x.toFixed(1);

const engineSize = await gzippedKb(engineEntry);
lines.push(`(b) engine: ${fmt(engineSize.min)} KB minified, ${fmt(engineSize.gz)} KB gzipped`);
type EngineRun = { validateUs: number; compileUs: number; evaluations: number };
const bNode = await runInNode<EngineRun>(enginePage, 'run');
const bChromium = await runInChromium<EngineRun>(enginePage, 'run');
lines.push(`(b) engine: one validation (${bNode.evaluations} evaluations) ${fmt(bNode.validateUs)} µs in Node, ${fmt(bChromium.validateUs)} µs in Chromium; compiling the 40 expressions ${fmt(bNode.compileUs)} µs in Node, ${fmt(bChromium.compileUs)} µs in Chromium`);

if (existsSync(join(XPATH_MODULES, 'xpath'))) {
  const paths = [XPATH_MODULES];
  const xpathOnly = await stdinSize("export { parse } from 'xpath';", paths);
  lines.push(`(a) xpath alone (a browser's own DOMParser instead of xmldom): ${fmt(xpathOnly.min)} KB minified, ${fmt(xpathOnly.gz)} KB gzipped`);
  const bare = await stdinSize("export { parse } from 'xpath'; export { DOMImplementation } from '@xmldom/xmldom';", paths);
  const withAdapter = await stdinSize("export { parse } from 'xpath'; export { DOMImplementation } from '@xmldom/xmldom'; export { ODK_FUNCTIONS, toXml, translate } from './expressions-xpath.page.ts';", paths);
  lines.push(`(a) xpath + @xmldom/xmldom: ${fmt(bare.min)} KB minified, ${fmt(bare.gz)} KB gzipped bare; ${fmt(withAdapter.gz)} KB gzipped with the workload's 11 ODK functions and the answers-to-DOM step`);
  type XpathRun = EngineRun & { evalOnlyUs: number };
  const aNode = await runInNode<XpathRun>(xpathPage, 'run', paths);
  const aChromium = await runInChromium<XpathRun>(xpathPage, 'run', paths);
  lines.push(`(a) xpath: one validation (${aNode.evaluations} evaluations, DOM built from the answers) ${fmt(aNode.validateUs)} µs in Node, ${fmt(aChromium.validateUs)} µs in Chromium; on a ready DOM ${fmt(aNode.evalOnlyUs)} / ${fmt(aChromium.evalOnlyUs)} µs; parsing the 40 expressions ${fmt(aNode.compileUs)} / ${fmt(aChromium.compileUs)} µs`);
} else {
  lines.push(`(a) xpath: skipped, ${XPATH_MODULES} has no xpath (see this file's header)`);
}
lines.push(`target: one validation < ${TARGET_US} µs on the server: ${bNode.validateUs < TARGET_US ? 'holds' : 'MISSED'} for (b)`);
for (const l of lines) console.log(l);
