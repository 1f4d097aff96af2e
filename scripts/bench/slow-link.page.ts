/**
 * Runs inside a page of the real app for the slow-link benchmark (slow-link.ts builds it with Vite
 * into the served PWA copy as /bench/slow-link.js). Never part of the app's build.
 *
 * makePhotos draws photo-like pictures and encodes them as the phone's camera path does (a canvas
 * to JPEG), keeping them in this page; queue puts responses with those photos in the app's outbox
 * with its own enqueueResponse (a copy of the offline module with its own Dexie instance, whose
 * commits reach the open app's scheduler like another tab's); baseline sends the same bytes in one
 * fetch to the proxy's bare endpoint.
 */
import type { Answers } from '@survey-bird/contracts';
import { enqueueResponse } from '../../apps/pwa/src/offline';
import { accountKey } from '../../apps/pwa/src/session/account-key';

export interface PhotoJob {
  /** How many photos. */
  count: number;
  width: number;
  height: number;
  quality: number;
  /** Bytes a photo should be near: the grain is tuned on the first ones to land there. */
  targetBytes: number;
  tag: string;
}

export interface PhotoInfo {
  size: number;
  sha256: string;
}

export interface QueueJob {
  account: string;
  surveyId: string;
  organizationId: string;
  answers: Answers;
  /** The survey's photo questions: each response takes the next photos, one per question. */
  photoQuestions: string[];
  /** The name question: made unique per response so the organization's list shows which arrived. */
  nameQuestion: string;
  tag: string;
  responses: number;
}

export interface Queued {
  clientId: string;
  name: string;
  photos: { question: string; size: number; sha256: string }[];
}

let photos: { blob: Blob; info: PhotoInfo }[] = [];

/** A small fast generator: the grain must differ per photo and cost little. */
function xorshift(seed: number): () => number {
  let x = seed | 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/** A shop front: sky, a wall, shelves of coloured goods, then sensor grain of `grain` levels. */
function draw(width: number, height: number, seed: number, grain: number): OffscreenCanvas {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  const rnd = xorshift(seed);
  const sky = ctx.createLinearGradient(0, 0, 0, height);
  sky.addColorStop(0, `hsl(${200 + rnd() * 20} 60% 70%)`);
  sky.addColorStop(0.4, `hsl(${30 + rnd() * 20} 30% 55%)`);
  sky.addColorStop(1, `hsl(${20 + rnd() * 20} 35% 30%)`);
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, width, height);
  const shelf = height / 8;
  for (let row = 2; row < 8; row++) {
    ctx.fillStyle = `hsl(30 25% ${20 + rnd() * 15}%)`;
    ctx.fillRect(0, row * shelf - 8, width, 8);
    for (let x = 0; x < width; ) {
      const w = 20 + rnd() * 70;
      const h = shelf * (0.4 + rnd() * 0.5);
      ctx.fillStyle = `hsl(${rnd() * 360} ${40 + rnd() * 50}% ${30 + rnd() * 40}%)`;
      ctx.fillRect(x, row * shelf - 8 - h, w - 3, h);
      x += w;
    }
  }
  const image = ctx.getImageData(0, 0, width, height);
  const px = image.data;
  for (let i = 0; i < px.length; i += 4) {
    const n = (rnd() - 0.5) * grain;
    px[i] = px[i]! + n;
    px[i + 1] = px[i + 1]! + n + (rnd() - 0.5) * grain * 0.5;
    px[i + 2] = px[i + 2]! + n;
  }
  ctx.putImageData(image, 0, 0);
  return canvas;
}

async function sha256(blob: Blob): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Makes `count` photos (replacing the page's set); answers their sizes and hashes. */
export async function makePhotos(job: PhotoJob): Promise<PhotoInfo[]> {
  photos = [];
  let seed = 1;
  for (const c of job.tag) seed = (seed * 31 + c.charCodeAt(0)) | 0;
  const encode = (i: number, grain: number) => draw(job.width, job.height, seed + i * 7919, grain).convertToBlob({ type: 'image/jpeg', quality: job.quality });
  // The grain that lands near the target size, by a few trial encodings (the size grows with it).
  let grain = 40;
  for (let i = 0; i < 4; i++) grain = Math.max(1, Math.min(255, grain * Math.sqrt(job.targetBytes / (await encode(-1 - i, grain)).size)));
  for (let i = 0; i < job.count; i++) {
    const blob = await encode(i, grain);
    photos.push({ blob, info: { size: blob.size, sha256: await sha256(blob) } });
  }
  return photos.map((p) => p.info);
}

/** Queues `responses` responses, each with the next photos of the page's set. */
export async function queue(job: QueueJob): Promise<Queued[]> {
  const out: Queued[] = [];
  let next = 0;
  for (let i = 0; i < job.responses; i++) {
    const name = `${job.tag}-${i}`;
    const own: Record<string, Blob> = {};
    const info: Queued['photos'] = [];
    for (const question of job.photoQuestions) {
      const photo = photos[next++ % photos.length]!;
      own[question] = photo.blob;
      info.push({ question, ...photo.info });
    }
    const clientId = await enqueueResponse({ account: accountKey(job.account), surveyId: job.surveyId, organizationId: job.organizationId, answers: { ...job.answers, [job.nameQuestion]: name }, photos: own });
    out.push({ clientId, name, photos: info });
  }
  return out;
}

/** One fetch POST of `bytes` bytes (the page's photos, repeated as needed) to the proxy's bare endpoint; its ms. */
export async function baseline({ path, bytes }: { path: string; bytes: number }): Promise<number> {
  const parts: Blob[] = [];
  for (let left = bytes, i = 0; left > 0; i++) {
    const blob = photos[i % photos.length]!.blob;
    parts.push(blob.size <= left ? blob : blob.slice(0, left));
    left -= Math.min(blob.size, left);
  }
  // No type: a Blob without one sends no content-type, as plain as a POST gets.
  const body = new Blob(parts);
  const started = performance.now();
  const res = await fetch(path, { method: 'POST', body, cache: 'no-store' });
  await res.arrayBuffer();
  if (res.status !== 204) throw new Error(`baseline upload answered ${res.status}`);
  return performance.now() - started;
}

/** The app's outbox records by status and how many still have photos to send. */
export async function outboxState(): Promise<{ byStatus: Record<string, number>; photosPending: number }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('survey-bird');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  try {
    const records = await new Promise<{ status: string; photosPending?: string[] }[]>((resolve, reject) => {
      const req = db.transaction('outbox', 'readonly').objectStore('outbox').getAll();
      req.onsuccess = () => resolve(req.result as { status: string; photosPending?: string[] }[]);
      req.onerror = () => reject(req.error);
    });
    const byStatus: Record<string, number> = {};
    for (const r of records) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    return { byStatus, photosPending: records.filter((r) => (r.photosPending?.length ?? 0) > 0).length };
  } finally {
    db.close();
  }
}
