/**
 * Benchmark target 9, the field-user form route (/survey-bird/field-user) in Chromium, signed in
 * as a seeded field user, the built PWA served by the real API:
 *   1. Lighthouse (npm `lighthouse` 12, the last line that runs on Node 20), default settings:
 *      mobile, simulated slow 4G and 4x CPU, performance category only; median score of 5 runs
 *      (quick: 1). Lighthouse clears the service worker and Cache Storage before each run and keeps
 *      localStorage (the signed-in account list) and IndexedDB: a cold load of a returning user.
 *      For reference only (not the target figure), each run is audited a second time from the same
 *      trace with the CPU slowdown calibrated to this machine (cpuSlowdownFor): Lighthouse's 4x
 *      assumes a fast desktop, and this shared machine's benchmarkIndex swings far below that.
 *   2. A repeat visit with a warm service worker, in Playwright: the first visit online installs
 *      the worker, then each reload is timed from navigation start until the survey's title is on
 *      screen (an init script notes the first frame with the title); median of 5 reloads.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse, { auditFlowArtifacts, type Artifacts, type Result } from 'lighthouse';
import type { Page } from 'playwright-core';
import { demoFieldUser, openBrowser, openForm, signIn, snapshotPwa, startAppServer, waitForServiceWorker, type FieldUser } from './browser.js';
import { QUICK, freePort, median, type Finding } from './lib.js';

/**
 * The CPU slowdown that makes this host stand for Lighthouse's mobile target, from the
 * benchmarkIndex Lighthouse measured. Lighthouse's throttling guide ("Calibrating the CPU
 * slowdown") points to its CPU throttling calculator for the number; this is the calculator's
 * curve: 150 is 1x, 800 is 2x, 1300 is 3x, 1533 is the default 4x, each 233 above adds one. A
 * host under 150 is slower than the target phone already: 1x (no slowdown) is the most we can say.
 */
export function cpuSlowdownFor(benchmarkIndex: number): number {
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  return Math.max(1, 1 + (benchmarkIndex - 150) / 650);
}

interface LhRun {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  /** Lighthouse's CPU benchmark of this machine at that moment; its 4x slowdown assumes a fast desktop. */
  bench: number;
  /** The same run audited again with the CPU slowdown calibrated to `bench` (reference only). */
  calibrated: { cpu: number; score: number; tbt: number; lcp: number };
}

const metricsOf = (lhr: Result) => {
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    si: metric('speed-index'),
  };
};

/**
 * Audits a run's artifacts again with another CPU slowdown. Simulated throttling loads the page
 * unthrottled and applies the slowdown only when it computes the metrics, so this is what a run
 * with that setting would report for the same trace. Lighthouse refuses settings that differ
 * from the gathering's, hence the artifacts carry the new setting too.
 */
async function auditWithCpu(artifacts: Artifacts, cpuSlowdownMultiplier: number): Promise<Result> {
  const throttling = { ...artifacts.settings.throttling, cpuSlowdownMultiplier };
  const flags = { output: 'json' as const, logLevel: 'error' as const, onlyCategories: ['performance'], throttling };
  const flow = await auditFlowArtifacts({ name: 'calibrated', gatherSteps: [{ artifacts: { ...artifacts, settings: { ...artifacts.settings, throttling } }, flags }] });
  const lhr = flow.steps[0]?.lhr;
  if (!lhr) throw new Error('lighthouse: the calibrated audit returned nothing');
  return lhr;
}

async function runLighthouse(url: string, port: number): Promise<LhRun> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error('lighthouse returned nothing');
  const { lhr } = result;
  // To read the opportunities and diagnostics of a run, and its trace (long tasks): LIGHTHOUSE_REPORT_DIR=/some/dir.
  const dir = process.env.LIGHTHOUSE_REPORT_DIR;
  if (dir) {
    const stamp = Date.now();
    writeFileSync(join(dir, `lhr-${stamp}.json`), JSON.stringify(lhr));
    writeFileSync(join(dir, `trace-${stamp}.json`), JSON.stringify((result.artifacts as unknown as { Trace: unknown }).Trace));
  }
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const bench = lhr.environment.benchmarkIndex;
  const cpu = cpuSlowdownFor(bench);
  const calibrated = metricsOf(await auditWithCpu(result.artifacts, cpu));
  return { ...metricsOf(lhr), bench, calibrated: { cpu, score: calibrated.score, tbt: calibrated.tbt, lcp: calibrated.lcp } };
}

