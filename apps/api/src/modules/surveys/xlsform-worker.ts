import { parentPort, workerData } from 'node:worker_threads';
import { XlsformImportReply } from '@survey-bird/contracts';
import { HttpError } from '../../http/errors.js';
import { yieldCpuToRequests } from '../insight/export-thread.js';
import { readXlsform } from './xlsform-read.js';

/**
 * The import's thread: reads the workbook and answers with the reply's JSON, checked against its
 * schema here, or with the refusal's status and words. The request thread only passes the string
 * on: for 100,000 choices, receiving the draft as objects, checking and serializing it there held
 * it 150 ms (a /healthz waited that long).
 */
yieldCpuToRequests();
const { bytes, fileName } = workerData as { bytes: Uint8Array; fileName: string };
try {
  parentPort!.postMessage({ json: JSON.stringify(XlsformImportReply.parse(await readXlsform(bytes, fileName))) });
} catch (err) {
  parentPort!.postMessage(err instanceof HttpError ? { status: err.statusCode, msg: err.message } : { failed: err instanceof Error ? err.message : String(err) });
}
