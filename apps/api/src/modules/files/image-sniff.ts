/**
 * What an uploaded file really is, from its bytes alone (the declared mimetype and filename are
 * the client's word and ignored), and how many pixels it would decode to, read from its header
 * so a small file that decodes to a gigantic bitmap (a pixel flood) is refused before anyone opens it.
 */
export interface ImageInfo {
  mime: 'image/jpeg' | 'image/png' | 'image/webp';
  ext: 'jpg' | 'png' | 'webp';
  width: number;
  height: number;
}

/** Reads up to `length` bytes at `offset`; a shorter buffer means the file ended. */
export type ReadAt = (offset: number, length: number) => Promise<Buffer>;

export async function sniffImage(readAt: ReadAt): Promise<ImageInfo | null> {
  const head = await readAt(0, 32);
  if (head.length >= 24 && head.subarray(0, 8).equals(PNG_SIGNATURE) && head.toString('latin1', 12, 16) === 'IHDR') {
    return sized('image/png', 'png', head.readUInt32BE(16), head.readUInt32BE(20));
  }
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return jpeg(readAt);
  if (head.length >= 30 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return webp(head);
  return null;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function sized(mime: ImageInfo['mime'], ext: ImageInfo['ext'], width: number, height: number): ImageInfo | null {
  return width > 0 && height > 0 ? { mime, ext, width, height } : null;
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the frame size. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Walks the JPEG segments (EXIF and ICC blocks may come first) up to the frame header. */
async function jpeg(readAt: ReadAt): Promise<ImageInfo | null> {
  let offset = 2;
  for (let segments = 0; segments < 1000; segments++) {
    const marker = await readAt(offset, 2);
    if (marker.length < 2 || marker[0] !== 0xff) return null;
    const code = marker[1]!;
    if (code === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (code === 0xd8 || code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    if (code === 0xd9 || code === 0xda) return null; // end of image or scan data before any frame header
    const segment = await readAt(offset + 2, 7);
    if (segment.length < 2) return null;
    const length = segment.readUInt16BE(0);
    if (length < 2) return null;
    if (SOF.has(code)) {
      if (segment.length < 7) return null;
      return sized('image/jpeg', 'jpg', segment.readUInt16BE(5), segment.readUInt16BE(3));
    }
    offset += 2 + length;
  }
  return null;
}

function webp(head: Buffer): ImageInfo | null {
  const chunk = head.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    // Key frame: 3-byte tag, start code 9d 01 2a, then 14-bit width and height.
    if (head[23] !== 0x9d || head[24] !== 0x01 || head[25] !== 0x2a) return null;
    return sized('image/webp', 'webp', head.readUInt16LE(26) & 0x3fff, head.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (head[20] !== 0x2f) return null;
    const bits = head.readUInt32LE(21);
    return sized('image/webp', 'webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    return sized('image/webp', 'webp', head.readUIntLE(24, 3) + 1, head.readUIntLE(27, 3) + 1);
  }
  return null;
}
