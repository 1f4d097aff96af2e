import { MapLimits } from '@survey-bird/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetBasemap, keepBasemap, keptBasemaps } from './maps';
import { answerBasemap, isBasemap } from './sw-basemap';

const ORIGIN = 'https://sb.test';
const PATH = '/api/v1/basemap/0123456789abcdef';
const ARCHIVE = new Uint8Array(Array.from({ length: 1000 }, (_, i) => i % 251));

/** Cache Storage in memory, keyed by absolute URL as the real one is (relative keys resolve against the origin). */
function memoryCaches(): CacheStorage {
  const stores = new Map<string, Map<string, Response>>();
  const abs = (key: RequestInfo | URL) => new URL(typeof key === 'string' || key instanceof URL ? key : key.url, ORIGIN).href;
  return {
    open: async (name: string) => {
      const store = stores.get(name) ?? new Map<string, Response>();
      stores.set(name, store);
      return {
        match: async (key: RequestInfo) => store.get(abs(key))?.clone(),
        put: async (key: RequestInfo, res: Response) => void store.set(abs(key), new Response(await res.arrayBuffer(), { status: res.status, headers: res.headers })),
        delete: async (key: RequestInfo) => store.delete(abs(key)),
        keys: async () => [...store.keys()].map((url) => new Request(url)),
      } as unknown as Cache;
    },
  } as unknown as CacheStorage;
}

const archiveServer = (bytes = ARCHIVE) => vi.fn(async () => new Response(bytes, { status: 200, headers: { 'content-length': String(bytes.length) } })) as unknown as typeof fetch;

afterEach(() => vi.unstubAllGlobals());

describe('basemaps kept on the phone', () => {
  it('the worker takes same-origin GETs of a basemap archive only', () => {
    expect(isBasemap(new Request(`${ORIGIN}${PATH}`), ORIGIN)).toBe(true);
    expect(isBasemap(new Request(`${ORIGIN}${PATH}`, { method: 'HEAD' }), ORIGIN)).toBe(false);
    expect(isBasemap(new Request(`https://tiles.example${PATH}`), ORIGIN)).toBe(false);
    expect(isBasemap(new Request(`${ORIGIN}/api/v1/organization/basemap`), ORIGIN)).toBe(false);
    expect(isBasemap(new Request(`${ORIGIN}${PATH}/extra`), ORIGIN)).toBe(false);
  });

  it('answers range requests from a kept archive with the exact slice, and goes to the network for one not kept', async () => {
    const caches = memoryCaches();
    vi.stubGlobal('caches', caches);
    const network = vi.fn(async () => new Response('from the network', { status: 206 })) as unknown as typeof fetch;
    const before = await answerBasemap(new Request(`${ORIGIN}${PATH}`, { headers: { range: 'bytes=0-9' } }), { caches, fetch: network });
    expect(await before.text()).toBe('from the network');

    expect(await keepBasemap(PATH, archiveServer())).toEqual({ ok: true, bytes: 1000 });
    const res = await answerBasemap(new Request(`${ORIGIN}${PATH}`, { headers: { range: 'bytes=100-199' } }), { caches, fetch: network });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([...ARCHIVE.subarray(100, 200)]);
    const whole = await answerBasemap(new Request(`${ORIGIN}${PATH}`), { caches, fetch: network });
    expect((await whole.arrayBuffer()).byteLength).toBe(1000);
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('keeps within the cap (an archive over it is refused and nothing is stored), lists and forgets', async () => {
    vi.stubGlobal('caches', memoryCaches());
    const huge = vi.fn(async () => new Response('x', { status: 200, headers: { 'content-length': String(MapLimits.keptBasemapBytes + 1) } })) as unknown as typeof fetch;
    expect(await keepBasemap(PATH, huge)).toEqual({ ok: false, reason: 'too-large', bytes: MapLimits.keptBasemapBytes + 1 });
    expect(await keptBasemaps()).toEqual([]);
    const offline = vi.fn(async () => { throw new TypeError('Failed to fetch'); }) as unknown as typeof fetch;
    expect(await keepBasemap(PATH, offline)).toEqual({ ok: false, reason: 'offline' });

    await keepBasemap(PATH, archiveServer());
    expect(await keptBasemaps()).toEqual([{ path: PATH, bytes: 1000 }]);
    await forgetBasemap(PATH);
    expect(await keptBasemaps()).toEqual([]);
  });
});
