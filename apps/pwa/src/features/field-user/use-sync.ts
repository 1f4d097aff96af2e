import { useLiveQuery, useObservable } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import { appSync, syncStarted } from '../../app-sync';
import { accountsNeedingSignIn, lastSyncAt, liveCounts, returnedToFix, storageEstimate, type Live, type StorageEstimate, type SyncStatus } from '../../offline';
import { useIdle, whenIdle } from '../../ui/idle';
import { useSession } from '../accounts/session';
import { accountKey, type AccountKey } from '../../offline/account-key';

/** The signed-in field user's account key (the lower-cased e-mail), or null while unknown. */
export function useAccount(): { key: AccountKey; email: string } | null {
  const { user } = useSession();
  return user ? { key: accountKey(user.email), email: user.email } : null;
}

/** An observable that has not emitted yet (useObservable then keeps its default). */
const NOT_YET: Live<never> = { subscribe: () => ({ unsubscribe: () => undefined }), hasValue: () => false };

/** The truth about this account's outbox, live from IndexedDB. */
export function useOutboxState(account: AccountKey) {
  // Coalesced: a burst of saves re-reads the counts (and the storage estimate) once, not per save.
  // Read once the page is idle: the questions render first.
  const idle = useIdle();
  const c = useObservable(() => (idle ? liveCounts(account) : NOT_YET), [account, idle]);
  const last = useLiveQuery(() => (idle ? lastSyncAt(account) : undefined), [account, idle]);
  const signIn = useLiveQuery(() => (idle ? accountsNeedingSignIn() : undefined), [idle]);
  const returned = useLiveQuery(() => (idle ? returnedToFix(account) : undefined), [account, idle]);
  return {
    loaded: c !== undefined,
    waiting: c ? c.queued + c.sending : 0,
    failed: c?.failed ?? 0,
    synced: c?.synced ?? 0,
    lastSyncAt: last ?? null,
    authRequired: signIn?.includes(account) ?? false,
    /** Responses the office returned for fixing, with no fix on its way. */
    returned: returned?.length ?? 0,
  };
}

/** The app's sync controller status (running, online) and a Sync now that resolves when done. */
export function useSyncController() {
  const [status, setStatus] = useState<SyncStatus | null>(null);
  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let alive = true;
    void syncStarted().then((sync) => {
      if (alive) unsubscribe = sync.subscribe(setStatus);
    });
    return () => {
      alive = false;
      unsubscribe?.();
    };
  }, []);
  const syncNow = useCallback(() => appSync().then((sync) => sync.syncNow()), []);
  return { running: status?.running ?? false, photos: status?.photos, syncNow };
}

/** Storage used and quota, read again whenever `version` changes (after a response is queued or sent). */
export function useStorageEstimate(version: unknown): StorageEstimate | null | undefined {
  const [estimate, setEstimate] = useState<StorageEstimate | null | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    // Not needed for the first paint: read once the page is idle.
    const cancel = whenIdle(() => void storageEstimate().then((e) => alive && setEstimate(e ?? null)));
    return () => {
      alive = false;
      cancel();
    };
  }, [version]);
  return estimate;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
