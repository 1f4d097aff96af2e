import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/**
 * SQLite's automatic checkpoint runs inside the commit that crosses its threshold, on the thread
 * that commits, and copies pages and syncs there: under ingest it took more than half of every
 * write (a batch of 50 responses: 4.4 ms with it, 1.9 ms without, scripts/bench/ingest.ts notes).
 * Here a thread of its own, with its own connection, runs PASSIVE checkpoints (they wait for no
 * writer or reader) every INTERVAL_MS. The request thread keeps a far threshold as a safety net,
 * should that thread ever stall.
 */
const INTERVAL_MS = 100;
/** 64 MB of WAL: never reached while the checkpoint thread keeps up. */
export const SAFETY_NET_PAGES = 16_384;

/** A WAL file that grew past this (a long read held checkpoints back) is cut back to it on reuse. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

// Plain JavaScript, evaluated: the thread starts in milliseconds with no TypeScript loader, from
// source (tests, tsx) and from dist alike.
//
// A PASSIVE checkpoint never gives the WAL file's space back. On a full disk the checkpoint fails
// (the database file cannot grow), so the WAL keeps every frame written meanwhile; once space is
// freed, copying that backlog into the database can take all of it while the WAL file keeps its
// size, and writes fail again. So after a failed checkpoint the thread runs TRUNCATE checkpoints
// (they wait for the writer and readers, then empty the WAL file) until one completes.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 1000 });
let truncate = false;
const timer = setInterval(() => {
  try {
    const [r] = db.pragma(truncate ? 'wal_checkpoint(TRUNCATE)' : 'wal_checkpoint(PASSIVE)');
    if (truncate && r.busy === 0) {
      truncate = false;
      parentPort.postMessage({ truncated: true });
    }
  } catch (err) {
    truncate = true;
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

export interface CheckpointEvents {
  onError(message: string): void;
  /** A TRUNCATE checkpoint completed after failures: the WAL file is empty again. */
  onRecovered?(): void;
}

export function startWalCheckpointer(sqlite: SQLite.Database, events: CheckpointEvents): WalCheckpointer | undefined {
  if (sqlite.memory || sqlite.name === '') return undefined;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, { eval: true, workerData: { driver, file: sqlite.name, intervalMs: INTERVAL_MS } });
  worker.unref();
  // A full disk fails every try: say so once a minute, not ten times a second.
  let quietUntil = 0;
  worker.on('message', (message: { error?: string; truncated?: boolean }) => {
    if (message.truncated) {
      quietUntil = 0;
      events.onRecovered?.();
      return;
    }
    if (Date.now() < quietUntil) return;
    quietUntil = Date.now() + 60_000;
    events.onError(message.error ?? 'unknown error');
  });
  // Whatever stops the thread, the request thread's own checkpoints take over again.
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
      resolve();
    }),
  );
  worker.on('error', (err) => events.onError(err.message));
  sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  return {
    // A thread that has already ended (it failed to open the file, say) must not hold up the close.
    stop: () => {
      // Referenced again: with nothing else pending (a CLI, a server draining) the process would
      // otherwise exit (code 13) before the thread does and before the database is closed.
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
