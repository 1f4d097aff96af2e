/**
 * Leases every API process sees (the database by default, Redis when REDIS_URL is set): a key held
 * by one holder until it is released or its time runs out, so a holder that dies frees it by
 * itself. The export queue uses them to keep its limits across instances.
 */
export interface LeaseStore {
  /** Takes the key for `ttlMs` if it is free or its lease has run out; whether it was taken. */
  acquire(key: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Extends a lease this holder still has; false when it was lost (expired and taken). */
  renew(key: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the key up if this holder has it. */
  release(key: string, holder: string): Promise<void>;
  close(): Promise<void>;
}
