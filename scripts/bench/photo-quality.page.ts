/**
 * Runs inside headless Chromium (photo quality; photo-quality.ts builds this file with Vite
 * into one script and adds it to a blank page). Each generated camera photo
 * (tests/fixtures/camera-photos.ts) goes through the app's own downscalePhoto, imported from its
 * source, once per photo quality: the code path the form takes when a field user picks a photo.
 */
import { PHOTO_QUALITIES, PhotoEncoding, type PhotoQuality } from '@survey-bird/contracts';
import { downscalePhoto } from '../../apps/pwa/src/offline/photos';
import { CAMERA_SCENES, cameraPhoto } from '../../tests/fixtures/camera-photos';

export interface Shrunk {
  bytes: number;
  width: number;
  height: number;
  ms: number;
}

export interface PhotoRow {
  scene: string;
  width: number;
  height: number;
  original: number;
  /** SHA-256 of the original, to show the set is the same from run to run. */
  sha256: string;
  shrunk: Record<PhotoQuality, Shrunk>;
  /** Bytes at each of the `alternatives` asked for, in their order. */
  alternatives: number[];
}

/** Another edge and JPEG quality, to show what the chosen ones save or cost. */
export interface Alternative {
  maxEdge: number;
  jpeg: number;
}

async function sizeOf(blob: Blob): Promise<{ width: number; height: number }> {
  const bitmap = await createImageBitmap(blob);
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}

async function sha256(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The first `count` scenes, each drawn, then shrunk at every quality; then at each alternative,
 * through the same code with the table's `high` entry swapped for the call (restored after).
 */
export async function measure(count: number, alternatives: Alternative[] = []): Promise<PhotoRow[]> {
  const rows: PhotoRow[] = [];
  for (const scene of CAMERA_SCENES.slice(0, count)) {
    const original = await cameraPhoto(scene);
    const shrunk = {} as Record<PhotoQuality, Shrunk>;
    for (const quality of PHOTO_QUALITIES) {
      const started = performance.now();
      const out = await downscalePhoto(original, quality);
      const ms = performance.now() - started;
      if (out === original) throw new Error(`${scene.name}: downscalePhoto kept the original at ${quality}`);
      shrunk[quality] = { bytes: out.size, ms, ...(await sizeOf(out)) };
    }
    const sizes: number[] = [];
    const chosen = { ...PhotoEncoding.high };
    try {
      for (const alternative of alternatives) {
        PhotoEncoding.high = alternative;
        sizes.push((await downscalePhoto(original, 'high')).size);
      }
    } finally {
      PhotoEncoding.high = chosen;
    }
    rows.push({ scene: scene.name, width: scene.width, height: scene.height, original: original.size, sha256: await sha256(original), shrunk, alternatives: sizes });
  }
  return rows;
}

export const sceneCount = CAMERA_SCENES.length;
