import { describe, expect, it } from 'vitest';
import { fetchSessionPhoto, isSessionPhoto } from './sw-photos';

const ORIGIN = 'https://sb.test';
const PHOTO = `${ORIGIN}/api/v1/files/image/${'A'.repeat(43)}`;

/** A server that serves the photo only to the token that owns it, as the API does (404 to another account, 410 without one). */
function server(owner: string) {
  const seen: (string | null)[] = [];
  const fetchFn = (async (_url: RequestInfo | URL, init?: RequestInit) => {
    const auth = new Headers(init?.headers).get('authorization');
    seen.push(auth);
    if (auth === null) return new Response('{"msg":"gone"}', { status: 410 });
    return auth === `Bearer ${owner}` ? new Response('jpeg-bytes', { status: 200, headers: { 'content-type': 'image/jpeg' } }) : new Response('{}', { status: 404 });
  }) as typeof fetch;
  return { fetchFn, seen };
}

/** Cache Storage as the worker has it, in memory. */
function memoryCaches(): CacheStorage {
  const stores = new Map<string, Map<string, Response>>();
  return {
    open: async (name: string) => {
      const store = stores.get(name) ?? new Map<string, Response>();
      stores.set(name, store);
      return { match: async (url: string) => store.get(url)?.clone(), put: async (url: string, res: Response) => void store.set(url, res) } as unknown as Cache;
    },
  } as unknown as CacheStorage;
}

describe('the service worker and photos', () => {
  it('answers same-origin photo GETs without credentials or signature only', () => {
    expect(isSessionPhoto(new Request(PHOTO), ORIGIN)).toBe(true);
    expect(isSessionPhoto(new Request(`${PHOTO}?exp=1&sig=ab`), ORIGIN)).toBe(false);
    expect(isSessionPhoto(new Request(PHOTO, { headers: { authorization: 'Bearer x' } }), ORIGIN)).toBe(false);
    expect(isSessionPhoto(new Request(`https://elsewhere.test/api/v1/files/image/x`), ORIGIN)).toBe(false);
    expect(isSessionPhoto(new Request(`${ORIGIN}/api/v1/user`), ORIGIN)).toBe(false);
  });

  it('adds the active token, falls back to the other accounts on this browser, and serves a fetched photo again offline', async () => {
    const { fetchFn, seen } = server('owner-token');
    const caches = memoryCaches();
    const res = await fetchSessionPhoto(new Request(PHOTO), { activeToken: () => 'office-token', tokens: async () => ['office-token', 'owner-token'], fetch: fetchFn, caches });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('jpeg-bytes');
    expect(seen).toEqual(['Bearer office-token', 'Bearer owner-token']);

    const offline = (async () => { throw new TypeError('Failed to fetch'); }) as typeof fetch;
    const again = await fetchSessionPhoto(new Request(PHOTO), { activeToken: () => undefined, tokens: async () => [], fetch: offline, caches });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('jpeg-bytes');
  });

  it('passes the server\'s refusal through when no account may see the photo', async () => {
    const { fetchFn } = server('someone-else');
    const res = await fetchSessionPhoto(new Request(PHOTO), { activeToken: () => 'mine', tokens: async () => ['mine'], fetch: fetchFn });
    expect(res.status).toBe(404);
    const none = await fetchSessionPhoto(new Request(PHOTO), { activeToken: () => undefined, tokens: async () => [], fetch: fetchFn });
    expect(none.status).toBe(410);
  });
});
