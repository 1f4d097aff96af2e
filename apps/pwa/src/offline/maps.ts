import { MapLimits, type MapReply } from '@survey-bird/contracts';
import { db, metaKey, type AccountKey } from './db';
import { BASEMAP_CACHE } from './sw-names';

/**
 * What the field user's map keeps on the phone: the last answer of their seven-day map per survey
 * (shown when offline, with its time), and the basemap archives they chose to keep whole in the
 * Cache Storage, which the service worker answers range requests from (sw-basemap.ts).
 */

export interface MyMapSnapshot {
  reply: MapReply;
  at: number;
}

export async function saveMyMap(account: AccountKey, surveyId: string, reply: MapReply, at: number): Promise<void> {
  await db.meta.put({ key: metaKey.myMap(account, surveyId), value: { reply, at } satisfies MyMapSnapshot });
}

export async function myMapSnapshot(account: AccountKey, surveyId: string): Promise<MyMapSnapshot | null> {
  const row = await db.meta.get(metaKey.myMap(account, surveyId));
  return (row?.value as MyMapSnapshot | undefined) ?? null;
}

export interface KeptBasemap {
  /** The archive's path, `/api/v1/basemap/<id>`. */
  path: string;
  bytes: number;
}

export type KeepOutcome =
  | { ok: true; bytes: number }
  | { ok: false; reason: 'unsupported' | 'offline' | 'too-large' | 'no-space'; bytes?: number };

const cacheStorage = (): CacheStorage | undefined => (typeof caches === 'undefined' ? undefined : caches);

/** The archives kept on this phone, with their sizes. */
export async function keptBasemaps(): Promise<KeptBasemap[]> {
  const storage = cacheStorage();
  if (!storage) return [];
  const cache = await storage.open(BASEMAP_CACHE);
  const kept: KeptBasemap[] = [];
  for (const request of await cache.keys()) {
    const res = await cache.match(request);
    const length = Number(res?.headers.get('content-length'));
    const bytes = Number.isFinite(length) && length > 0 ? length : (await res?.blob())?.size ?? 0;
    kept.push({ path: new URL(request.url).pathname, bytes });
  }
  return kept;
}

/**
 * Downloads the archive whole and keeps it, when it fits: together with the other kept archives
 * at most MapLimits.keptBasemapBytes, and within the browser's free space (with a tenth to spare,
 * so kept maps never crowd out unsent responses and photos).
 */
export async function keepBasemap(path: string, doFetch: typeof fetch = fetch): Promise<KeepOutcome> {
  const storage = cacheStorage();
  if (!storage) return { ok: false, reason: 'unsupported' };
  const others = (await keptBasemaps()).filter((k) => k.path !== path).reduce((sum, k) => sum + k.bytes, 0);
  let res: Response;
  try {
    res = await doFetch(path, { credentials: 'omit' });
  } catch {
    return { ok: false, reason: 'offline' };
  }
  if (!res.ok) return { ok: false, reason: 'offline' };
  const bytes = Number(res.headers.get('content-length'));
  if (!Number.isFinite(bytes) || bytes <= 0 || others + bytes > MapLimits.keptBasemapBytes) {
    await res.body?.cancel();
    return { ok: false, reason: 'too-large', bytes };
  }
  const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => undefined);
  if (estimate?.quota !== undefined && estimate.usage !== undefined && estimate.quota - estimate.usage < bytes * 1.1) {
    await res.body?.cancel();
    return { ok: false, reason: 'no-space', bytes };
  }
  await (await storage.open(BASEMAP_CACHE)).put(path, res);
  return { ok: true, bytes };
}

export async function forgetBasemap(path: string): Promise<void> {
  const storage = cacheStorage();
  if (storage) await (await storage.open(BASEMAP_CACHE)).delete(path);
}
