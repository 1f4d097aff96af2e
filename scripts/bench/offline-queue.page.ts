/**
 * Runs inside a page of the real app (benchmark target 8; offline-queue.ts builds this file with
 * Vite into the served PWA copy as /bench/offline-queue.js and imports it with page.evaluate).
 * It is never part of the app's build: the app's outbox code is imported from its source, so
 * production exposes nothing new.
 *
 * A: the app's own enqueueResponse (Dexie, database 'survey-bird').
 * B: a hand-written baseline with the plain IndexedDB API (database 'bench-baseline'): one
 *    readwrite transaction per response that stores the record and its two photo Blobs.
 * Both get the same answers and the same photo bytes, and both commit with the browser's default
 * durability (Dexie passes none); only the time spent saving is counted (making the Blobs happens
 * before each save's clock starts). A's code is a copy of the app's offline module with its own
 * Dexie instance: its commits reach the open app's live reads (the badge, the sync scheduler)
 * through Dexie's cross-instance events, as another tab's would, so their cost is in A's figure.
 */
import type { Answers } from '@survey-bird/contracts';
import { enqueueResponse } from '../../apps/pwa/src/offline';
import { accountKey } from '../../apps/pwa/src/session/account-key';
import { hashOf } from '../../apps/pwa/src/offline/photo-hash';

export interface SaveJob {
  n: number;
  account: string;
  surveyId: string;
  organizationId: string;
  answers: Answers;
  /** The survey's two photo questions. */
  photoQuestions: [string, string];
  /** Makes every photo of the run unique. */
  tag: string;
  photoBytes: number;
}

export interface SaveResult {
  ms: number;
  ids: string[];
}

let filler: Uint8Array<ArrayBuffer> | undefined;

/** Random bytes (incompressible, like a JPEG's), made once per page. */
function fillerBytes(size: number): Uint8Array<ArrayBuffer> {
  if (!filler || filler.length < size) {
    filler = new Uint8Array(size);
    for (let i = 0; i < size; i += 65_536) crypto.getRandomValues(filler.subarray(i, Math.min(size, i + 65_536)));
  }
  return filler;
}

/**
 * SOI, a baseline frame header (1600 x 1200, 3 components: what the server's image sniffer reads)
 * and a start-of-scan header, so the random bytes that follow are the scan the server requires.
 */
const JPEG_HEAD = new Uint8Array([
  0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 8, 0x04, 0xb0, 0x06, 0x40, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
  0xff, 0xda, 0x00, 0x0c, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 0x3f, 0,
]);

/** A `size`-byte JPEG-like Blob, unique by `tag`. */
function photo(tag: string, size: number): Blob {
  const tagBytes = new TextEncoder().encode(`${tag};`);
  return new Blob([JPEG_HEAD, tagBytes, fillerBytes(size).subarray(0, size - JPEG_HEAD.length - tagBytes.length)], { type: 'image/jpeg' });
}

async function timed(job: SaveJob, save: (photos: Record<string, Blob>) => Promise<string>): Promise<SaveResult> {
  let ms = 0;
  const ids: string[] = [];
  for (let i = 0; i < job.n; i++) {
    const photos = Object.fromEntries(job.photoQuestions.map((q, k) => [q, photo(`${job.tag}-${i}-${k}`, job.photoBytes)]));
    const started = performance.now();
    ids.push(await save(photos));
    ms += performance.now() - started;
  }
  return { ms, ids };
}

/** A: the app's outbox. */
export function saveWithApp(job: SaveJob): Promise<SaveResult> {
  return timed(job, (photos) => enqueueResponse({ account: accountKey(job.account), surveyId: job.surveyId, organizationId: job.organizationId, answers: job.answers, photos }));
}

const done = (tx: IDBTransaction) => new Promise<void>((resolve, reject) => {
  tx.oncomplete = () => resolve();
  tx.onerror = () => reject(tx.error);
  tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
});

const request = <T>(req: IDBRequest<T>) => new Promise<T>((resolve, reject) => {
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => reject(req.error);
});

