import { useLiveQuery, useObservable } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import { appSync, syncStarted, accountsNeedingSignIn, lastSyncAt, liveCounts, oldestUnsentAt, returnedToFix, storageEstimate, type Live, type StorageEstimate, type SyncStatus } from '../../offline';
import { useIdle, whenIdle } from '../../lib/idle';
import { useSession } from '../accounts/session';
import { accountKey, type AccountKey } from '../../session/account-key';
import { t } from '../../lib/i18n';

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

/** Unsent work older than this gets a warning: a day's work is what a cleared browser would lose. */
export const UNSENT_WARN_MS = 24 * 60 * 60 * 1000;

/**
 * How long the oldest unsent response has waited (ms), or null when nothing waits. Read when the
 * count of unsent responses changes (once idle) and every ten minutes, not per write: a day is
 * not a figure that needs the second.
 */
export function useUnsentAge(account: AccountKey, unsent: number): number | null {
  const [oldest, setOldest] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (unsent === 0) return setOldest(null);
    let alive = true;
    const cancel = whenIdle(() => void oldestUnsentAt(account).then((at) => alive && setOldest(at), () => undefined));
    return () => {
      alive = false;
      cancel();
    };
  }, [account, unsent]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 10 * 60 * 1000);
    return () => clearInterval(timer);
  }, []);
  return oldest === null ? null : Math.max(0, now - oldest);
}

export const unsentAgeText = (ms: number) => {
  const days = Math.floor(ms / UNSENT_WARN_MS);
  return days <= 1 ? t('sync.overADay') : t('sync.days', { count: days });
};

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
