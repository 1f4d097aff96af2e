import type { ImageInfo } from './image-sniff.js';

/**
 * Whether the file holds image data after its header: a PNG's IDAT, a JPEG's scan, a WebP's
 * bitstream. The sniffer reads only the header, so a 33-byte PNG (signature and IHDR) or a JPEG
 * cut before its scan would otherwise be stored as a photo that no one can open. The chunks and
 * segments are walked by their lengths, nothing is decoded or re-encoded.
 */
export function hasImageData(b: Buffer, mime: ImageInfo['mime']): boolean {
  if (mime === 'image/png') return pngHasData(b);
  if (mime === 'image/jpeg') return jpegHasScan(b);
  return webpHasBitstream(b);
}

/** At least one complete, non-empty IDAT chunk after IHDR. */
function pngHasData(b: Buffer): boolean {
  let pos = 8;
  while (pos + 12 <= b.length) {
    const length = b.readUInt32BE(pos);
    const end = pos + 12 + length;
    if (end > b.length) return false;
    const type = b.toString('latin1', pos + 4, pos + 8);
    if (type === 'IDAT') return length > 0;
    if (type === 'IEND') return false;
    pos = end;
  }
  return false;
}

/** A start-of-scan segment that fits the file, followed by at least one byte of scan data. */
function jpegHasScan(b: Buffer): boolean {
  let pos = 2;
  while (pos + 4 <= b.length) {
    if (b[pos] !== 0xff) return false;
    const code = b[pos + 1]!;
    if (code === 0xff) {
      pos += 1;
      continue;
    }
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd8)) {
      pos += 2;
      continue;
    }
    if (code === 0xd9) return false;
    const end = pos + 2 + b.readUInt16BE(pos + 2);
    if (end < pos + 4 || end > b.length) return false;
    if (code === 0xda) return end < b.length && !(b[end] === 0xff && b[end + 1] === 0xd9);
    pos = end;
  }
  return false;
}

/** A VP8, VP8L or animation-frame chunk that fits the file and carries more than its header. */
function webpHasBitstream(b: Buffer): boolean {
  if (b.length < 12) return false;
  const riffEnd = Math.min(b.length, 8 + b.readUInt32LE(4));
  let pos = 12;
  while (pos + 8 <= riffEnd) {
    const size = b.readUInt32LE(pos + 4);
    if (pos + 8 + size > riffEnd) return false;
    const fourcc = b.toString('latin1', pos, pos + 4);
    // The headers alone: VP8 frame tag, start code and size (10 bytes); VP8L signature and size (5).
    if (fourcc === 'VP8 ') return size > 10;
    if (fourcc === 'VP8L') return size > 5;
    if (fourcc === 'ANMF') return size > 16;
    pos += 8 + size + (size & 1);
  }
  return false;
}
