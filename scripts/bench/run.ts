/**
 * `npm run bench` (quick: every benchmark runs briefly, to prove it works) and
 * `BENCH_MODE=full npm run bench [suites...]` (the figures: 3+ alternating rounds; each suite's rows
 * replace its earlier ones in docs/benchmarks.json, and docs/benchmarks.md is written from all rows,
 * report.ts).
 * Every figure is a ratio against a baseline measured in the same run; the machine is noisy.
 */
import { benchBulkInvite } from './bulk-invite.js';
import { benchBundle } from './bundle.js';
import { benchChangesFeed } from './changes-feed.js';
import { benchPayouts } from './payouts.js';
import { benchDashboard } from './dashboard.js';
import { benchE2eCrypto } from './e2e-crypto.js';
import { benchExport } from './export.js';
import { benchExportFormats } from './export-formats.js';
import { benchFlagsBacklog } from './flags-backlog.js';
import { benchFormRules } from './form-rules.js';
import { benchFormValidate } from './form-validate.js';
import { benchIngest } from './ingest.js';
import { benchIngestBackcheck } from './ingest-backcheck.js';
import { QUICK, type Finding } from './lib.js';
import { benchLighthouse } from './lighthouse.js';
import { benchMapRender } from './map-render.js';
import { benchOfflineQueue } from './offline-queue.js';
import { benchPhotoQuality } from './photo-quality.js';
import { record } from './report.js';
import { dropScaleData } from './scale-data.js';
import { benchSlowLink } from './slow-link.js';
import { benchSearch } from './search.js';
import { benchSinceFeed } from './since-feed.js';

const only = process.argv.slice(2);
const suites: Record<string, () => Promise<{ findings: Finding[]; lines: string[] }>> = {
  'form-rules': benchFormRules,
  'form-validate': benchFormValidate,
  ingest: benchIngest,
  'ingest-backcheck': benchIngestBackcheck,
  'flags-backlog': benchFlagsBacklog,
  search: benchSearch,
  dashboard: benchDashboard,
  'changes-feed': benchChangesFeed,
  'since-feed': benchSinceFeed,
  payouts: benchPayouts,
  'bulk-invite': benchBulkInvite,
  export: benchExport,
  'export-formats': benchExportFormats,
  'offline-queue': benchOfflineQueue,
  'e2e-crypto': benchE2eCrypto,
  'photo-quality': benchPhotoQuality,
  'slow-link': benchSlowLink,
  lighthouse: benchLighthouse,
  'map-render': benchMapRender,
  bundle: benchBundle,
};

const ran: { suite: string; findings: Finding[]; lines: string[]; failed: boolean }[] = [];
try {
  for (const [name, run] of Object.entries(suites)) {
    if (only.length && !only.includes(name)) continue;
    const started = Date.now();
    console.log(`bench ${name}...`);
    // A suite that throws is printed and the others still run; its earlier rows stay recorded, and the exit code says so.
    let failed = false;
    const r = await run().catch((err: unknown) => {
      process.exitCode = 1;
      failed = true;
      console.error(err);
      return { findings: [{ target: `${name} suite`, measured: `failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, holds: false }], lines: [] };
    });
    ran.push({ suite: name, findings: r.findings, lines: [...r.lines, `${name} took ${((Date.now() - started) / 1000).toFixed(0)} s`], failed });
    for (const f of r.findings) console.log(`  ${f.holds === null ? '-' : f.holds ? 'ok' : 'MISSED'}  ${f.target}: ${f.measured}`);
    for (const l of r.lines) console.log(`     ${l}`);
  }
} finally {
  // The seed-scale data sets (temp directories, PostgreSQL databases) the read and export suites made.
  await dropScaleData();
}

if (!QUICK) {
  // A suite that failed keeps its earlier rows: the exit code says it failed.
  const command = `${process.env.BENCH_PG_URL ? 'BENCH_PG_URL=... ' : ''}BENCH_MODE=full npm run bench${only.length ? ` ${only.join(' ')}` : ''}`;
  record(ran.filter((r) => !r.failed), command);
}
