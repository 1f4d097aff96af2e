import type { Workbox } from 'workbox-window';
import { whenIdle } from '../lib/idle';
import { createStore } from '../lib/store';
import { activeAccount, getAccounts, subscribeAccounts } from '../session/account-storage';
import { PHOTO_CACHE, SESSION_TOKEN } from './sw-names';

/** true once a new version of the app is installed and waiting for the user's go-ahead. */
export const updateReady = createStore(false);
let wb: Workbox | undefined;

/**
 * Registers /sw.js (production builds only) once the page has loaded and gone idle, so the worker's
 * precache downloads and workbox-window itself never compete with the first screen on a slow phone.
 * A new version is announced, never applied silently.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const start = () =>
    void import('workbox-window').then(({ Workbox }) => {
      wb = new Workbox('/sw.js', { scope: '/' });
      wb.addEventListener('waiting', () => updateReady.set(true));
      void wb.register();
    });
  // Idle twice: the first screen's own idle work (its outbox counts) goes first.
  whenIdle(() => whenIdle(start));
  postSessionToken();
  navigator.serviceWorker.addEventListener('controllerchange', postSessionToken);
  let count = getAccounts().length;
  subscribeAccounts(() => {
    const now = getAccounts().length;
    // A removed account's photos leave this browser's cache with it.
    if (now < count && 'caches' in window) void caches.delete(PHOTO_CACHE);
    count = now;
    postSessionToken();
  });
}

/** The worker fetches photos with the active account's token (sw.ts): it has no localStorage to read it from. */
function postSessionToken(): void {
  navigator.serviceWorker.controller?.postMessage({ type: SESSION_TOKEN, token: activeAccount()?.token ?? null });
}

export function applyUpdate(): void {
  if (!wb) return;
  // Reload only once the new worker controls the page, so the new shell is what loads.
  wb.addEventListener('controlling', () => window.location.reload());
  wb.messageSkipWaiting();
}
