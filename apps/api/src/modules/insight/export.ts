import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExportJob } from './export-job.js';

/**
 * A small young generation: exceljs makes a lot of short-lived garbage per row, and V8's default
 * lets it pile up to tens of MB between scavenges; with this the export's RSS stays ~60 MB above idle.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

type FromWorker = { type: 'chunk'; data: Uint8Array } | { type: 'end' } | { type: 'error'; message: string };

/**
 * Runs the export in a worker thread with its own database connection, so zipping a large
 * survey never stalls ingest on the main thread; the bytes come back as a stream.
 */
export function exportInWorker(job: ExportJob, onError: (err: Error) => void): Readable {
  const out = new PassThrough();
  const worker = spawnWorker(job);
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

function spawnWorker(job: ExportJob): Worker {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new Worker(new URL('./export-worker.js', self), { workerData: job, resourceLimits: WORKER_LIMITS });
  // Running from source (tests, `tsx watch`): the worker compiles its TypeScript through tsx too.
  const tsx = pathToFileURL(createRequire(self).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL('./export-worker.ts', self).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`, { eval: true, workerData: job, resourceLimits: WORKER_LIMITS });
}
