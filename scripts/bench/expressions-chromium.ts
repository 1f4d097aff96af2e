/**
 * Bundles a module with esbuild (as the phone would load it) and runs a function of it in headless
 * Chromium or in a plain Node process: the expression benchmark and the Chromium conformance run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { launchChromium } from '../../tests/support/chromium.ts';

export async function bundle(entry: string, opts: { format: 'esm' | 'iife'; minify?: boolean; nodePaths?: string[] }): Promise<string> {
  const out = await build({ entryPoints: [entry], bundle: true, write: false, format: opts.format, globalName: opts.format === 'iife' ? 'benchModule' : undefined, minify: opts.minify ?? false, platform: 'browser', target: 'es2022', nodePaths: opts.nodePaths, logLevel: 'error' });
  return out.outputFiles[0]!.text;
}

/** `fn` of the bundled `entry`, run in a fresh headless Chromium; its result as JSON. */
export async function runInChromium<T>(entry: string, fn: string, nodePaths?: string[]): Promise<T> {
  const code = await bundle(entry, { format: 'iife', nodePaths });
  const browser = await launchChromium({ viewport: { width: 390, height: 844 }, timeoutMs: 120_000 });
  try {
    await browser.page.setContent('<!doctype html><title>expressions</title>');
    await browser.page.addScriptTag({ content: code });
    return (await browser.page.evaluate(`JSON.stringify(globalThis.benchModule.${fn}())`).then((s) => JSON.parse(s as string))) as T;
  } finally {
    await browser.close();
  }
}

/** `fn` of the bundled `entry`, run in a separate Node process (no tsx transform in the timing). */
export async function runInNode<T>(entry: string, fn: string, nodePaths?: string[]): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-expr-'));
  try {
    const file = join(dir, 'module.mjs');
    writeFileSync(file, await bundle(entry, { format: 'esm', nodePaths }));
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(file)}).then((m) => console.log(JSON.stringify(m.${fn}())))`], { encoding: 'utf8' });
    return JSON.parse(out) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
