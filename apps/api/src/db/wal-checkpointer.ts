import { statSync } from 'node:fs';
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
/**
 * A thread whose WAL has not changed for this long is stopped: its V8 isolate holds 6-8 MB of RSS,
 * which a server at rest should not (docs/benchmarks.md, target 10). The WAL file is looked at every
 * WATCH_MS, and the first write after a rest starts a thread again (~30 ms); in between, the
 * safety net below bounds the WAL.
 */
const IDLE_MS = 10_000;
const WATCH_MS = 1_000;
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
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  /** Whether a checkpoint thread is running now (none while the WAL is at rest). */
  running(): boolean;
  stop(): Promise<void>;
}

export interface CheckpointEvents {
  onError(message: string): void;
  /** A TRUNCATE checkpoint completed after failures: the WAL file is empty again. */
  onRecovered?(): void;
}

export interface CheckpointTiming {
  intervalMs?: number;
  idleMs?: number;
  watchMs?: number;
}

/** What changes whenever a commit appends to the WAL (a checkpoint leaves it as it is). */
function walStamp(file: string): string {
  const s = statSync(file, { throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeMs}` : '';
}

export function startWalCheckpointer(sqlite: SQLite.Database, events: CheckpointEvents, timing: CheckpointTiming = {}): WalCheckpointer | undefined {
  if (sqlite.memory || sqlite.name === '') return undefined;
  const { intervalMs = INTERVAL_MS, idleMs = IDLE_MS, watchMs = WATCH_MS } = timing;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const wal = `${sqlite.name}-wal`;
  // A full disk fails every try: say so once a minute, not ten times a second.
  let quietUntil = 0;
  let thread: Worker | null = null;
  /** Threads asked to stop and not yet ended: a close waits for them. */
  const ending = new Set<Promise<void>>();
  let handedBack = false;

  // Whatever stops the thread other than a rest or the close (it failed to open the file, say), the
  // request thread's own checkpoints take over again and no thread is started any more.
  const handBack = () => {
    handedBack = true;
    clearInterval(watch);
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };

  const start = () => {
    const worker = new Worker(THREAD, { eval: true, workerData: { driver, file: sqlite.name, intervalMs } });
    worker.unref();
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
    worker.on('error', (err) => events.onError(err.message));
    worker.once('exit', () => {
      if (thread === worker) {
        thread = null;
        handBack();
      }
    });
    thread = worker;
  };

  /** Asks the running thread to end (after one last checkpoint); resolves when it has. */
  const end = (): Promise<void> => {
    const worker = thread;
    if (!worker) return Promise.resolve();
    thread = null;
    // Referenced again: with nothing else pending (a CLI, a server draining) the process would
    // otherwise exit (code 13) before the thread does and before the database is closed.
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    ending.add(exited);
    void exited.then(() => ending.delete(exited));
    worker.postMessage('stop');
    return exited;
  };

  let stamp = walStamp(wal);
  let stillSince = Date.now();
  const watch = setInterval(() => {
    const now = walStamp(wal);
    if (now !== stamp) {
      stamp = now;
      stillSince = Date.now();
      if (!thread && !handedBack) start();
    } else if (thread && Date.now() - stillSince >= idleMs) {
      void end();
    }
  }, watchMs).unref();

  sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  start();
  return {
    running: () => thread !== null,
    // A thread that has already ended (it failed to open the file, say) must not hold up the close.
    stop: async () => {
      clearInterval(watch);
      await end();
      await Promise.all([...ending]);
      if (!handedBack) handBack();
    },
  };
}
