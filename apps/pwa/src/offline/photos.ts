import { Limits, PHOTO_MIME, PhotoEncoding, type PhotoQuality } from '@survey-bird/contracts';

/**
 * Shrinks a camera photo before it is queued, as the survey's photo quality says (PhotoEncoding:
 * a 12 MP picture becomes a JPEG of at most 1600 px on its longer side, or 2000 px for `high`),
 * which is what a 2G upload can carry (median 390 KB at standard, 661 KB at high: docs/benchmarks.md).
 * Works in a worker too (createImageBitmap + OffscreenCanvas), with a <canvas> fallback.
 */

const KEPT_AS_IS = ['image/jpeg', 'image/png', 'image/webp'];

async function encode(bitmap: ImageBitmap, width: number, height: number, quality: number): Promise<Blob | null> {
  let canvas: OffscreenCanvas | HTMLCanvasElement;
  if (typeof OffscreenCanvas === 'function') canvas = new OffscreenCanvas(width, height);
  else if (typeof document === 'undefined') return null;
  else Object.assign((canvas = document.createElement('canvas')), { width, height });
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D | null;
  if (!ctx) return null;
  ctx.drawImage(bitmap, 0, 0, width, height);
  const blob = await ('convertToBlob' in canvas ? canvas.convertToBlob({ type: PHOTO_MIME, quality }) : new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, PHOTO_MIME, quality)));
  // The perceptual hash from the canvas just drawn, lazily: the form's chunk has no room for it.
  if (blob) await import('./photo-hash').then((m) => m.rememberHash(blob, canvas)).catch(() => undefined);
  return blob;
}

/**
 * A JPEG no larger than the setting's edge on its longer side (standard for a survey cached
 * before the setting, or with a value this version does not know). The original comes back unchanged when it is
 * already small enough (and an image type the server takes), or when this browser cannot decode
 * or encode it: the server still checks size and type, and a refused photo shows as a failed
 * response the user can fix.
 */
export async function downscalePhoto(blob: Blob, setting?: PhotoQuality): Promise<Blob> {
  const { maxEdge, jpeg } = PhotoEncoding[setting === 'high' ? setting : 'standard'];
  if (typeof createImageBitmap !== 'function') return blob;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  } catch {
    return blob;
  }
  try {
    const longest = Math.max(bitmap.width, bitmap.height);
    if (longest <= maxEdge && KEPT_AS_IS.includes(blob.type) && blob.size <= Limits.maxImageBytes) return blob;
    const scale = Math.min(1, maxEdge / longest);
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    return (await encode(bitmap, width, height, jpeg).catch(() => null)) ?? blob;
  } finally {
    bitmap.close();
  }
}
