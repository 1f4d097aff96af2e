import { PassThrough, type Readable } from 'node:stream';
import type { PayoutDetail } from '@survey-bird/contracts';
import { plainText } from '../../lib/spreadsheet.js';
import type { PayoutsRepository } from './repository.js';

export const CSV_MIME = 'text/csv; charset=utf-8';
export const TRANSFER_HEADER = ['S/N', 'Full name', 'Bank', 'Bank code', 'Account number', 'Account name', 'Amount', 'Narration'];
export const RESPONSES_HEADER = ['S/N', 'Response id', 'Field user', 'E-mail', 'Received at', 'Amount'];

/** "Survey Bird {survey title} payout {date}", the date being the payout's creation day (UTC). */
export function narrationOf(title: string, detail: PayoutDetail): string {
  return `Survey Bird ${title} payout ${detail.createdAt.slice(0, 10)}`;
}

/** The transfer lines as rows; every text goes through plainText, so no cell is ever a formula. */
export function transferRows(title: string, detail: PayoutDetail): (string | number)[][] {
  const narration = plainText(narrationOf(title, detail));
  return detail.lines.map((l, i) => [i + 1, plainText(l.fullName), plainText(l.bank), plainText(l.bankCode), plainText(l.accountNumber), plainText(l.accountName), l.amount, narration]);
}

const csvCell = (v: string | number) => (typeof v === 'number' ? String(v) : `"${v.replace(/"/g, '""')}"`);
const csvLine = (row: (string | number)[]) => `${row.map(csvCell).join(',')}\r\n`;

export function transfersCsv(title: string, detail: PayoutDetail): string {
  return csvLine(TRANSFER_HEADER) + transferRows(title, detail).map(csvLine).join('');
}

async function* responseRows(repo: PayoutsRepository, payoutId: string) {
  let n = 0;
  for await (const page of repo.responsesOf(payoutId)) {
    yield page.map((r) => [++n, r.id, plainText(r.full_name), plainText(r.email), new Date(Number(r.created_at)).toISOString(), Number(r.rate)] as (string | number)[]);
  }
}

/** The responses a payout covers as CSV, streamed page by page. */
export function responsesCsv(repo: PayoutsRepository, payoutId: string): Readable {
  const out = new PassThrough();
  void (async () => {
    out.write(csvLine(RESPONSES_HEADER));
    for await (const rows of responseRows(repo, payoutId)) if (!out.write(rows.map(csvLine).join(''))) await new Promise((r) => out.once('drain', r));
    out.end();
  })().catch((err: Error) => out.destroy(err));
  return out;
}

/**
 * The xlsx: sheet "Transfers" (account numbers and bank codes are text cells, format "@", so
 * leading zeros survive in Excel and LibreOffice) and sheet "Responses". exceljs' streaming writer
 * commits each row, so memory stays flat however many responses the payout covers; exceljs is
 * loaded on the first download only, as the export does in its worker.
 */
export function payoutXlsx(repo: PayoutsRepository, title: string, detail: PayoutDetail): Readable {
  const out = new PassThrough();
  void (async () => {
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
    const transfers = book.addWorksheet('Transfers');
    transfers.columns = TRANSFER_HEADER.map((header, i) => ({ header, width: [6, 28, 24, 10, 16, 28, 12, 48][i], ...(i === 3 || i === 4 ? { style: { numFmt: '@' } } : {}) }));
    for (const row of transferRows(title, detail)) transfers.addRow(row).commit();
    transfers.commit();
    const responses = book.addWorksheet('Responses');
    responses.columns = RESPONSES_HEADER.map((header, i) => ({ header, width: [8, 40, 28, 32, 26, 10][i] }));
    for await (const rows of responseRows(repo, detail._id)) for (const row of rows) responses.addRow(row).commit();
    responses.commit();
    await book.commit();
  })().catch((err: Error) => out.destroy(err));
  return out;
}

/** `payout_{survey title}_{date}.{ext}`, ASCII only (the title is the caller's own). */
export function payoutFileName(title: string, detail: PayoutDetail, ext: string): string {
  const safe = title.replace(/[^\w -]/g, '_').trim().slice(0, 80) || 'survey';
  return `attachment; filename="payout_${safe}_${detail.createdAt.slice(0, 10)}.${ext}"`;
}
