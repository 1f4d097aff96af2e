import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../../http/errors.js';
import { ApiMsg } from '@survey-bird/contracts';

export interface PasswordPoolLimits {
  /** Hashes running at once, each on its own thread. */
  threads: number;
  /** Hashes waiting for a thread; past this a sign-in is answered 503 at once. */
  queue: number;
}

/** One thread per core but one (the request thread keeps a core), at most 4: each hash holds 128 MB. */
export function defaultPasswordPoolLimits(cores = availableParallelism()): PasswordPoolLimits {
  const threads = Math.min(4, Math.max(1, cores - 1));
  return { threads, queue: 8 * threads };
}

/**
 * Plain CommonJS, evaluated: the same code runs from the sources (tests) and from dist/. scryptSync
 * runs on this thread, never on libuv's pool, which file reads and writes share.
 */
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', (job) => {
  try {
    const key = scryptSync(job.password, Buffer.from(job.salt), job.keyLength, job.options);
    parentPort.postMessage({ id: job.id, key });
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String(err && err.message || err) });
  }
});`;

export interface ScryptJob {
  password: string;
  salt: Buffer;
  keyLength: number;
  options: { N: number; r: number; p: number; maxmem: number };
}

interface Pending {
  job: ScryptJob;
  resolve(key: Buffer): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  busy: Pending | undefined;
  idle?: NodeJS.Timeout;
}

/**
 * A thread with no hash to run for this long is stopped: its V8 isolate holds 10-20 MB of RSS,
 * which a server at rest should not (docs/benchmarks.md, target 10); a new one starts in ~30 ms.
 */
const IDLE_MS = 10_000;

/**
 * Password hashing in its own bounded pool of worker threads. 40 sign-ins at once used to queue 40
 * scrypts (about 1 s of CPU each) on libuv's 4 threads, and every file read and write of every other
 * request waited behind them. Here at most `threads` hashes run, `queue` more wait, and the next is
 * refused with 503 and a Retry-After computed from the work already waiting.
 */
export class PasswordPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private nextId = 0;
  /** Moving average of one hash's duration, for Retry-After. */
  private averageMs = 500;

  constructor(
    private limits: PasswordPoolLimits = defaultPasswordPoolLimits(),
    private readonly idleMs = IDLE_MS,
  ) {}

  configure(limits: PasswordPoolLimits): void {
    this.limits = { threads: Math.max(1, Math.floor(limits.threads)), queue: Math.max(0, Math.floor(limits.queue)) };
  }

  /** Hashes running and waiting now. */
  get load(): { running: number; waiting: number; threads: number } {
    return { running: this.slots.filter((s) => s.busy).length, waiting: this.waiting.length, threads: this.slots.length };
  }

  scrypt(job: ScryptJob): Promise<Buffer> {
    const free = this.freeSlot();
    if (!free && this.waiting.length >= this.limits.queue) {
      const seconds = Math.max(1, Math.ceil(((this.waiting.length + 1) * this.averageMs) / this.limits.threads / 1000));
      return Promise.reject(new HttpError(503, ApiMsg.serviceUnavailable, { 'retry-after': String(seconds) }));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const pending = { job, resolve, reject };
      if (free) this.run(free, pending);
      else this.waiting.push(pending);
    });
  }

  /** Stops the threads (they are unref'd, so a process exits without this). */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const slot of slots) clearTimeout(slot.idle);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) return idle;
    if (this.slots.length >= this.limits.threads) return undefined;
    const worker = new Worker(WORKER_CODE, { eval: true });
    worker.unref();
    const slot: Slot = { worker, busy: undefined };
    worker.on('message', (msg: { id: number; key?: Uint8Array; error?: string }) => this.finish(slot, msg));
    worker.on('error', (err) => this.fail(slot, err));
    worker.on('exit', () => this.fail(slot, new Error('password thread exited')));
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, pending: Pending): void {
    clearTimeout(slot.idle);
    slot.busy = pending;
    const started = performance.now();
    const { resolve } = pending;
    pending.resolve = (key) => {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
      resolve(key);
    };
    slot.worker.ref();
    slot.worker.postMessage({ id: this.nextId++, ...pending.job });
  }

  private finish(slot: Slot, msg: { key?: Uint8Array; error?: string }): void {
    const done = slot.busy;
    slot.busy = undefined;
    slot.worker.unref();
    if (done) {
      if (msg.key) done.resolve(Buffer.from(msg.key));
      else done.reject(new Error(msg.error ?? 'scrypt failed'));
    }
    this.next(slot);
  }

  private fail(slot: Slot, err: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    slot.busy?.reject(err);
    slot.busy = undefined;
    const waiting = this.waiting.shift();
    if (waiting) {
      const replacement = this.freeSlot();
      if (replacement) this.run(replacement, waiting);
      else this.waiting.unshift(waiting);
    }
  }

  private next(slot: Slot): void {
    const waiting = this.waiting.shift();
    if (waiting) this.run(slot, waiting);
    else slot.idle = setTimeout(() => this.retire(slot), this.idleMs).unref();
  }

  private retire(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || slot.busy) return;
    this.slots.splice(index, 1);
    void slot.worker.terminate();
  }
}

/** The process's one pool: the server, the demo seed and the admin CLI all hash through it. */
export const passwordPool = new PasswordPool();
