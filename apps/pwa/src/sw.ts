/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell and answers page navigations with index.html so
 * the app opens offline. API calls (/api/...) go to the network, but for two kinds of bytes kept
 * on the phone: photos (fetched with the session) and basemap archives the field user chose to keep.
 * Background Sync delivers the outbox (offline/sw-sync.ts).
 * An update waits until the page asks for it (offline/service-worker.ts shows the prompt).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { handleBackgroundSync, SYNC_TAG } from './offline/sw-sync';
import { fetchSessionPhoto, isSessionPhoto, PHOTO_CACHE, SESSION_TOKEN } from './offline/sw-photos';
import { answerBasemap, isBasemap } from './offline/sw-basemap';

declare const self: ServiceWorkerGlobalScope;

export const SKIP_WAITING = 'SKIP_WAITING';
const API_PATH = /^\/api\//;

precacheAndRoute(self.__WB_MANIFEST.filter((entry) => !API_PATH.test(typeof entry === 'string' ? entry : entry.url)));
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [API_PATH] }));

let activeToken: string | undefined;

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; token?: string | null } | null;
  if (data?.type === SKIP_WAITING) void self.skipWaiting();
  if (data?.type === SESSION_TOKEN) activeToken = data.token ?? undefined;
  if (data?.type === SESSION_TOKEN && !data.token) event.waitUntil(caches.delete(PHOTO_CACHE));
});

// Photos need the session (the server answers a bare photo address without one with 410): the
// worker adds the Authorization header an <img> cannot send.
self.addEventListener('fetch', (event) => {
  if (isSessionPhoto(event.request, self.location.origin)) event.respondWith(fetchSessionPhoto(event.request, { activeToken: () => activeToken, caches }));
  else if (isBasemap(event.request, self.location.origin)) event.respondWith(answerBasemap(event.request, { caches }));
});

// Queued responses are sent from here too, after the tab is closed (Chrome and Android only).
self.addEventListener('sync', (event) => {
  const sync = event as ExtendableEvent & { tag: string };
  if (sync.tag === SYNC_TAG) sync.waitUntil(handleBackgroundSync());
});

// The first install takes the open page at once so it works offline after a single visit.
clientsClaim();
