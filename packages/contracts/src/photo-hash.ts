/**
 * A photo's perceptual hash: a 64-bit difference hash as 16 hex digits. The phone
 * computes it from the canvas it draws when it shrinks a photo; the server only compares hashes.
 * The picture is averaged into 9 x 8 cells of luminance (area averages, so the result hardly
 * depends on how the pixels were scaled before) and each bit says whether a cell is brighter than
 * its right-hand neighbour. Re-saving or resizing a picture changes few bits; another picture about half.
 */
export const PHOTO_HASH_PATTERN = /^[0-9a-f]{16}$/;

const COLS = 9;
const ROWS = 8;

/** The difference hash of RGBA pixels (ImageData.data or a decoded JPEG's data), width x height. */
export function differenceHash(rgba: ArrayLike<number>, width: number, height: number): string {
  const sums = new Float64Array(COLS * ROWS);
  const counts = new Uint32Array(COLS * ROWS);
  const colOf = new Uint8Array(width);
  for (let x = 0; x < width; x++) colOf[x] = Math.min(COLS - 1, Math.floor((x * COLS) / width));
  for (let y = 0; y < height; y++) {
    const row = Math.min(ROWS - 1, Math.floor((y * ROWS) / height)) * COLS;
    let i = y * width * 4;
    for (let x = 0; x < width; x++, i += 4) {
      const cell = row + colOf[x]!;
      sums[cell]! += 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
      counts[cell]!++;
    }
  }
  let hex = '';
  for (let y = 0; y < ROWS; y++) {
    let byte = 0;
    for (let x = 0; x < COLS - 1; x++) {
      const left = sums[y * COLS + x]! / Math.max(1, counts[y * COLS + x]!);
      const right = sums[y * COLS + x + 1]! / Math.max(1, counts[y * COLS + x + 1]!);
      byte = (byte << 1) | (left > right ? 1 : 0);
    }
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

/** How many of the 64 bits differ between two photo hashes. */
export function hammingDistance(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < 16; i += 8) {
    let x = (Number.parseInt(a.slice(i, i + 8), 16) ^ Number.parseInt(b.slice(i, i + 8), 16)) >>> 0;
    while (x) {
      x &= x - 1;
      d++;
    }
  }
  return d;
}
