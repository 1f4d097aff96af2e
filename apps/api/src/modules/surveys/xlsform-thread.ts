import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ApiMsg } from '@survey-bird/contracts';
import { HttpError } from '../../http/errors.js';
import { ImportQueue } from './xlsform-queue.js';
import type { XlsformAttachment } from './xlsform-upload.js';

/**
 * The import thread's heap. A 100,000-choice form peaks at about 60 MB of heap, the worst the
 * unpacked-bytes budget lets through (one 50 MB cell) at about 150 MB; past this the thread alone
 * dies (ERR_WORKER_OUT_OF_MEMORY) and the upload is a 413, the server goes on.
 */
const LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 16 };
/** A form that takes longer than this to read is refused, its thread stopped: 100,000 choices take about 3 s. */
const TIME_LIMIT_MS = 60_000;

/**
 * One import reads at a time (on 2 cores the other stays with the requests), ten more wait their
 * turn, the rest are a 503: a dozen uploads at once hold at most one thread and its heap.
 */
const queue = new ImportQueue({ concurrency: 1, queue: 10 });

/** What a thread is asked: read an upload into a draft, or write a survey's sheets as an .xlsx. */
export type XlsformTask = { task: 'import'; bytes: Uint8Array; fileName: string; attachments: XlsformAttachment[] } | { task: 'export'; sheets: Record<string, string[][]> };

function spawn(workerData: XlsformTask): Worker {
  const self = import.meta.url;
  const options = { workerData, transferList: workerData.task === 'import' ? [workerData.bytes.buffer as ArrayBuffer, ...workerData.attachments.map((a) => a.bytes.buffer as ArrayBuffer)] : [], resourceLimits: LIMITS };
  if (!self.endsWith('.ts')) return new Worker(new URL('./xlsform-worker.js', self), options);
  // From source (tests, `tsx watch`): as export-thread.ts, the thread compiles its TypeScript through tsx.
  const tsx = pathToFileURL(createRequire(self).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL('./xlsform-worker.ts', self).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`, { ...options, eval: true, execArgv: [...process.execArgv, '--conditions=source'] });
}

type Answer = { json: string } | { xlsx: Uint8Array } | { status: number; msg: string } | { failed: string };

/** Reads the XLSForm in a thread of its own, behind the import queue: the reply's JSON (an XlsformImportReply). */
export async function importXlsform(bytes: Buffer, fileName: string, attachments: readonly XlsformAttachment[], log: (message: string) => void): Promise<string> {
  // Copies of their own to hand over: a small Buffer shares its memory with others (Node's pool).
  const files = attachments.map((a) => ({ name: a.name, bytes: new Uint8Array(a.bytes) }));
  const answer = await queue.run(() => runInThread({ task: 'import', bytes: new Uint8Array(bytes), fileName, attachments: files }, log));
  if (!('json' in answer)) throw new HttpError(415, ApiMsg.xlsformNotXlsx);
  return answer.json;
}

/**
 * Writes a survey's XLSForm sheets as an .xlsx in the same kind of thread and queue: a form with a
 * 100,000-choice list is seconds of exceljs, which the request thread must never spend.
 */
export async function writeXlsform(sheets: Record<string, string[][]>, log: (message: string) => void): Promise<Buffer> {
  const answer = await queue.run(() => runInThread({ task: 'export', sheets }, log));
  if (!('xlsx' in answer)) throw new Error('The XLSForm thread answered without a workbook');
  return Buffer.from(answer.xlsx);
}

function runInThread(task: XlsformTask, log: (message: string) => void): Promise<Answer> {
  const worker = spawn(task);
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const tooComplex = () => new HttpError(413, ApiMsg.xlsformTooComplex);
    const timer = setTimeout(() => settle(() => reject(tooComplex())), TIME_LIMIT_MS);
    worker.on('message', (answer: Answer) => {
      if ('json' in answer || 'xlsx' in answer) settle(() => resolve(answer));
      else if ('status' in answer) settle(() => reject(new HttpError(answer.status, answer.msg)));
      else {
        log(`XLSForm ${task.task} failed: ${answer.failed}`);
        settle(() => reject(task.task === 'import' ? new HttpError(415, ApiMsg.xlsformNotXlsx) : new Error(answer.failed)));
      }
    });
    worker.on('error', (err: Error & { code?: string }) => {
      log(`XLSForm ${task.task} thread stopped: ${err.code ?? err.message}`);
      settle(() => reject(tooComplex()));
    });
    worker.on('exit', () => settle(() => reject(tooComplex())));
  });
}
