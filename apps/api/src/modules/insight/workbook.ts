import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { QUALITY_HEADER } from './export-layout.js';
import { REPEAT_LEADING, type RepeatSpool } from './export-spool.js';
import { CELL_SEP, DATE_MARK, LINK_MARK, MISSING, MISSING_MARK, MOMENT_MARK, NUMBER_MARK, TIME_MARK, plainText, type RowBatch } from './export-rows.js';

export { QUALITY_HEADER } from './export-layout.js';

export { XLSX_MIME, attachmentHeader } from './download.js';

// Seconds too: offline work done a few seconds apart must not read as the same minute.
const DATE_FORMAT = 'dd/mm/yyyy hh:mm:ss';
/**
 * One style object per kind of cell, shared by every row: exceljs caches a style's id per style
 * object, so shared ones skip re-deriving it (and rendering its XML) for each cell, which took
 * about a fifth of the writer's time. The ids, and so the file, are the same as with a style per cell.
 */
const STYLES = { number: {}, text: {}, date: { numFmt: DATE_FORMAT }, day: { numFmt: 'dd/mm/yyyy' }, time: { numFmt: 'hh:mm' } } satisfies Record<string, Partial<ExcelJS.Style>>;
type Styled = [ExcelJS.CellValue, Partial<ExcelJS.Style>];

const MS_PER_DAY = 86_400_000;

/** A cell from the reader (export-rows.ts), by its mark: a link, a number, a moment, a date, a time, or text. */
function cellValue(cell: string): Styled {
  switch (cell.charAt(0)) {
    case LINK_MARK: {
      const link = cell.slice(1);
      return [{ text: link, hyperlink: link }, STYLES.text];
    }
    case NUMBER_MARK:
      return [Number(cell.slice(1)), STYLES.number];
    case MOMENT_MARK:
      return [new Date(Number(cell.slice(1))), STYLES.date];
    case DATE_MARK:
      // Midnight UTC: exceljs writes a Date's UTC fields, so the cell shows the day as answered.
      return [new Date(`${cell.slice(1)}T00:00:00Z`), STYLES.day];
    case MISSING_MARK:
      return [MISSING, STYLES.text];
    case TIME_MARK: {
      // A time of day is the fraction of a day, the serial Excel itself stores for 07:30.
      const [h = 0, m = 0, s = 0] = cell.slice(1).split(':').map(Number);
      return [((h * 60 + m) * 60 + s) * 1000 / MS_PER_DAY, STYLES.time];
    }
    default:
      return [cell, STYLES.text];
  }
}

/** After "Received at": the review columns, one cell each per row from the reader. */
const REVIEW_HEADER = ['Status', 'Reviewed by', 'Reviewed at', 'Payout reference'];

export interface WorkbookInput {
  /** The question columns' headers (export-rows.ts exportColumns). */
  columns: string[];
  /** The rows, formatted by the reader (export-rows.ts). */
  rows: AsyncIterable<RowBatch>;
  /** Called after each batch, once the writer may go on, with the bytes still waiting for deflate (tests). */
  onBatch?: (zipBacklog: number) => void;
  /** One sheet per repeat after the main one: its name and question headers; the rows come through `spool`. */
  repeats?: { spool: RepeatSpool; sheets: { name: string; headers: string[] }[] };
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
 * internals change (export.test.ts checks they have not).
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
  sheet.columns = [{ width: 6 }, { width: 24 }, { width: 28 }, { width: 20 }, { width: 20 }, { width: 9 }, { width: 10 }, { width: 11 }, { width: 22 }, { width: 20 }, { width: 20 }, ...input.columns.map(() => ({ width: 24 })), ...QUALITY_HEADER.map((h) => ({ width: h === 'Flags' || h === 'Photo hashes' ? 40 : 18 }))];
  const header = sheet.addRow(['S/N', 'Field user', 'Field user email', 'Captured at', 'Received at', 'Version', 'Revision', ...REVIEW_HEADER, ...input.columns.map((text) => plainText(text)), ...QUALITY_HEADER]);
  header.font = { bold: true };
  header.commit();

