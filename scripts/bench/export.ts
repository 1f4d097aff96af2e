/**
 * Target 6: the xlsx export of one survey (15 columns) on seed-scale data: 200k rows (quick mode 5k)
 * for memory, throughput and concurrent ingest; 1M rows (full mode only) for memory growth.
 * RSS is the API process's VmRSS (worker threads included), sampled every 50 ms.
 * Throughput baseline: export-baseline.mjs, a bare exceljs streaming writer fed synthetic rows
 * from memory, run as its own process, alternating with our export.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { promisify } from 'node:util';
import { QUICK, alternate, load, loginToken, median, rssMb, startApi, type Finding, type LoadResult, type Server } from './lib.js';
import { pgServerUrl, scaleData, type ScaleData } from './scale-data.js';

const run = promisify(execFile);
const ROWS = QUICK ? 5_000 : 200_000;
const BIG_ROWS = 1_000_000;

export interface ExportRun {
  ms: number;
  bytes: number;
  peakRss: number;
  rowsPerSec: number;
}

export async function exportOnce(api: Server, token: string, surveyId: string, rows: number, signal?: AbortSignal, format = 'xlsx'): Promise<ExportRun> {
  let peak = rssMb(api.pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(api.pid));
  }, 50);
  const started = performance.now();
  try {
    const res = await fetch(`${api.url}/api/v1/survey/organization/response/download/${surveyId}${format === 'xlsx' ? '' : `?format=${format}`}`, { headers: { authorization: `Bearer ${token}` }, signal });
    if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
    const ms = performance.now() - started;
    peak = Math.max(peak, rssMb(api.pid));
    return { ms, bytes, peakRss: peak, rowsPerSec: rows / (ms / 1000) };
  } finally {
    clearInterval(timer);
  }
}

export async function bareExceljs(rows: number): Promise<ExportRun> {
  const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'export-baseline.mjs'), String(rows)]);
  const r = JSON.parse(stdout) as { ms: number; rowsPerSec: number; peakRssMb: number };
  return { ms: r.ms, bytes: 0, peakRss: r.peakRssMb, rowsPerSec: r.rowsPerSec };
}

export async function idleRss(api: Server): Promise<number> {
  await new Promise((r) => setTimeout(r, 1500));
  return rssMb(api.pid);
}

const answers = {
  'Outlet name': 'Mama Nkechi Provisions',
  'Outlet type': 'Kiosk',
  'Products in stock': ['Rice', 'Garri'],
  'Owner name': 'Nkechi Obi',
  Street: '12 Allen Avenue',
  Remarks: 'Owner was cooperative',
};

export async function benchExport(): Promise<{ findings: Finding[]; lines: string[] }> {
  const findings: Finding[] = [];
  const lines: string[] = [];
  const engines: ('sqlite' | 'postgres')[] = pgServerUrl() ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const engine of engines) {
    const r = await exportOn(engine);
    findings.push(...r.findings);
    lines.push(...r.lines);
  }
  return { findings, lines };
}

async function exportOn(engine: 'sqlite' | 'postgres'): Promise<{ findings: Finding[]; lines: string[] }> {
  const rounds = QUICK ? 1 : 3;
  const E = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const data = await scaleData(engine, 1, ROWS);
  const org = data.info.orgs[0]!;
  const findings: Finding[] = [];
  const lines: string[] = [];
  let peak200k = 0;
  let api = await startApi(data.env);
  try {
    const token = await loginToken(api.url, org.email, data.info.password);
    const idle = await idleRss(api);
    const first = await exportOnce(api, token, org.surveyId, ROWS);
    peak200k = first.peakRss;
    const t = await alternate(rounds, () => bareExceljs(ROWS), () => exportOnce(api, token, org.surveyId, ROWS));
    for (const r of t.b) peak200k = Math.max(peak200k, r.peakRss);
    const ours = median(t.b.map((r) => r.rowsPerSec));
    const bare = median(t.a.map((r) => r.rowsPerSec));
    const k = ROWS / 1000;
    findings.push({ target: `6. ${E} export ${k}k rows x 15 columns: peak RSS <= idle + 160 MB`, measured: `peak ${peak200k.toFixed(0)} MB, idle ${idle.toFixed(0)} MB: +${(peak200k - idle).toFixed(0)} MB`, holds: peak200k - idle <= 160 });
    findings.push({ target: `6. ${E} export throughput >= 70% of a bare exceljs streaming writer`, measured: `${ours.toFixed(0)} vs ${bare.toFixed(0)} rows/s = ${((ours / bare) * 100).toFixed(0)}%`, holds: ours / bare >= 0.7 });
    lines.push(`${E} export: ${ROWS} rows, ${(first.bytes / 2 ** 20).toFixed(1)} MiB xlsx, ${rounds} round(s) A/B against export-baseline.mjs (bare exceljs, synthetic rows from memory, /dev/null; its own peak RSS ${median(t.a.map((r) => r.peakRss)).toFixed(0)} MB); our export times are client time to the last byte, worker start-up included`);

    // Ingest alone against ingest while exports run back to back (each aborted when the load ends).
    const fieldUser = await loginToken(api.url, org.email.replace('owner0', 'fu0-0'), data.info.password);
    const ingest = () =>
      load({
        url: `${api.url}/api/v1/survey/respond`,
        requests: [{ method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${fieldUser}` }, setupRequest: (req) => ({ ...req, body: JSON.stringify({ survey_id: org.surveyId, organization_id: org.id, answers, clientId: uuidv7() }) }) }],
      });
    let exportsDuring = 0;
    const during = async (): Promise<LoadResult> => {
      const stop = new AbortController();
      const loop = (async () => {
        while (!stop.signal.aborted) {
          await exportOnce(api, token, org.surveyId, ROWS, stop.signal).then(() => exportsDuring++, () => {});
        }
      })();
      await new Promise((r) => setTimeout(r, 500));
      try {
        return await ingest();
      } finally {
        stop.abort();
        await loop;
      }
    };
    const c = await alternate<LoadResult>(rounds, ingest, during);
    const solo = median(c.a.map((r) => r.rps));
    const under = median(c.b.map((r) => r.rps));
    const bad = [...c.a, ...c.b].reduce((n, r) => n + r.errors + r.non2xx, 0);
    findings.push({ target: `6. ${E} ingest during an export >= 50% of solo`, measured: `${under.toFixed(0)} vs ${solo.toFixed(0)} req/s = ${((under / solo) * 100).toFixed(0)}%`, holds: under / solo >= 0.5 && bad === 0 });
    lines.push(`${E} export + ingest: ${rounds} round(s) A/B, autocannon 32 connections on POST /api/v1/survey/respond (field-user token); during B, exports of the survey run back to back (${exportsDuring} finished); ${bad} errors or non-2xx`);
  } finally {
    await api.stop();
  }

  if (QUICK || engine === 'postgres') return { findings, lines };
  // 1M rows in one survey: the peak must not grow with the row count.
  const big: ScaleData = await scaleData(engine, 1, BIG_ROWS);
  api = await startApi(big.env);
  try {
    const token = await loginToken(api.url, big.info.orgs[0]!.email, big.info.password);
    const idle = await idleRss(api);
    const r = await exportOnce(api, token, big.info.orgs[0]!.surveyId, BIG_ROWS);
    const ratio = r.peakRss / peak200k;
    findings.push({ target: `6. ${E} export peak RSS at 1M rows <= 1.5x at 200k`, measured: `${r.peakRss.toFixed(0)} vs ${peak200k.toFixed(0)} MB = ${ratio.toFixed(2)}x`, holds: ratio <= 1.5 });
    lines.push(`${E} export of 1M rows: ${(r.ms / 1000).toFixed(0)} s (${r.rowsPerSec.toFixed(0)} rows/s), ${(r.bytes / 2 ** 20).toFixed(0)} MiB, idle RSS ${idle.toFixed(0)} MB, peak ${r.peakRss.toFixed(0)} MB; seeded in ${big.seconds.toFixed(0)} s`);
  } finally {
    await api.stop();
  }
  return { findings, lines };
}
