import type { Writable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { DbOptions } from '../../db/database.js';
import type { RowScope } from './repository.js';
import type { ExportColumns, RowBatch } from './export-rows.js';
import { XLSX_OPTIONS, effectiveOptions, questionSlots, type ExportOptions } from './export-layout.js';
import { writeGeoJson, writeKml, writePlainCsv, writeStatZip } from './export-formats.js';
import { spawnExportThread } from './export-thread.js';
import { RepeatSpool, sheetNames } from './export-spool.js';
import { writeResponsesWorkbook } from './workbook.js';

/** Everything an export needs, plain data so it can cross into its threads. */
export interface ExportJob {
  db: DbOptions;
  scope: RowScope;
  search: string;
  columns: ExportColumns;
  publicUrl: string;
  /** Format and switches; the workbook with option texts when absent. */
  options?: ExportOptions;
  /** Answer keys (question texts of any version) whose cells read PERSONAL_MASK. */
  hidden?: string[];
  /** The survey's title, named in the syntax files and the map layers. */
  title?: string;
  /** Photo links are signed with this key and expire at `exp` (unix seconds), fresh at each export. */
  fileLink: { key: string; exp: number };
}

/** Whether a format writes the repeats' tables (a workbook's sheets, a zip's CSVs); the map layers carry the responses only. */
export const hasRepeatTables = (format: ExportOptions['format']): boolean => format === 'xlsx' || format === 'csv' || format === 'stata' || format === 'spss';

/** Batches the writer asks for ahead of the one it is writing. */
const PREFETCH = 3;

type FromReader = { type: 'rows'; batch: RowBatch } | { type: 'end' } | { type: 'error'; message: string };

/**
 * Writes the workbook for `job` into `out`. A reader thread reads and formats the rows meanwhile
 * (export-reader-worker.ts), so the database read overlaps the XML building instead of adding to it.
 */
export async function startExportJob(job: ExportJob, out: Writable): Promise<void> {
  const reader = spawnExportThread('export-reader-worker', job);
  const options = effectiveOptions(job.options ?? XLSX_OPTIONS);
  const tables = job.columns.repeats ?? [];
  // The repeats' tables follow the main one: their rows wait in temporary files meanwhile (export-spool.ts). Maps have none.
  const spool = tables.length > 0 && hasRepeatTables(options.format) ? await RepeatSpool.open(tables) : undefined;
  try {
    const slots = questionSlots(job.columns, options);
    const rows = batchesFrom(reader);
    const input = { columns: job.columns, slots, options, rows, title: job.title ?? 'survey', ...(spool ? { spool } : {}) };
    switch (options.format) {
      case 'xlsx': {
        const names = sheetNames(tables);
        const repeats = spool && { spool, sheets: tables.map((t, i) => ({ name: names[i]!, headers: questionSlots(t.columns, options).map((s) => s.header) })) };
        await writeResponsesWorkbook(out, { columns: slots.map((s) => s.header), rows, ...(repeats ? { repeats } : {}) });
        break;
      }
      case 'csv':
        await writePlainCsv(out, input);
        break;
      case 'stata':
      case 'spss':
        await writeStatZip(out, input);
        break;
      case 'geojson':
        await writeGeoJson(out, input);
        break;
      case 'kml':
        await writeKml(out, input);
        break;
    }
  } finally {
    await spool?.close();
    // Done or failed: a reader still running closes its connection and ends; terminated if it hangs.
    reader.postMessage('stop');
    setTimeout(() => void reader.terminate(), 5000).unref();
  }
}

/** The reader's batches as they come, asking for the next one as each is taken. */
async function* batchesFrom(reader: Worker): AsyncGenerator<RowBatch> {
  const queue: FromReader[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  reader.on('message', (message: FromReader) => {
    queue.push(message);
    notify();
  });
  reader.on('error', (err) => {
    failure ??= err;
    notify();
  });
  reader.on('exit', (code) => {
    failure ??= new Error(`export reader exited (${code}) before finishing`);
    notify();
  });
  for (let i = 0; i < PREFETCH; i++) reader.postMessage('more');
  for (;;) {
    const message = queue.shift();
    if (message === undefined) {
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
    } else if (message.type === 'end') {
      return;
    } else if (message.type === 'error') {
      throw new Error(message.message);
    } else {
      reader.postMessage('more');
      yield message.batch;
    }
  }
}
