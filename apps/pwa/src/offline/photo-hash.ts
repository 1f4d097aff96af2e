import { differenceHash } from '@survey-bird/contracts/photo-hash';

/**
 * A photo's perceptual hash, loaded lazily (the form's chunk has no room for it). The
 * canvas downscalePhoto draws is shrunk once more, to 72 x 64, and hashed there: about 1 ms on
 * top of the encode. A photo kept as it was (small enough) or read back from a draft after a
 * reload has no canvas: it is decoded again when queued (photoHashOf).
 */
const SIDE_W = 72;
const SIDE_H = 64;
const known = new WeakMap<Blob, string>();

function small(): { ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null } {
  if (typeof OffscreenCanvas === 'function') return { ctx: new OffscreenCanvas(SIDE_W, SIDE_H).getContext('2d') };
  const canvas = document.createElement('canvas');
  canvas.width = SIDE_W;
  canvas.height = SIDE_H;
  return { ctx: canvas.getContext('2d') };
}

/** The hash of what `source` shows; null when this browser cannot draw it. */
export function hashOf(source: CanvasImageSource): string | null {
  const { ctx } = small();
  if (!ctx) return null;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, SIDE_W, SIDE_H);
  return differenceHash(ctx.getImageData(0, 0, SIDE_W, SIDE_H).data, SIDE_W, SIDE_H);
}

/** downscalePhoto's canvas, hashed as it encodes it. */
export function rememberHash(blob: Blob, canvas: CanvasImageSource): void {
  const hash = hashOf(canvas);
  if (hash) known.set(blob, hash);
}

/** The photo's hash: from its canvas when this page drew it, else decoded again; null if it cannot be read. */
export async function photoHashOf(blob: Blob): Promise<string | null> {
  const seen = known.get(blob);
  if (seen) return seen;
  if (typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
    try {
      return hashOf(bitmap);
    } finally {
      bitmap.close();
    }
  } catch {
    return null;
  }
}
