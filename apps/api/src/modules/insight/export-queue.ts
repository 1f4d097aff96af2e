import { randomUUID } from 'node:crypto';
import { ApiMsg } from '@survey-bird/contracts';
import type { LeaseStore } from '../../counters/index.js';
import { HttpError } from '../../http/errors.js';

export interface ExportLimits {
  /** Exports running at once in this process (EXPORT_CONCURRENCY); each holds two threads and up to about 160 MB. */
  concurrency: number;
  /** Exports waiting for a turn (EXPORT_QUEUE); past this, 503 with Retry-After. */
  queue: number;
  /** Exports running at once across every instance sharing the database or Redis (EXPORT_CLUSTER_CONCURRENCY). */
  clusterConcurrency?: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = { concurrency: 1, queue: 20 };

/** A crashed instance's leases free themselves after this; a running export renews every third of it. */
const LEASE_TTL_MS = 30_000;
/** How often the head of this instance's line asks again for a slot another instance holds. */
const SLOT_POLL_MS = 500;

interface Waiter {
  userId: string;
  start(): void;
}

/**
 * 50 exports started at once by one supervisor took the process from 126 MB to 2.4 GB and 112
 * threads. Here at most `concurrency` run; the others wait in order, each request held open until
 * its turn; one user has one export at a time (a second is refused with 429 while the first runs or
 * waits); and a full queue is refused with 503 at once.
 */
export class ExportQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly users = new Set<string>();
  /** Users whose turn came here but who wait for a slot held by another instance. */
  private readonly awaitingSlot = new Set<string>();

  /** With `leases`, one export per user and `clusterConcurrency` hold across instances too. */
  constructor(private readonly limits: ExportLimits = DEFAULT_EXPORT_LIMITS, private readonly leases?: LeaseStore) {}

  /** Exports running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Where this user's export is: running, waiting with `position` (1 = next), or none. */
  placeOf(userId: string): { state: 'none' | 'running' | 'waiting'; position: number | null; waiting: number } {
    const waiting = this.waiting.length;
    if (!this.users.has(userId)) return { state: 'none', position: null, waiting };
    if (this.awaitingSlot.has(userId)) return { state: 'waiting', position: 1, waiting };
    const index = this.waiting.findIndex((w) => w.userId === userId);
    return index < 0 ? { state: 'running', position: null, waiting } : { state: 'waiting', position: index + 1, waiting };
  }

  /**
   * Like `local`, and across instances: the user's lease (a second export through another
   * instance is 429 too), then one of `clusterConcurrency` slot leases once this instance's turn
   * comes. The leases are renewed while the export streams and expire if this process dies.
   */
  async acquire(userId: string, gone: (listener: () => void) => void): Promise<() => void> {
    const leases = this.leases;
    if (!leases) return this.local(userId, gone);
    const holder = randomUUID();
    const userKey = `export-user:${userId}`;
    if (this.users.has(userId)) throw new HttpError(429, ApiMsg.exportInProgress);
    let left = false;
    gone(() => (left = true));
    if (!(await leases.acquire(userKey, holder, LEASE_TTL_MS))) throw new HttpError(429, ApiMsg.exportInProgress);
    const held = [userKey];
    const releaseLeases = () => {
      for (const key of held.splice(0)) leases.release(key, holder).catch(() => undefined);
    };
    let releaseLocal: () => void;
    try {
      releaseLocal = await this.local(userId, gone);
    } catch (err) {
      releaseLeases();
      throw err;
    }
    try {
      this.awaitingSlot.add(userId);
      const slot = await this.clusterSlot(holder, () => left);
      held.push(slot);
    } catch (err) {
      releaseLocal();
      releaseLeases();
      throw err;
    } finally {
      this.awaitingSlot.delete(userId);
    }
    const renewal = setInterval(() => {
      for (const key of held) leases.renew(key, holder, LEASE_TTL_MS).catch(() => undefined);
    }, LEASE_TTL_MS / 3);
    renewal.unref();
    return () => {
      clearInterval(renewal);
      releaseLeases();
      releaseLocal();
    };
  }

  private async clusterSlot(holder: string, left: () => boolean): Promise<string> {
    const slots = Math.max(1, this.limits.clusterConcurrency ?? this.limits.concurrency);
    for (;;) {
      for (let i = 0; i < slots; i++) {
        const key = `export-slot:${i}`;
        if (await this.leases!.acquire(key, holder, LEASE_TTL_MS)) return key;
      }
      if (left()) throw new HttpError(400, 'The request was cut off');
      await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
    }
  }

  /**
   * This process's line. Resolves with `release` (call it when the export's stream closes) once the export may start.
   * `gone` fires when the client hangs up while waiting: its place is given up.
   */
  local(userId: string, gone: (listener: () => void) => void): Promise<() => void> {
    if (this.users.has(userId)) return Promise.reject(new HttpError(429, ApiMsg.exportInProgress));
    if (this.running >= this.limits.concurrency && this.waiting.length >= this.limits.queue) {
      return Promise.reject(new HttpError(503, ApiMsg.serviceUnavailable, { 'retry-after': '30' }));
    }
    this.users.add(userId);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.users.delete(userId);
      this.running--;
      this.next();
    };
    if (this.running < this.limits.concurrency) {
      this.running++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        userId,
        start: () => {
          this.running++;
          resolve(release);
        },
      };
      this.waiting.push(waiter);
      gone(() => {
        const index = this.waiting.indexOf(waiter);
        if (index < 0) return;
        this.waiting.splice(index, 1);
        this.users.delete(userId);
        reject(new HttpError(400, 'The request was cut off'));
      });
    });
  }

  private next(): void {
    if (this.running >= this.limits.concurrency) return;
    this.waiting.shift()?.start();
  }
}
