import { getAccounts, subscribeAccounts } from '../session/account-storage';
import { deviceId } from '../session/device-id';
import type { SyncController } from './index';

let started: Promise<SyncController> | undefined;
let announce: (sync: Promise<SyncController>) => void = () => undefined;
const startedLater = new Promise<SyncController>((resolve) => {
  announce = resolve;
});

/**
 * Starts the outbox sync once for the whole app (docs/offline.md, "Wiring") and gives screens its
 * controller. The offline module (Dexie and the sync engine) loads after the first paint, so the
 * landing and login screens do not wait for it; main.tsx starts it once the page is idle, and
 * anything that needs it sooner (a submit, Sync now) starts it by calling appSync().
 */
export function appSync(): Promise<SyncController> {
  started ??= import('./sync').then(({ startSync, requestPersistence, sealClearRows }) => {
    const sync = startSync({ getAccounts, device: { id: deviceId(), appVersion: typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev' } });
    let askedPersistence = false;
    // Queued responses live only on this phone: once someone signs in, ask the browser to keep them.
    const afterSignIn = () => {
      if (askedPersistence || getAccounts().length === 0) return;
      askedPersistence = true;
      void requestPersistence();
    };
    subscribeAccounts(() => {
      afterSignIn();
      void sync.syncNow(); // sign-in, sign-out, new token
    });
    afterSignIn();
    // Rows an earlier version kept in clear are sealed once, in the background (sealing.ts).
    void sealClearRows().catch(() => undefined);
    return sync;
  });
  announce(started);
  return started;
}

/** The controller once something has started the sync, without starting it (status displays). */
export function syncStarted(): Promise<SyncController> {
  return started ?? startedLater;
}