let baselineDb: Promise<IDBDatabase> | undefined;

function openBaseline(): Promise<IDBDatabase> {
  baselineDb ??= new Promise((resolve, reject) => {
    const open = indexedDB.open('bench-baseline', 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('outbox', { keyPath: 'id' });
      open.result.createObjectStore('photos', { keyPath: ['owner', 'question'] });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  return baselineDb;
}

/** B: the same record and Blobs, one plain readwrite transaction per response. */
export async function saveWithBaseline(job: SaveJob): Promise<SaveResult> {
  const db = await openBaseline();
  return timed(job, async (photos) => {
    const id = crypto.randomUUID();
    const now = Date.now();
    const tx = db.transaction(['outbox', 'photos'], 'readwrite');
    const finished = done(tx);
    tx.objectStore('outbox').add({
      id, account: job.account, surveyId: job.surveyId, organizationId: job.organizationId, answers: job.answers,
      capturedAt: new Date(now).toISOString(), createdAt: now, updatedAt: now, status: 'queued', attempts: 0, nextAttemptAt: now,
      photoQuestions: Object.keys(photos), photoRefs: {},
    });
    for (const [question, blob] of Object.entries(photos)) tx.objectStore('photos').put({ owner: id, question, blob, type: blob.type, size: blob.size });
    await finished;
    return id;
  });
}

async function clearStores(name: string, stores: string[]): Promise<void> {
  const db = name === 'bench-baseline' ? await openBaseline() : await request(indexedDB.open(name));
  const tx = db.transaction(stores, 'readwrite');
  const finished = done(tx);
  for (const s of stores) tx.objectStore(s).clear();
  await finished;
  if (name !== 'bench-baseline') db.close();
}

/** Empties the outbox and photos of both databases (between rounds, outside the clock). */
export async function clearAll(): Promise<void> {
  await clearStores('survey-bird', ['outbox', 'photos']);
  await clearStores('bench-baseline', ['outbox', 'photos']);
}

/** The app's outbox records by status, how many still have photos to upload (photos follow their response), and how many photo rows it keeps. */
export async function outboxState(): Promise<{ byStatus: Record<string, number>; photosPending: number; photos: number }> {
  const db = await request(indexedDB.open('survey-bird'));
  try {
    const tx = db.transaction(['outbox', 'photos'], 'readonly');
    const [records, photos] = await Promise.all([
      request(tx.objectStore('outbox').getAll() as IDBRequest<{ status: string; photosPending?: string[] }[]>),
      request(tx.objectStore('photos').count()),
    ]);
    const byStatus: Record<string, number> = {};
    for (const r of records) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    return { byStatus, photosPending: records.filter((r) => (r.photosPending?.length ?? 0) > 0).length, photos };
  } finally {
    db.close();
  }
}


/**
 * What the perceptual hash (quality flags) adds to shrinking a photo. A 2000 x 1500 canvas (what
 * downscalePhoto draws for a 12 MP photo) painted like a photo, then hashed as the app does
 * (drawn to 72 x 64, read back, differenceHash); each run's ms, after one warm-up.
 */
export function hashCost(runs: number): number[] {
  const canvas = new OffscreenCanvas(2000, 1500);
  const ctx = canvas.getContext('2d')!;
  const sky = ctx.createLinearGradient(0, 0, 0, 1500);
  sky.addColorStop(0, '#5a8ce6');
  sky.addColorStop(1, '#7a6a3c');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, 2000, 1500);
  for (let i = 0; i < 40; i++) {
    ctx.fillStyle = `hsl(${(i * 47) % 360} 60% ${30 + (i % 5) * 10}%)`;
    ctx.fillRect((i * 137) % 1900, (i * 89) % 1400, 60 + (i % 7) * 30, 40 + (i % 5) * 25);
  }
  hashOf(canvas);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    hashOf(canvas);
    ms.push(performance.now() - t0);
  }
  return ms;
}
