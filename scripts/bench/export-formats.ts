/**
 * Target 6 for every other export format: csv, stata, spss (a zip of the CSV and its syntax file),
 * geojson and kml of the same survey as the xlsx rows (15 columns, a location in each row), 200k rows
 * (quick mode 5k). Each format must hold the xlsx export's targets: peak RSS <= idle + 160 MB, and
 * throughput >= 70% of the bare exceljs streaming writer (export-baseline.mjs), alternating with it
 * in the same run. Client time to the last byte, as for the xlsx.
 */
import { EXPORT_FORMATS } from '@survey-bird/contracts';
import { bareExceljs, exportOnce, idleRss } from './export.js';
import { QUICK, alternate, loginToken, median, startApi, type Finding } from './lib.js';
import { pgServerUrl, scaleData } from './scale-data.js';

const ROWS = QUICK ? 5_000 : 200_000;
const FORMATS = EXPORT_FORMATS.filter((f) => f !== 'xlsx');

export async function benchExportFormats(): Promise<{ findings: Finding[]; lines: string[] }> {
  const findings: Finding[] = [];
  const lines: string[] = [];
  const rounds = QUICK ? 1 : 3;
  for (const engine of pgServerUrl() ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
    const E = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const data = await scaleData(engine, 1, ROWS);
    const org = data.info.orgs[0]!;
    const api = await startApi(data.env);
    try {
      const token = await loginToken(api.url, org.email, data.info.password);
      const idle = await idleRss(api);
      const sizes: string[] = [];
      for (const format of FORMATS) {
        const t = await alternate(rounds, () => bareExceljs(ROWS), () => exportOnce(api, token, org.surveyId, ROWS, undefined, format));
        const peak = Math.max(...t.b.map((r) => r.peakRss));
        const ours = median(t.b.map((r) => r.rowsPerSec));
        const bare = median(t.a.map((r) => r.rowsPerSec));
        const k = `${ROWS / 1000}k`;
        findings.push({ target: `6. ${E} ${format} export ${k} rows: peak RSS <= idle + 160 MB`, measured: `peak ${peak.toFixed(0)} MB, idle ${idle.toFixed(0)} MB: +${(peak - idle).toFixed(0)} MB`, holds: peak - idle <= 160 });
        findings.push({ target: `6. ${E} ${format} export throughput >= 70% of a bare exceljs streaming writer`, measured: `${ours.toFixed(0)} vs ${bare.toFixed(0)} rows/s = ${((ours / bare) * 100).toFixed(0)}%`, holds: ours / bare >= 0.7 });
        sizes.push(`${format} ${(t.b[0]!.bytes / 2 ** 20).toFixed(1)} MiB`);
      }
      lines.push(`${E} export formats: ${ROWS} rows each (${sizes.join(', ')}), ${rounds} round(s) A/B against export-baseline.mjs (bare exceljs xlsx writer); client time to the last byte`);
    } finally {
      await api.stop();
    }
  }
  return { findings, lines };
}
