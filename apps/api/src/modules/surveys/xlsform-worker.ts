import { parentPort, workerData } from 'node:worker_threads';
import { HttpError } from '../../http/errors.js';
import { yieldCpuToRequests } from '../insight/export-thread.js';
import { readXlsform } from './xlsform-read.js';

/** The import's thread: reads the workbook and answers with the draft or with the refusal's status and words. */
yieldCpuToRequests();
const { bytes, fileName } = workerData as { bytes: Uint8Array; fileName: string };
try {
  parentPort!.postMessage({ reply: await readXlsform(bytes, fileName) });
} catch (err) {
  parentPort!.postMessage(err instanceof HttpError ? { status: err.statusCode, msg: err.message } : { failed: err instanceof Error ? err.message : String(err) });
}
