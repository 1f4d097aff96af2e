import { type AccountKey, db, metaKey } from './db';

/**
 * One sync run per account at a time, across tabs and the service worker. The Web Lock
 * ('survey-bird-sync:' + account) is taken when the browser has it; an IndexedDB lease (meta
 * 'lease:' + account, renewed before every request) is taken as well, which covers browsers or
 * contexts without Web Locks and a worker and a tab that disagree about having them.
 */

/** Longer than any single request (uploads time out after UPLOAD_TIMEOUT_MS), so a live run always renews in time. */
export const LEASE_MS = 6 * 60_000;

interface Lease {
  holder: string;
  expiresAt: number;
  /** Held together with the Web Lock: whoever holds that lock now knows this holder is gone. */
  locked: boolean;
}

export interface SyncLock {
  run: string;
  holdingWebLock: boolean;
  /** Extends the lease; false when another run has taken it (this run must stop). */
  renew(now?: number): Promise<boolean>;
}

interface LockManagerLike {
  request<T>(name: string, options: { ifAvailable: boolean }, callback: (lock: unknown) => Promise<T>): Promise<T>;
}

function webLocks(): LockManagerLike | undefined {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike | null } }).navigator;
  return nav?.locks ?? undefined;
}

async function takeLease(account: AccountKey, run: string, holdingWebLock: boolean, now: number): Promise<boolean> {
  return db.transaction('rw', db.meta, async () => {
    const current = (await db.meta.get(metaKey.lease(account)))?.value as Lease | undefined;
    const free = !current || current.holder === run || current.expiresAt <= now || (holdingWebLock && current.locked);
    if (!free) return false;
    await db.meta.put({ key: metaKey.lease(account), value: { holder: run, expiresAt: now + LEASE_MS, locked: holdingWebLock } satisfies Lease });
    return true;
  });
}

async function dropLease(account: AccountKey, run: string): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const current = (await db.meta.get(metaKey.lease(account)))?.value as Lease | undefined;
    if (current?.holder === run) await db.meta.delete(metaKey.lease(account));
  });
}

/** Runs `work` holding the account's lock, or returns undefined at once when another run holds it. */
export async function withSyncLock<T>(account: AccountKey, work: (lock: SyncLock) => Promise<T>, now: () => number = Date.now): Promise<T | undefined> {
  const run = crypto.randomUUID();
  const underLease = async (holdingWebLock: boolean): Promise<T | undefined> => {
    if (!(await takeLease(account, run, holdingWebLock, now()))) return undefined;
    try {
      return await work({ run, holdingWebLock, renew: (at = now()) => takeLease(account, run, holdingWebLock, at) });
    } finally {
      await dropLease(account, run);
    }
  };
  const locks = webLocks();
  if (!locks) return underLease(false);
  return locks.request(`survey-bird-sync:${account}`, { ifAvailable: true }, async (lock) => (lock ? underLease(true) : undefined));
}
