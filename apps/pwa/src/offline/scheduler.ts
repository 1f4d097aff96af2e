import type { StoredAccount } from '../session/account-list';
import { mirrorAccounts } from './accounts';
import { accountKey, db } from './db';
import { coalescedLiveQuery } from './live';
import { counts, lastSyncAt, type OutboxCounts } from './outbox';
import { syncAccount } from './sync-engine';
import type { PhotoProgress } from './sync-run';
import { recordsWithPendingPhotos } from './photos/sync-photos';
import { holdingPhotos } from './sync-wifi';
import type { DeviceInfo } from './device-report';
import { SYNC_TAG } from './sw-sync';

/**
 * The page side of syncing: runs the engine for every signed-in account on start, when the
 * browser comes back online or the app becomes visible, on a timer while something is queued
 * (at the earliest record's nextAttemptAt), and on syncNow(). It mirrors the accounts for the
 * service worker and asks for Background Sync, so the worker can finish after the tab closes.
 */

export interface AccountSyncStatus extends OutboxCounts {
  lastSyncAt: number | null;
  /** The server refused this account's token: sign in again to send its responses. */
  authRequired: boolean;
}

export interface SyncStatus {
  /** A run is in progress in this tab. */
  running: boolean;
  online: boolean;
  /** Queued or sending, all accounts: the badge. */
  pending: number;
  failed: number;
  /** Latest lastSyncAt over the accounts. */
  lastSyncAt: number | null;
  /** Photos this tab's run is sending after their responses; null when none. */
  photos: PhotoProgress | null;
  /** By account key (lower-cased e-mail). */
  accounts: Record<string, AccountSyncStatus>;
}

export interface StartSyncOptions {
  /** The signed-in accounts (features/accounts getAccounts), read afresh before every run. */
  getAccounts: () => readonly StoredAccount[] | Promise<readonly StoredAccount[]>;
  baseUrl?: string;
  fetch?: typeof fetch;
  /** This phone's id and app version, reported at the end of each run. */
  device?: DeviceInfo;
  /** Least time between the end of a run and the timer's next one. */
  minIntervalMs?: number;
}

export interface SyncController {
  /** Runs now (or right after the run in progress); resolves when done. */
  syncNow(): Promise<void>;
  subscribe(listener: (status: SyncStatus) => void): () => void;
  getStatus(): SyncStatus;
  /** Stops listening and timing; resolves once a run in progress has finished. */
  stop(): Promise<void>;
}

interface Snapshot {
  accounts: Record<string, AccountSyncStatus>;
  /** Earliest nextAttemptAt of a queued record of an account that can sync; null when none. */
  nextDueAt: number | null;
}

async function snapshot(): Promise<Snapshot> {
  const rows = await db.accounts.toArray();
  const accounts: Record<string, AccountSyncStatus> = {};
  let nextDueAt: number | null = null;
  for (const row of rows) {
    const authRequired = row.rejectedToken !== undefined && row.rejectedToken === row.token;
    accounts[row.account] = { ...(await counts(row.account)), lastSyncAt: await lastSyncAt(row.account), authRequired };
    if (authRequired) continue;
    const first = await db.outbox.where('[account+status+nextAttemptAt]').between([row.account, 'queued', -Infinity], [row.account, 'queued', Infinity]).first();
    if (first && (nextDueAt === null || first.nextAttemptAt < nextDueAt)) nextDueAt = first.nextAttemptAt;
    // Photos of sent responses that a run could not finish: tried again shortly; one the server refused waits for Sync now.
    const photos = !(await holdingPhotos()) && (await recordsWithPendingPhotos(row.account)).some((r) => !r.photoError);
    if (photos && (nextDueAt === null || Date.now() + PHOTO_RETRY_MS < nextDueAt)) nextDueAt = Date.now() + PHOTO_RETRY_MS;
  }
  return { accounts, nextDueAt };
}

const BUSY_RETRY_MS = 15_000;
const PHOTO_RETRY_MS = 10_000;

const isOnline = () => globalThis.navigator?.onLine !== false;

