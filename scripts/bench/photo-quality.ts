/**
 * How many bytes a photo costs at each survey photo quality. Camera-like
 * photos (tests/fixtures/camera-photos.ts: 12 MP and 8 MP scenes with texture, text and sensor
 * noise, JPEG at a camera's 0.92) are drawn in headless Chromium, the browser the phone runs, and
 * each goes through the app's own downscalePhoto at `standard` and `high`. The baseline is the
 * original camera file of the same run. Sizes do not depend on the machine's load (the encoders are
 * deterministic), so one pass is the figure; the timings are this machine's, for scale only.
 * Quick mode: the first three photos; full: all eight.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { PhotoEncoding, type PhotoQuality } from '@survey-bird/contracts';
import { openBrowser } from './browser.js';
import { QUICK, ROOT, median, type Finding } from './lib.js';
import type { PhotoRow } from './photo-quality.page.js';

const ORIGIN = 'http://localhost';
const CONTRACTS = fileURLToPath(new URL('../../packages/contracts/src/', import.meta.url));

/** photo-quality.page.ts as one classic script (global `photoBench`), contracts read from their sources. */
async function buildPageScript(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'sb-bench-photos-'));
  try {
    await build({
      configFile: false,
      root: join(ROOT, 'apps/pwa'),
      logLevel: 'warn',
      mode: 'production',
      define: { 'process.env.NODE_ENV': '"production"' },
      resolve: {
        alias: [
          { find: /^@survey-bird\/contracts$/, replacement: `${CONTRACTS}index.ts` },
          { find: /^@survey-bird\/contracts\/([a-z-]+)$/, replacement: `${CONTRACTS}$1.ts` },
        ],
      },
      build: {
        outDir,
        emptyOutDir: true,
        copyPublicDir: false,
        target: 'es2022',
        // An IIFE has no chunks: Vite inlines downscalePhoto's lazy perceptual-hash import.
        lib: { entry: join(ROOT, 'scripts/bench/photo-quality.page.ts'), formats: ['iife'], name: 'photoBench', fileName: () => 'photo-quality.js' },
      },
    });
    return readFileSync(join(outDir, 'photo-quality.js'), 'utf8');
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
/** Seconds to send `bytes` at a 2G upload rate (200 kbps), protocol overhead aside. */
const on2g = (bytes: number) => `${((bytes * 8) / 200_000).toFixed(1)} s`;

export async function benchPhotoQuality(): Promise<{ findings: Finding[]; lines: string[] }> {
  const script = await buildPageScript();
  const b = await openBrowser();
  try {
    const { page } = b;
    // A blank page on a secure origin (localhost), answered here: no server needed.
    await page.route(`${ORIGIN}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>photo quality</title>' }));
    await page.goto(`${ORIGIN}/`);
    await page.addScriptTag({ content: script });
    const total = await page.evaluate('photoBench.sceneCount') as number;
    const count = QUICK ? 3 : total;
    // Full mode: what a step of JPEG quality either side of each choice would give, for the record of the choice.
    const alternatives = QUICK ? [] : [{ maxEdge: 1600, jpeg: 0.75 }, { maxEdge: 1600, jpeg: 0.85 }, { maxEdge: 2000, jpeg: 0.8 }, { maxEdge: 2000, jpeg: 0.9 }];
    const rows = await page.evaluate(`photoBench.measure(${count}, ${JSON.stringify(alternatives)})`) as PhotoRow[];
    // The same seed draws the same photo: the first one again, byte for byte.
    const again = (await page.evaluate('photoBench.measure(1)') as PhotoRow[])[0]!;
    const deterministic = again.sha256 === rows[0]!.sha256 && again.shrunk.standard.bytes === rows[0]!.shrunk.standard.bytes;

    const originals = rows.map((r) => r.original);
    const med = (q: PhotoQuality) => median(rows.map((r) => r.shrunk[q].bytes));
    const share = (q: PhotoQuality) => median(rows.map((r) => r.shrunk[q].bytes / r.original));
    const edgesOk = (q: PhotoQuality) => rows.every((r) => Math.max(r.shrunk[q].width, r.shrunk[q].height) === PhotoEncoding[q].maxEdge);
    const range = (values: number[]) => `${kb(Math.min(...values))}-${kb(Math.max(...values))}`;
    const setting = (q: PhotoQuality) => `${PhotoEncoding[q].maxEdge} px, JPEG ${PhotoEncoding[q].jpeg}`;
    const photos = `${rows.length} generated camera photos`;

    return {
      findings: [
        {
          target: 'Photo quality. Generated camera photos are the size of a phone camera\'s (median 2-5 MB), drawn the same every run',
          measured: `${photos}: median ${mb(median(originals))} (${mb(Math.min(...originals))}-${mb(Math.max(...originals))}); ${deterministic ? 'the same bytes when drawn again' : '**different bytes when drawn again**'}`,
          holds: median(originals) >= 2 * 1024 * 1024 && median(originals) <= 5 * 1024 * 1024 && deterministic,
        },
        {
          target: `Photo quality. Median photo size at standard (${setting('standard')}), through the app's downscalePhoto`,
          measured: `${kb(med('standard'))} (${range(rows.map((r) => r.shrunk.standard.bytes))}), ${(share('standard') * 100).toFixed(1)}% of the original; ${on2g(med('standard'))} at 200 kbps`,
          holds: edgesOk('standard') ? null : false,
        },
        {
          target: `Photo quality. Median photo size at high (${setting('high')}), through the app's downscalePhoto`,
          measured: `${kb(med('high'))} (${range(rows.map((r) => r.shrunk.high.bytes))}), ${(share('high') * 100).toFixed(1)}% of the original, ${(med('high') / med('standard')).toFixed(2)}x standard; ${on2g(med('high'))} at 200 kbps`,
          holds: edgesOk('high') ? null : false,
        },
      ],
      lines: [
        `photo quality: ${rows.map((r) => `${r.scene} ${mb(r.original)} -> standard ${kb(r.shrunk.standard.bytes)}, high ${kb(r.shrunk.high.bytes)}`).join('; ')}`,
        ...(alternatives.length ? [`photo quality, other JPEG qualities through the same code (median): ${alternatives.map((a, i) => `${a.maxEdge} px at ${a.jpeg} ${kb(median(rows.map((r) => r.alternatives[i]!)))}`).join(', ')}`] : []),
        `photo quality: downscalePhoto took a median ${median(rows.map((r) => r.shrunk.standard.ms)).toFixed(0)} ms (standard) and ${median(rows.map((r) => r.shrunk.high.ms)).toFixed(0)} ms (high) per photo in headless Chromium here (decode, draw, encode, perceptual hash; software rendering, one of ${rows.length})`,
      ],
    };
  } finally {
    await b.close();
  }
}
