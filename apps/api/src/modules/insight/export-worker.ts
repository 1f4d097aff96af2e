import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { startExportJob, type ExportJob } from './export-job.js';
import { yieldCpuToRequests } from './export-thread.js';

/**
 * Writer thread of an export: builds the workbook from the reader thread's rows and sends the bytes
 * to the main thread. The zip's output comes in thousands of small pieces (many of a few bytes), so
 * they go over in messages of at least MESSAGE bytes; up to WINDOW bytes may wait for the main
 * thread's acks (its back-pressure) instead of one message at a time, which stalled the zip.
 */
const MESSAGE = 64 << 10;
const WINDOW = 1 << 20;
yieldCpuToRequests();
const port = parentPort!;
const job = workerData as ExportJob;
const unacked: number[] = [];
let unackedBytes = 0;
let pending: Buffer[] = [];
let pendingBytes = 0;
let blocked: (() => void) | undefined;
let aborted = false;

function send(): void {
  if (pendingBytes === 0) return;
  const data = new Uint8Array(pendingBytes);
  let at = 0;
  for (const piece of pending) {
    data.set(piece, at);
    at += piece.length;
  }
  port.postMessage({ type: 'chunk', data }, [data.buffer]);
  unacked.push(pendingBytes);
  unackedBytes += pendingBytes;
  pending = [];
  pendingBytes = 0;
}

const toMain = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    if (aborted) return callback(new Error('export aborted'));
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= MESSAGE) send();
    if (unackedBytes < WINDOW) callback();
    else blocked = () => callback();
  },
  final(callback) {
    send();
    callback();
  },
});

port.on('message', (message: 'ack' | 'abort') => {
  if (message === 'abort') {
    aborted = true;
    toMain.destroy();
  } else {
    unackedBytes -= unacked.shift() ?? 0;
    if (unackedBytes >= WINDOW) return;
  }
  const next = blocked;
  blocked = undefined;
  next?.();
});

try {
  // Resolves once the zip has been flushed into toMain and toMain has finished.
  await startExportJob(job, toMain);
  port.postMessage({ type: 'end' });
} catch (err) {
  port.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
} finally {
  port.close();
}