/** Notes performance.now() at the first animation frame in which the survey's title is in the page. */
const titleWatcher = (title: string) => `(() => {
  const want = ${JSON.stringify(title)};
  const seen = () => [...document.querySelectorAll('h1')].some((h) => h.textContent === want && h.getClientRects().length > 0);
  const obs = new MutationObserver(() => {
    if (!seen()) return;
    obs.disconnect();
    requestAnimationFrame(() => { window.__titleAt = performance.now(); });
  });
  obs.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

async function timeReloads(page: Page, user: FieldUser, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    await page.reload();
    await page.getByRole('heading', { level: 1, name: user.title }).waitFor();
    out.push(await page.waitForFunction('window.__titleAt').then((h) => h.jsonValue() as Promise<number>));
  }
  return out;
}

export async function benchLighthouse(): Promise<{ findings: Finding[]; lines: string[] }> {
  const runs = QUICK ? 1 : 5;
  const app = await startAppServer(snapshotPwa());
  try {
    const user = await demoFieldUser(app.api);
    const url = `${app.api.url}/survey-bird/field-user`;

    // 1. Lighthouse, on a Chromium with a DevTools port and this user signed in.
    const port = await freePort();
    const lhBrowser = await openBrowser({ debuggingPort: port });
    const lh: LhRun[] = [];
    let version = '';
    try {
      await signIn(lhBrowser.page, app.api.url, user);
      await openForm(lhBrowser.page, app.api.url, user.title);
      version = await lhBrowser.page.evaluate(() => navigator.userAgent.match(/Chrom(?:e|ium)\/([\d.]+)/)?.[1] ?? '');
      await lhBrowser.page.goto('about:blank');
      for (let i = 0; i < runs; i++) lh.push(await runLighthouse(url, port));
    } finally {
      await lhBrowser.close();
    }

    // 2. Repeat visits with the service worker installed (Playwright, phone viewport, no throttling),
    //    then the same with Lighthouse's mobile CPU slowdown (4x) for reference.
    const b = await openBrowser();
    let warm: number[];
    let warmSlowCpu: number[];
    try {
      await b.context.addInitScript(titleWatcher(user.title));
      await signIn(b.page, app.api.url, user);
      await openForm(b.page, app.api.url, user.title);
      await waitForServiceWorker(b.page);
      warm = await timeReloads(b.page, user, 5);
      const cdp = await b.context.newCDPSession(b.page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      warmSlowCpu = await timeReloads(b.page, user, QUICK ? 1 : 5);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    } finally {
      await b.close();
    }

    const score = median(lh.map((r) => r.score));
    const m = (k: Exclude<keyof LhRun, 'calibrated'>) => median(lh.map((r) => r[k]));
    const warmMs = median(warm);
    return {
      findings: [
        {
          target: '9. Lighthouse performance (mobile defaults) on /survey-bird/field-user, signed in >= 90',
          measured: `${score} (median of ${runs}; runs ${lh.map((r) => r.score).join(', ')}): FCP ${(m('fcp') / 1000).toFixed(1)} s, LCP ${(m('lcp') / 1000).toFixed(1)} s, TBT ${m('tbt').toFixed(0)} ms, CLS ${m('cls').toFixed(3)}, SI ${(m('si') / 1000).toFixed(1)} s; CPU benchmarkIndex ${lh.map((r) => r.bench.toFixed(0)).join(', ')}`,
          holds: score >= 90,
        },
        {
          target: '9. (reference, not the target) the same Lighthouse runs with the CPU slowdown calibrated to this machine',
          measured: `${median(lh.map((r) => r.calibrated.score))} (runs ${lh.map((r) => `${r.calibrated.score} at ${r.calibrated.cpu.toFixed(1)}x`).join(', ')}): LCP ${(median(lh.map((r) => r.calibrated.lcp)) / 1000).toFixed(1)} s, TBT ${median(lh.map((r) => r.calibrated.tbt)).toFixed(0)} ms`,
          holds: null,
        },
        {
          target: '9. Repeat visit with a warm service worker renders the form < 1 s',
          measured: `${warmMs.toFixed(0)} ms (median of 5 reloads: ${warm.map((x) => x.toFixed(0)).join(', ')}; with 4x CPU slowdown ${median(warmSlowCpu).toFixed(0)} ms)`,
          holds: warmMs < 1000,
        },
      ],
      lines: [
        "lighthouse, calibrated (reference): each run's trace audited again with cpuSlowdownMultiplier from its benchmarkIndex on the curve of Lighthouse's CPU throttling calculator (docs/throttling.md, 'Calibrating the CPU slowdown'); 4x is the default and the target figure",
        `lighthouse: npm lighthouse 12.8 (13 needs Node 22) against Chromium ${version} launched by Playwright with a DevTools port; default config (mobile, simulated throttling), performance only; Lighthouse resets the service worker and Cache Storage, keeps localStorage and IndexedDB`,
        'warm repeat visit: Playwright, 390x844 phone viewport, no network throttling; time from navigation start to the first frame with the survey title',
      ],
    };
  } finally {
    await app.stop();
  }
}
