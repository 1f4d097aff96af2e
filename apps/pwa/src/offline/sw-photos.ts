import { mirroredAccounts } from './accounts';
import { PHOTO_CACHE } from './sw-names';

export { PHOTO_CACHE, SESSION_TOKEN } from './sw-names';
const PHOTO_PATH = '/api/v1/files/';

/**
 * Whether the worker should answer this request: a same-origin GET of a stored photo that carries
 * no credentials of its own (an `<img>` cannot send the Authorization header) and is not a signed
 * link (whose query is its key).
 */
export function isSessionPhoto(request: Request, origin: string): boolean {
  if (request.method !== 'GET' || request.headers.has('authorization')) return false;
  const url = new URL(request.url);
  return url.origin === origin && url.pathname.startsWith(PHOTO_PATH) && !url.searchParams.has('sig');
}

export interface PhotoDeps {
  /** The active account's token, as the page last said; undefined after the worker restarted. */
  activeToken: () => string | undefined;
  /** Every signed-in account's token on this browser (the mirror in IndexedDB). */
  tokens?: () => Promise<string[]>;
  fetch?: typeof fetch;
  caches?: CacheStorage;
}

const retryable = (status: number) => status === 401 || status === 404 || status === 410;

/**
 * The photo, fetched with the session: the active account's token first, then each other account
 * signed in on this browser (a phone's own photo belongs to one of them), so `<img>` needs no
 * token in its address. A photo is immutable under its id, so a copy fetched once is answered
 * from the cache, also offline.
 */
export async function fetchSessionPhoto(request: Request, deps: PhotoDeps): Promise<Response> {
  const doFetch = deps.fetch ?? fetch;
  const cache = deps.caches ? await deps.caches.open(PHOTO_CACHE).catch(() => undefined) : undefined;
  const cached = await cache?.match(request.url);
  if (cached) return cached;
  const active = deps.activeToken();
  const others = (await (deps.tokens ?? defaultTokens)().catch(() => [] as string[])).filter((t) => t !== active);
  const candidates = active ? [active, ...others] : others;
  let last: Response | undefined;
  for (const token of candidates) {
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${token}`);
    last = await doFetch(request.url, { method: 'GET', headers, credentials: 'omit' });
    if (!retryable(last.status)) break;
  }
  if (!last) return doFetch(request);
  if (last.ok && cache) await cache.put(request.url, last.clone()).catch(() => undefined);
  return last;
}

async function defaultTokens(): Promise<string[]> {
  return (await mirroredAccounts()).map((a) => a.token);
}
