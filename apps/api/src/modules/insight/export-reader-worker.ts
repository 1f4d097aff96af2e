import { parentPort, workerData } from 'node:worker_threads';
import type { ExportJob } from './export-job.js';
import { openExportSource, readRowBatches } from './export-reader.js';
import { yieldCpuToRequests } from './export-thread.js';

/**
 * Reader thread of an export: reads and formats the rows with its own database connection while
 * the writer thread builds the XML. Sends a batch for each 'more' from the writer (its
 * back-pressure: a few batches in flight at most) and stops at 'stop'.
 */
const BATCH = 1000;
yieldCpuToRequests();
const port = parentPort!;
const job = workerData as ExportJob;
let credit = 0;
let stopped = false;
let wake: (() => void) | undefined;

port.on('message', (message: 'more' | 'stop') => {
  if (message === 'stop') stopped = true;
  else credit++;
  wake?.();
  wake = undefined;
});

const source = await openExportSource(job.db);
try {
  for await (const batch of readRowBatches(source, job, BATCH)) {
    while (credit === 0 && !stopped) await new Promise<void>((resolve) => (wake = resolve));
    if (stopped) break;
    credit--;
    port.postMessage({ type: 'rows', batch });
  }
  port.postMessage({ type: 'end' });
} catch (err) {
  port.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
} finally {
  await source.close();
  port.close();
}
