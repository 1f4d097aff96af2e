import type { Writable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { DbOptions } from '../../db/database.js';
import type { Scope } from './repository.js';
import type { ExportColumns, RowBatch } from './export-rows.js';
import { spawnExportThread } from './export-thread.js';
import { writeResponsesWorkbook } from './workbook.js';

/** Everything an export needs, plain data so it can cross into its threads. */
export interface ExportJob {
  db: DbOptions;
  scope: Scope;
  search: string;
  columns: ExportColumns;
  publicUrl: string;
}

/** Batches the writer asks for ahead of the one it is writing. */
const PREFETCH = 3;

type FromReader = { type: 'rows'; batch: RowBatch } | { type: 'end' } | { type: 'error'; message: string };

/**
 * Writes the workbook for `job` into `out`. A reader thread reads and formats the rows meanwhile
 * (export-reader-worker.ts), so the database read overlaps the XML building instead of adding to it.
 */
export async function startExportJob(job: ExportJob, out: Writable): Promise<void> {
  const reader = spawnExportThread('export-reader-worker', job);
  try {
    await writeResponsesWorkbook(out, { columns: job.columns.headers, rows: batchesFrom(reader) });
  } finally {
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
