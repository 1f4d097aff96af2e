import { Limits, type XlsformImportReply } from '@survey-bird/contracts';
import { readCsv } from '../teams/bulk-file.js';
import { parseXlsform, type Sheet } from './xlsform.js';
import type { XlsformAttachment } from './xlsform-upload.js';
import { readSheets } from './xlsform-xml.js';
import { XlsxZip } from './xlsform-zip.js';

/**
 * Reads an .xlsx (its size already capped by the route) into a draft. Not a zip, an old .xls, a
 * zip that is no workbook: 415. A zip unpacking past Limits.maxXlsformUnpackedBytes: 413. Runs in
 * the import's thread (xlsform-thread.ts), never on the request thread.
 */
export async function readXlsform(bytes: Uint8Array, fileName: string, attachments: readonly XlsformAttachment[] = []): Promise<XlsformImportReply> {
  const sheets = await readSheets(await XlsxZip.open(bytes));
  return parseXlsform(sheets, fileName.replace(/\.xlsx$/i, '').trim(), attachments.map(csvSheet));
}

/** A CSV list as a sheet of its rows (heading first); one that is not text has no rows, and is reported so. */
function csvSheet(file: XlsformAttachment): Sheet {
  try {
    // The heading and a large list's most choices; past them the list is refused as too long.
    return { name: file.name, rows: readCsv(Buffer.from(file.bytes), Limits.maxDatasetOptions + 1) };
  } catch {
    return { name: file.name, rows: [] };
  }
}
