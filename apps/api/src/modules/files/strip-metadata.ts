import type { ImageInfo } from './image-sniff.js';

/**
 * A phone camera writes more than pixels: GPS position, time, device make and serial number, and
 * often a thumbnail or a second picture. None of it is an answer, and a photo reference can be
 * shared (spreadsheet cells, capability URLs), so it is dropped before the file is stored. The
 * image data itself is copied byte for byte, never re-encoded. A JPEG keeps its EXIF orientation,
 * in a minimal EXIF block of its own, so the photo still shows the right way up.
 *
 * Returns the cleaned bytes, or null when there is nothing to drop or the file's structure is not
 * one we can walk: it is then stored as sent, since a field user's photo is never refused for its
 * metadata (the type and size checks have already passed).
 */
export function withoutMetadata(bytes: Buffer, mime: ImageInfo['mime']): Buffer | null {
  if (mime === 'image/jpeg') return jpeg(bytes);
  if (mime === 'image/png') return png(bytes);
  return webp(bytes);
}

const ascii = (b: Buffer, start: number, text: string) => b.length >= start + text.length && b.toString('latin1', start, start + text.length) === text;

/** APP0 JFIF, APP2 ICC profiles and APP14 (Adobe colour transform) are needed to show the image right. */
function keepsSegment(code: number, body: Buffer): boolean {
  if (code === 0xe0) return ascii(body, 0, 'JFIF\0');
  if (code === 0xe2) return ascii(body, 0, 'ICC_PROFILE\0');
  if (code === 0xee) return true;
  return !(code >= 0xe1 && code <= 0xef) && code !== 0xfe; // other APPn and COM are metadata
}

function jpeg(b: Buffer): Buffer | null {
  const parts: Buffer[] = [b.subarray(0, 2)];
  let afterApp0 = 1;
  let orientation = 1;
  let dropped = false;
  let pos = 2;
  for (;;) {
    if (pos + 2 > b.length || b[pos] !== 0xff) return null;
    const code = b[pos + 1]!;
    if (code === 0xff || code === 0x01 || (code >= 0xd0 && code <= 0xd8)) {
      const size = code === 0xff ? 1 : 2; // a fill byte, or a marker without a length
      parts.push(b.subarray(pos, pos + size));
      pos += size;
      continue;
    }
    if (code === 0xd9 || pos + 4 > b.length) return null; // no scan
    const end = pos + 2 + b.readUInt16BE(pos + 2);
    if (end < pos + 4 || end > b.length) return null;
    if (code === 0xda) {
      const eoi = endOfImage(b, end);
      parts.push(b.subarray(pos, eoi));
      // Bytes after the end of the image: a second picture (MPF) or a motion photo's video.
      if (eoi < b.length) dropped = true;
      break;
    }
    const body = b.subarray(pos + 4, end);
    if (keepsSegment(code, body)) {
      parts.push(b.subarray(pos, end));
      if (code === 0xe0 && parts.length === 2) afterApp0 = 2;
    } else {
      dropped = true;
      if (code === 0xe1) orientation = exifOrientation(body) ?? orientation;
    }
    pos = end;
  }
  if (!dropped) return null;
  if (orientation !== 1) parts.splice(afterApp0, 0, orientationSegment(orientation));
  return Buffer.concat(parts);
}

/**
 * Where the image ends: just past its EOI marker, walking the scans (entropy-coded data, where a
 * 0xFF byte is always followed by 0x00 or a restart marker) and the table segments between
 * progressive scans by their lengths. The end of the buffer when no EOI is found.
 */
function endOfImage(b: Buffer, from: number): number {
  let i = from;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) {
      i++;
      continue;
    }
    const next = b[i + 1]!;
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
      i += next === 0xff ? 1 : 2;
      continue;
    }
    if (next === 0xd9) return i + 2;
    if (i + 4 > b.length) break;
    i += 2 + b.readUInt16BE(i + 2); // DHT, DQT, SOS... between scans
  }
  return b.length;
}

/** The orientation (2-8) in an APP1 Exif body's first IFD, or null. */
function exifOrientation(body: Buffer): number | null {
  if (!ascii(body, 0, 'Exif\0\0')) return null;
  const tiff = body.subarray(6);
  if (tiff.length < 8) return null;
  const little = ascii(tiff, 0, 'II');
  if (!little && !ascii(tiff, 0, 'MM')) return null;
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let k = 0; k < count; k++) {
    const entry = ifd + 2 + k * 12;
    if (entry + 12 > tiff.length) return null;
    if (u16(entry) !== 0x0112 || u16(entry + 2) !== 3) continue;
    const value = u16(entry + 8);
    return value >= 2 && value <= 8 ? value : null;
  }
  return null;
}

/** APP1 with an EXIF block holding only the orientation tag (big-endian TIFF, one IFD entry). */
function orientationSegment(orientation: number): Buffer {
  const out = Buffer.alloc(36);
  out.writeUInt16BE(0xffe1, 0);
  out.writeUInt16BE(34, 2);
  out.write('Exif\0\0MM', 4, 'latin1');
  out.writeUInt16BE(42, 12);
  out.writeUInt32BE(8, 14); // first IFD right after the TIFF header
  out.writeUInt16BE(1, 18); // one entry
  out.writeUInt16BE(0x0112, 20); // Orientation
  out.writeUInt16BE(3, 22); // SHORT
  out.writeUInt32BE(1, 24);
  out.writeUInt16BE(orientation, 28); // value, then 2 bytes of padding and the next IFD offset 0
  return out;
}

/** Text, time and EXIF chunks; everything after IEND goes too. */
const PNG_METADATA = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME']);

function png(b: Buffer): Buffer | null {
  const parts: Buffer[] = [b.subarray(0, 8)];
  let dropped = false;
  let pos = 8;
  for (;;) {
    if (pos + 12 > b.length) return null; // no IEND
    const end = pos + 12 + b.readUInt32BE(pos);
    if (end > b.length) return null;
    const type = b.toString('latin1', pos + 4, pos + 8);
    if (PNG_METADATA.has(type)) dropped = true;
    else parts.push(b.subarray(pos, end));
    pos = end;
    if (type === 'IEND') break;
  }
  if (pos < b.length) dropped = true;
  return dropped ? Buffer.concat(parts) : null;
}

/** VP8X flag bits announcing the chunks dropped here. */
const WEBP_EXIF_FLAG = 0x08;
const WEBP_XMP_FLAG = 0x04;

function webp(b: Buffer): Buffer | null {
  if (b.length < 12) return null;
  const riffEnd = Math.min(b.length, 8 + b.readUInt32LE(4));
  const parts: Buffer[] = [Buffer.from(b.subarray(0, 12))];
  let dropped = riffEnd < b.length;
  let pos = 12;
  while (pos < riffEnd) {
    if (pos + 8 > riffEnd) return null;
    const size = b.readUInt32LE(pos + 4);
    const end = pos + 8 + size + (size & 1);
    if (end > riffEnd) return null;
    const fourcc = b.toString('latin1', pos, pos + 4);
    if (fourcc === 'EXIF' || fourcc === 'XMP ') dropped = true;
    else parts.push(fourcc === 'VP8X' ? Buffer.from(b.subarray(pos, end)) : b.subarray(pos, end));
    pos = end;
  }
  if (!dropped) return null;
  const vp8x = parts.find((p) => p.length >= 9 && ascii(p, 0, 'VP8X'));
  if (vp8x) vp8x[8] = vp8x[8]! & ~(WEBP_EXIF_FLAG | WEBP_XMP_FLAG);
  const out = Buffer.concat(parts);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}
