import { PassThrough, type Readable } from 'node:stream';
import type { ExportJob } from './export-job.js';
import { spawnExportThread } from './export-thread.js';

type FromWorker = { type: 'chunk'; data: Uint8Array } | { type: 'end' } | { type: 'error'; message: string };

/**
 * Runs the export in worker threads (a writer, and a reader with its own database connection), so
 * zipping a large survey never stalls ingest on the main thread; the bytes come back as a stream.
 */
export function exportInWorker(job: ExportJob, onError: (err: Error) => void): Readable {
  const out = new PassThrough();
  const worker = spawnExportThread('export-worker', job);
  let settled = false;
  const fail = (err: Error) => {
    if (settled) return;
    settled = true;
    onError(err);
    out.destroy(err);
  };
  worker.on('message', (message: FromWorker) => {
    if (message.type === 'chunk') {
      const ok = out.write(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
      if (ok) worker.postMessage('ack');
      else out.once('drain', () => worker.postMessage('ack'));
    } else if (message.type === 'end') {
      settled = true;
      out.end();
    } else {
      fail(new Error(message.message));
    }
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`export worker exited (${code}) before finishing`)));
  out.on('close', () => {
    if (settled) return;
    // The client went away: let the worker stop and close its connection, then make sure it is gone.
    settled = true;
    worker.postMessage('abort');
    setTimeout(() => void worker.terminate(), 5000).unref();
  });
  return out;
}
