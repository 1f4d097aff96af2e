import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '../../db/database.js';
import { startExportJob, type ExportJob } from './export-job.js';

/**
 * Worker thread body: writes one export with its own database connection and sends the bytes to
 * the main thread chunk by chunk, each waiting for the main thread's ack (its back-pressure).
 */
const port = parentPort!;
const job = workerData as ExportJob;
let acked: (() => void) | undefined;
let aborted = false;

const toMain = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    if (aborted) return callback(new Error('export aborted'));
    acked = () => callback();
    port.postMessage({ type: 'chunk', data: new Uint8Array(chunk) });
  },
});

port.on('message', (message: 'ack' | 'abort') => {
  if (message === 'abort') {
    aborted = true;
    toMain.destroy();
  }
  const next = acked;
  acked = undefined;
  next?.();
});

const db = openDb(job.db);
try {
  // Resolves once the zip has been flushed into toMain and toMain has finished.
  await startExportJob(db, job, toMain);
  port.postMessage({ type: 'end' });
} catch (err) {
  port.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
} finally {
  await db.close();
  port.close();
}
