// The export baseline (target 6): a bare exceljs streaming writer fed from memory with synthetic rows
// of the export's 15 columns (S/N, field user, e-mail, date, 11 answers), styles on, no shared
// strings, yielding to the event loop every 1000 rows like the real export, written to /dev/null.
// Usage: node export-baseline.mjs ROWS -> prints {"rows":..,"ms":..,"rowsPerSec":..,"peakRssMb":..}
import { createWriteStream, readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';

const rows = Number(process.argv[2] ?? 200_000);
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const NAMES = ['Tunde Adeyemi', 'Ngozi Eze', 'Ibrahim Musa', 'Funmi Ojo', 'Emeka Nwosu'];
const pool = Array.from({ length: 1000 }, (_, i) => [
  NAMES[i % 5],
  `fu0-${i % 50}@scale.ng`,
  [`${NAMES[i % 5].split(' ')[0]} stores`, 'Kiosk', 'Rice, Garri', `Chief ${NAMES[(i + 2) % 5]}`, `0803${String(i).padStart(7, '0')}`, `${i % 200} Allen Avenue`, '7am', 'N/A', `6.${50000 + i}, 3.${40000 + i} (±8 m)`, String(10_000 + i * 37), 'busy morning'],
]);

const started = performance.now();
let peak = rss();
const out = createWriteStream('/dev/null');
const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
const sheet = workbook.addWorksheet('Responses', { views: [{ state: 'frozen', ySplit: 1 }] });
sheet.columns = [{ width: 6 }, { width: 24 }, { width: 28 }, { width: 18 }, ...Array.from({ length: 11 }, () => ({ width: 24 }))];
const header = sheet.addRow(['S/N', 'Field user', 'Field user email', 'Date', ...Array.from({ length: 11 }, (_, i) => `Question ${i + 1}`)]);
header.font = { bold: true };
header.commit();
const now = Date.now();
for (let i = 0; i < rows; i++) {
  const [name, email, answers] = pool[i % pool.length];
  const row = sheet.addRow([i + 1, name, email, new Date(now - i * 1000), ...answers]);
  row.getCell(4).numFmt = 'dd/mm/yyyy hh:mm';
  row.commit();
  if (i % 1000 === 999) {
    if (out.writableNeedDrain) await new Promise((r) => out.once('drain', r));
    await new Promise((r) => setImmediate(r));
    if (i % 20_000 === 19_999) peak = Math.max(peak, rss());
  }
}
await sheet.commit();
await workbook.commit();
const ms = performance.now() - started;
console.log(JSON.stringify({ rows, ms, rowsPerSec: rows / (ms / 1000), peakRssMb: Math.max(peak, rss()) }));