async function registerBackgroundSync(): Promise<void> {
  try {
    const registration = await globalThis.navigator?.serviceWorker?.getRegistration();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- workbox's typing of `sync` is not in every program that compiles this file (scripts/)
    const sync = (registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync;
    await sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync (iOS, Firefox) or not allowed: the page's own timer keeps going.
  }
}

export function startSync(options: StartSyncOptions): SyncController {
  const minIntervalMs = options.minIntervalMs ?? 2_000;
  const listeners = new Set<(status: SyncStatus) => void>();
  let status: SyncStatus = { running: false, online: isOnline(), pending: 0, failed: 0, lastSyncAt: null, photos: null, accounts: {} };
  let nextDueAt: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let lastRunEnd = 0;
  /** Another tab or the worker held an account's lock in the last run: poll less often until it is done. */
  let sawBusy = false;

  const update = (patch: Partial<SyncStatus>) => {
    status = { ...status, ...patch };
    for (const listener of [...listeners]) listener(status);
  };

  const applySnapshot = (snap: Snapshot) => {
    const all = Object.values(snap.accounts);
    const pending = all.reduce((n, a) => n + a.queued + a.sending, 0);
    const times = all.map((a) => a.lastSyncAt).filter((t): t is number => t !== null);
    nextDueAt = snap.nextDueAt;
    if (pending > status.pending) void registerBackgroundSync();
    update({ accounts: snap.accounts, pending, failed: all.reduce((n, a) => n + a.failed, 0), lastSyncAt: times.length > 0 ? Math.max(...times) : null });
    if (!running) schedule();
  };

  function schedule(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (stopped || nextDueAt === null || !isOnline()) return;
    const at = Math.max(nextDueAt, lastRunEnd + (sawBusy ? Math.max(minIntervalMs, BUSY_RETRY_MS) : minIntervalMs));
    timer = setTimeout(() => void syncNow(), Math.min(Math.max(at - Date.now(), 0), 2 ** 31 - 1));
  }

  async function runOnce(): Promise<void> {
    const accounts = await options.getAccounts();
    await mirrorAccounts(accounts);
    sawBusy = false;
    if (!isOnline()) return;
    for (const { email: user, token } of accounts) {
      if (stopped) return;
      try {
        const summary = await syncAccount({ account: accountKey(user), token, baseUrl: options.baseUrl, fetch: options.fetch, device: options.device, resumable: () => import('./photos/sync-tus'), onPhotoProgress: (photos) => update({ photos }) });
        if (summary.busy) sawBusy = true;
      } catch (err) {
        // A bug or a broken database must not stop the other accounts; the timer tries again.
        console.error('survey-bird sync failed', err);
      }
    }
  }

  function syncNow(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    update({ running: true, online: isOnline() });
    running = (async () => {
      try {
        do {
          again = false;
          await runOnce();
        } while (again && !stopped);
      } finally {
        lastRunEnd = Date.now();
        running = undefined;
        const snap = await snapshot().catch(() => undefined);
        update({ running: false });
        if (snap) applySnapshot(snap);
        else schedule();
        if (status.pending > 0) void registerBackgroundSync();
      }
    })();
    return running;
  }

  const onOnline = () => {
    update({ online: true });
    void syncNow();
  };
  const onOffline = () => update({ online: false });
  const onVisible = () => {
    if (globalThis.document?.visibilityState === 'visible') void syncNow();
  };
  globalThis.addEventListener?.('online', onOnline);
  globalThis.addEventListener?.('offline', onOffline);
  globalThis.document?.addEventListener('visibilitychange', onVisible);
  // Onto Wi-Fi: photos held by "Send photos on Wi-Fi only" can go now.
  const connection = (globalThis.navigator as { connection?: EventTarget } | undefined)?.connection;
  const onConnection = () => void syncNow();
  connection?.addEventListener?.('change', onConnection);

  // Other tabs, the worker and this tab's own enqueueResponse all show up here, a burst of saves
  // as one snapshot (and at most one Background Sync registration).
  const subscription = coalescedLiveQuery(snapshot, ['outbox', 'accounts', 'meta']).subscribe(applySnapshot, (err) => console.error('survey-bird sync status', err));

  void syncNow();

  return {
    syncNow,
    subscribe(listener) {
      listeners.add(listener);
      listener(status);
      return () => listeners.delete(listener);
    },
    getStatus: () => status,
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      subscription.unsubscribe();
      globalThis.removeEventListener?.('online', onOnline);
      globalThis.removeEventListener?.('offline', onOffline);
      globalThis.document?.removeEventListener('visibilitychange', onVisible);
      connection?.removeEventListener?.('change', onConnection);
      return running ?? Promise.resolve();
    },
  };
}
