import { Msg } from '@survey-bird/contracts';
import { HttpError } from './errors.js';

/**
 * Fixed-window counters kept in memory: enough for one API process. Keys are per IP and per
 * e-mail, so a spread attack on one account and one IP hammering many accounts are both caught.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  hit(...keys: string[]): void {
    const now = Date.now();
    if (this.windows.size > 50_000) this.sweep(now);
    let limited = false;
    for (const key of keys) {
      const w = this.windows.get(key);
      if (!w || now - w.start >= this.windowMs) {
        this.windows.set(key, { start: now, count: 1 });
        continue;
      }
      w.count += 1;
      if (w.count > this.max) limited = true;
    }
    if (limited) throw new HttpError(429, Msg.tooManyRequests);
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}
