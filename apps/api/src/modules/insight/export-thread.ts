import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExportJob } from './export-job.js';

/**
 * A small young generation: exceljs and the reader's JSON.parse make a lot of short-lived garbage
 * per row, and V8's default lets it pile up to tens of MB between scavenges. 4 MB rather than 8
 * took 10-15 MB off the export's peak RSS at the same speed (16 MB added as much).
 */
const LIMITS = { maxYoungGenerationSizeMb: 4 };

/** Starts one of the export's threads: `export-worker` writes the workbook, `export-reader-worker` reads the rows. */
export function spawnExportThread(name: 'export-worker' | 'export-reader-worker', job: ExportJob): Worker {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, self), { workerData: job, resourceLimits: LIMITS });
  // Running from source (tests, `tsx watch`): the thread compiles its TypeScript through tsx too,
  // and reads the contracts from their sources (the `source` export condition), as the tests do.
  const tsx = pathToFileURL(createRequire(self).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL(`./${name}.ts`, self).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`, { eval: true, workerData: job, resourceLimits: LIMITS, execArgv: [...process.execArgv, '--conditions=source'] });
}

/**
 * Niceness of the export's threads: with two of them busy, a 2-core machine left the request thread
 * (ingest) about half its CPU at the same priority (53% of its solo rate in the export benchmark).
 * At 5 it kept 63-90% until ingest itself got faster (temp_store = MEMORY): then 50%. At 10 it keeps
 * 68%, and an export alone is as fast as before (it competes with requests only when there are some).
 */
const NICENESS = 10;

/**
 * Called by each export thread on itself. On Linux a thread's priority is its own (setpriority on
 * "this process" means the calling thread); elsewhere it would be the whole server's, so it is
 * left alone there. Threads inherit it from their creator: libuv's pool (zlib, fs, scrypt) is
 * already running by then, started by the server's own ESM loading, so it keeps the normal one.
 */
export function yieldCpuToRequests(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(NICENESS);
  } catch {
    // Not allowed here (a sandbox): the export just runs at the normal priority.
  }
}
