import { Msg } from '@survey-bird/contracts';
import { HttpError } from '../../http/errors.js';

export interface ExportLimits {
  /** Exports running at once in this process (EXPORT_CONCURRENCY); each holds two threads and up to about 160 MB. */
  concurrency: number;
  /** Exports waiting for a turn (EXPORT_QUEUE); past this, 503 with Retry-After. */
  queue: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = { concurrency: 1, queue: 20 };

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

  constructor(private readonly limits: ExportLimits = DEFAULT_EXPORT_LIMITS) {}

  /** Exports running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Where this user's export is: running, waiting with `position` (1 = next), or none. */
  placeOf(userId: string): { state: 'none' | 'running' | 'waiting'; position: number | null; waiting: number } {
    const waiting = this.waiting.length;
    if (!this.users.has(userId)) return { state: 'none', position: null, waiting };
    const index = this.waiting.findIndex((w) => w.userId === userId);
    return index < 0 ? { state: 'running', position: null, waiting } : { state: 'waiting', position: index + 1, waiting };
  }

  /**
   * Resolves with `release` (call it when the export's stream closes) once the export may start.
   * `gone` fires when the client hangs up while waiting: its place is given up.
   */
  acquire(userId: string, gone: (listener: () => void) => void): Promise<() => void> {
    if (this.users.has(userId)) return Promise.reject(new HttpError(429, Msg.exportInProgress));
    if (this.running >= this.limits.concurrency && this.waiting.length >= this.limits.queue) {
      return Promise.reject(new HttpError(503, Msg.serviceUnavailable, { 'retry-after': '30' }));
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
