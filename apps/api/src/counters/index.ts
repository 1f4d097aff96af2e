import type { Db } from '../db/database.js';
import type { CounterStore } from './counter-store.js';
import { DbCounterStore } from './db-counter-store.js';
import { DbLeaseStore } from './db-lease-store.js';
import type { LeaseStore } from './lease-store.js';
import { RedisLeaseStore } from './redis-lease-store.js';
import { RedisCounterStore } from './redis-counter-store.js';

export type { CounterStore } from './counter-store.js';
export type { LeaseStore } from './lease-store.js';

/** Redis when a URL is given, else the database every process already shares. */
export function openCounterStore(db: Db, redisUrl: string | undefined, redisPrefix?: string): CounterStore {
  return redisUrl ? new RedisCounterStore(redisUrl, redisPrefix) : new DbCounterStore(db.kysely);
}

/** Leases beside the counters: Redis when a URL is given, else the database. */
export function openLeaseStore(db: Db, redisUrl: string | undefined, redisPrefix: string): LeaseStore {
  return redisUrl ? new RedisLeaseStore(redisUrl, redisPrefix) : new DbLeaseStore(db.kysely);
}
