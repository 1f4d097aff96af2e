import { parentPort, workerData } from 'node:worker_threads';
import { XlsformImportReply } from '@survey-bird/contracts';
import { HttpError } from '../../http/errors.js';
import { yieldCpuToRequests } from '../insight/export-thread.js';
import { readXlsform } from './xlsform-read.js';
import type { XlsformTask } from './xlsform-thread.js';
import { xlsformWorkbook } from './xlsform-workbook.js';

/**
 * The XLSForm thread: reads an uploaded workbook and answers with the reply's JSON, checked against
 * its schema here, or with the refusal's status and words; or writes a survey's sheets as an .xlsx. The request thread only passes the string
 * on: for 100,000 choices, receiving the draft as objects, checking and serializing it there held
 * it 150 ms (a /healthz waited that long).
 */
yieldCpuToRequests();
const task = workerData as XlsformTask;
try {
  if (task.task === 'export') {
    const xlsx = new Uint8Array(await xlsformWorkbook(task.sheets));
    parentPort!.postMessage({ xlsx }, [xlsx.buffer]);
  } else parentPort!.postMessage({ json: JSON.stringify(XlsformImportReply.parse(await readXlsform(task.bytes, task.fileName, task.attachments))) });
} catch (err) {
  parentPort!.postMessage(err instanceof HttpError ? { status: err.statusCode, msg: err.message } : { failed: err instanceof Error ? err.message : String(err) });
}
