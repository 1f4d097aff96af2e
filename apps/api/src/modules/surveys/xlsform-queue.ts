import { ApiMsg } from '@survey-bird/contracts';
import { HttpError } from '../../http/errors.js';

/** At most `concurrency` tasks run at once, `queue` more wait in order; past that a 503 with Retry-After. */
export class ImportQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limits: { concurrency: number; queue: number }) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      if (this.waiting.length >= this.limits.queue) throw new HttpError(503, ApiMsg.serviceUnavailable, { 'retry-after': '10' });
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next in line; `running` only drops when nobody waits.
      if (next) next();
      else this.running--;
    }
  }
}
