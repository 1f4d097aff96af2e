import { createPartialResponse } from 'workbox-range-requests';
import { BASEMAP_CACHE } from './sw-names';

export { BASEMAP_CACHE } from './sw-names';
const BASEMAP_PATH = /^\/api\/v1\/basemap\/[^/]+$/;

/** A same-origin GET of an organization's basemap archive (a capability address: no token needed). */
export function isBasemap(request: Request, origin: string): boolean {
  if (request.method !== 'GET') return false;
  const url = new URL(request.url);
  return url.origin === origin && BASEMAP_PATH.test(url.pathname);
}

/**
 * The archive's bytes: from the kept copy when the field user keeps this area on the phone (a
 * Range request answered 206 with the slice, as the server does, so the PMTiles reader cannot tell
 * the difference, also offline), else from the network. An archive is immutable under its id.
 */
export async function answerBasemap(request: Request, deps: { caches: CacheStorage; fetch?: typeof fetch }): Promise<Response> {
  const cache = await deps.caches.open(BASEMAP_CACHE).catch(() => undefined);
  const kept = await cache?.match(new URL(request.url).pathname);
  if (!kept) return (deps.fetch ?? fetch)(request);
  return request.headers.has('range') ? createPartialResponse(request, kept) : kept;
}
