/**
 * Counters in fixed windows that every API process sees: the database by default, Redis when
 * REDIS_URL is set. A deployment of several processes on one PostgreSQL (or one Redis) shares
 * them, so a limit holds however requests are spread over the processes. Keys are opaque strings;
 * callers namespace them ('login-fail:ip:...').
 */
export interface CounterStore {
  /** Adds one to each key in its current window of `windowMs` (a window starts at a key's first hit); the counts after. */
  hit(keys: readonly string[], windowMs: number): Promise<number[]>;
  /** The counts of the keys' current windows, 0 for a key without one. */
  peek(keys: readonly string[], windowMs: number): Promise<number[]>;
  /** Forgets the keys (their next hit starts a new window). */
  reset(keys: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
