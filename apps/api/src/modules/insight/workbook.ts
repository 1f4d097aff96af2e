import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { API_BASE, type Answer, type StoredQuestion } from '@survey-bird/contracts';
import type { ListedResponse } from './repository.js';

export { XLSX_MIME, attachmentHeader } from './download.js';

const DATE_FORMAT = 'dd/mm/yyyy hh:mm';
const IMAGE_PATH = `${API_BASE}/files/image/`;
const MISSING = 'N/A';

/**
 * Text as a spreadsheet must get it: never a formula. A leading = + - @ tab or CR gets a quote
 * so Excel, LibreOffice and a later CSV save all keep it as text.
 */
export function plainText(value: string): string {
  // Lone surrogates and the control characters XML 1.0 forbids become U+FFFD here: the writer
  // would silently drop the latter, and "\u0000=1" would then reach the sheet as "=1" unquoted.
  // eslint-disable-next-line no-control-regex -- matching those control characters is the point
  const wellFormed = value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD');
  return /^[=+\-@\t\r]/.test(wellFormed) ? `'${wellFormed}` : wellFormed;
}

/** The address an answer links to: an https URL, or a photo stored by this server; else null. */
export function linkOf(value: string, publicUrl: string): string | null {
  if (value.startsWith(IMAGE_PATH) && /^[\w.-]+$/.test(value.slice(IMAGE_PATH.length))) return `${publicUrl}${value}`;
  const own = `${publicUrl}${IMAGE_PATH}`;
  if (value.startsWith(own) && /^[\w.-]+$/.test(value.slice(own.length))) return value;
  if (!/^https:\/\/\S+$/i.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function answerCell(answer: Answer | undefined, publicUrl: string): ExcelJS.CellValue {
  if (answer === undefined || answer === null) return MISSING;
  if (Array.isArray(answer)) return plainText(answer.join(', '));
  const link = linkOf(answer, publicUrl);
  return link ? { text: link, hyperlink: link } : plainText(String(answer));
}

export interface WorkbookInput {
  questions: StoredQuestion[];
  publicUrl: string;
  rows: AsyncIterable<ListedResponse[]>;
  /** Called after each batch, once the writer may go on, with the bytes still waiting for deflate (tests). */
  onBatch?: (zipBacklog: number) => void;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves when `out` can take more, or is closed (the next batch then sees it destroyed). */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/** Past this many bytes of sheet XML waiting for the zip's deflate, the writer stops adding rows. */
export const MAX_ZIP_BACKLOG = 1 << 20;

type Backlogged = { _writableState?: { length?: number }; once(event: string, fn: () => void): unknown; off(event: string, fn: () => void): unknown };

/**
 * The stream between a worksheet and the zip's deflate. exceljs 4.4 writes the sheet's XML into it
 * ignoring back-pressure, so when rows come faster than deflate takes them (always, on a busy
 * machine) the XML piles up there: +6 MB per 10k rows, 600 MB for a million. Undefined if exceljs'
 * internals change (workbook.test.ts checks they have not).
 */
export function zipInput(sheet: ExcelJS.Worksheet): Backlogged | undefined {
  const pipe = (sheet as unknown as { stream?: { pipes?: Backlogged[] } }).stream?.pipes?.[0];
  return typeof pipe?._writableState?.length === 'number' ? pipe : undefined;
}

/** Resolves once deflate has taken everything queued, or either stream is gone. */
function deflated(pipe: Backlogged, out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const e of ['drain', 'close', 'error']) pipe.off(e, done);
      out.off('close', done);
      resolve();
    };
    for (const e of ['drain', 'close', 'error']) pipe.once(e, done);
    out.once('close', done);
  });
}

/**
 * Streams the responses sheet into `out`: rows are committed as they come, and between batches
 * the writer yields to the event loop, waits while the zip's deflate is behind (zipInput) and
 * while `out` is full, so memory stays flat whatever the row count.
 */
export async function writeResponsesWorkbook(out: Writable, input: WorkbookInput): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Responses', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [{ width: 6 }, { width: 24 }, { width: 28 }, { width: 18 }, ...input.questions.map(() => ({ width: 24 }))];
  const header = sheet.addRow(['S/N', 'Field user', 'Field user email', 'Date', ...input.questions.map((q) => plainText(q.text))]);
  header.font = { bold: true };
  header.commit();

  let serial = 0;
  for await (const batch of input.rows) {
    for (const r of batch) {
      const answers = JSON.parse(r.answers) as Record<string, Answer>;
      const row = sheet.addRow([++serial, plainText(r.full_name), plainText(r.email), new Date(Number(r.created_at)), ...input.questions.map((q) => answerCell(answers[q.text], input.publicUrl))]);
      row.getCell(4).numFmt = DATE_FORMAT;
      row.commit();
    }
    if (out.destroyed) throw new Error('export aborted: the client went away');
    const zip = zipInput(sheet);
    if (zip && zip._writableState!.length! > MAX_ZIP_BACKLOG) await deflated(zip, out);
    if (out.writableNeedDrain) await drained(out);
    await tick();
    input.onBatch?.(zipInput(sheet)?._writableState?.length ?? 0);
  }
  await sheet.commit();
  await workbook.commit();
}
