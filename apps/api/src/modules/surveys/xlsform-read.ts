import type { XlsformImportReply } from '@survey-bird/contracts';
import { parseXlsform } from './xlsform.js';
import { readSheets } from './xlsform-xml.js';
import { XlsxZip } from './xlsform-zip.js';

/**
 * Reads an .xlsx (its size already capped by the route) into a draft. Not a zip, an old .xls, a
 * zip that is no workbook: 415. A zip unpacking past Limits.maxXlsformUnpackedBytes: 413. Runs in
 * the import's thread (xlsform-thread.ts), never on the request thread.
 */
export async function readXlsform(bytes: Uint8Array, fileName: string): Promise<XlsformImportReply> {
  const sheets = await readSheets(await XlsxZip.open(bytes));
  return parseXlsform(sheets, fileName.replace(/\.xlsx$/i, '').trim());
}
