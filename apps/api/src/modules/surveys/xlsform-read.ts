import ExcelJS from 'exceljs';
import type { XlsformImportReply } from '@survey-bird/contracts';
import { badRequest } from '../../http/errors.js';
import { parseXlsform, type Sheet } from './xlsform.js';

/** Sheets an XLSForm is made of; any other sheet is not read at all. */
const SHEETS = new Set(['survey', 'choices', 'settings']);

/**
 * Reads an .xlsx (its size already capped by the route) into a draft. Whatever exceljs cannot open
 * (not a zip, not a workbook, a damaged part) is a 400 naming the problem, never a 500.
 */
export async function readXlsform(bytes: Buffer, fileName: string): Promise<XlsformImportReply> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : 'unreadable';
    throw badRequest(`The file is not a readable .xlsx workbook (${reason}); save the XLSForm as Excel .xlsx and try again`);
  }
  const sheets: Sheet[] = [];
  workbook.eachSheet((worksheet) => {
    if (!SHEETS.has(worksheet.name.trim().toLowerCase())) return;
    const rows: Sheet['rows'] = [];
    worksheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (c, col) => {
        cells[col - 1] = textOf(c);
      });
      for (let i = 0; i < cells.length; i++) cells[i] ??= '';
      if (cells.some((c) => c.trim())) rows.push({ number: row.number, cells });
    });
    sheets.push({ name: worksheet.name, rows });
  });
  return parseXlsform(sheets, fileName.replace(/\.xlsx$/i, '').trim());
}

/** A cell's shown text: rich text joined, a formula's cached result, a number as written. */
function textOf(c: ExcelJS.Cell): string {
  const v = c.value;
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  try {
    return c.text ?? '';
  } catch {
    return '';
  }
}
