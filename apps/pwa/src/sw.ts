/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell and answers page navigations with index.html so
 * the app opens offline. API calls (/api/...) are never answered from here; they go to the network.
 * Background Sync delivers the outbox (offline/sw-sync.ts).
 * An update waits until the page asks for it (offline/service-worker.ts shows the prompt).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { handleBackgroundSync, SYNC_TAG } from './offline/sw-sync';

declare const self: ServiceWorkerGlobalScope;

export const SKIP_WAITING = 'SKIP_WAITING';
const API_PATH = /^\/api\//;

precacheAndRoute(self.__WB_MANIFEST.filter((entry) => !API_PATH.test(typeof entry === 'string' ? entry : entry.url)));
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [API_PATH] }));

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === SKIP_WAITING) void self.skipWaiting();
});

// Queued responses are sent from here too, after the tab is closed (Chrome and Android only).
self.addEventListener('sync', (event) => {
  const sync = event as ExtendableEvent & { tag: string };
  if (sync.tag === SYNC_TAG) sync.waitUntil(handleBackgroundSync());
});

// The first install takes the open page at once so it works offline after a single visit.
clientsClaim();