  const width = 6 + REVIEW_HEADER.length + QUALITY_HEADER.length + input.columns.length;
  let serial = 0;
  for await (const batch of input.rows) {
    const cells = batch.count === 0 ? [] : batch.cells.split(CELL_SEP);
    if (cells.length !== batch.count * width) throw new Error(`export: a batch of ${batch.count} rows came with ${cells.length} cells`);
    await input.repeats?.spool.add(batch, serial);
    for (let i = 0; i < cells.length; i += width) {
      const captured = cells[i + 2] ? new Date(Number(cells[i + 2])) : MISSING;
      const reviewed = cells[i + 8] ? new Date(Number(cells[i + 8])) : '';
      const values: ExcelJS.CellValue[] = [++serial, cells[i], cells[i + 1], captured, new Date(Number(cells[i + 3])), Number(cells[i + 4]), Number(cells[i + 5]), cells[i + 6], cells[i + 7], reviewed, cells[i + 9]];
      const styles: Partial<ExcelJS.Style>[] = [STYLES.number, STYLES.text, STYLES.text, captured === MISSING ? STYLES.text : STYLES.date, STYLES.date, STYLES.number, STYLES.number, STYLES.text, STYLES.text, reviewed === '' ? STYLES.text : STYLES.date, STYLES.text];
      for (let c = i + 10; c < i + width; c++) {
        const [value, style] = cellValue(cells[c]!);
        values.push(value);
        styles.push(style);
      }
      const row = sheet.addRow(values);
      for (let c = 0; c < styles.length; c++) row.getCell(c + 1).style = styles[c]!;
      row.commit();
    }
    if (out.destroyed) throw new Error('export aborted: the client went away');
    const zip = zipInput(sheet);
    if (zip && zip._writableState!.length! > MAX_ZIP_BACKLOG) await deflated(zip, out);
    if (out.writableNeedDrain) await drained(out);
    await tick();
    input.onBatch?.(zipInput(sheet)?._writableState?.length ?? 0);
  }
  sheet.commit();
  if (input.repeats) await writeRepeatSheets(workbook, out, input.repeats);
  await workbook.commit();
}

/**
 * The repeats' sheets, one after another once the main sheet is written: S/N (the response's row
 * on the main sheet), the parent key (the S/N, or the key of the instance around it), the
 * instance's key (`3/members[2]`) and number, then its answers, typed as on the main sheet.
 */
async function writeRepeatSheets(workbook: ExcelJS.stream.xlsx.WorkbookWriter, out: Writable, repeats: NonNullable<WorkbookInput['repeats']>): Promise<void> {
  await repeats.spool.finish();
  for (const [t, { name, headers }] of repeats.sheets.entries()) {
    const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = [{ width: 6 }, { width: 14 }, { width: 24 }, { width: 9 }, ...headers.map(() => ({ width: 24 }))];
    const header = sheet.addRow([...REPEAT_LEADING, ...headers.map((h) => plainText(h))]);
    header.font = { bold: true };
    header.commit();
    let n = 0;
    for await (const cells of repeats.spool.rows(t)) {
      const values: ExcelJS.CellValue[] = [Number(cells[0]), cells[1], cells[2]];
      const styles: Partial<ExcelJS.Style>[] = [STYLES.number, STYLES.text, STYLES.text];
      for (let c = 3; c < cells.length; c++) {
        const [value, style] = cellValue(cells[c]!);
        values.push(value);
        styles.push(style);
      }
      const row = sheet.addRow(values);
      for (let c = 0; c < styles.length; c++) row.getCell(c + 1).style = styles[c]!;
      row.commit();
      if (++n % 500 === 0) {
        if (out.destroyed) throw new Error('export aborted: the client went away');
        const zip = zipInput(sheet);
        if (zip && zip._writableState!.length! > MAX_ZIP_BACKLOG) await deflated(zip, out);
        if (out.writableNeedDrain) await drained(out);
        await tick();
      }
    }
    sheet.commit();
  }
}
