import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/**
 * Real, decodable images built byte by byte for the tests (no binary fixtures to keep in step).
 * The JPEG is a baseline greyscale frame whose every 8x8 block is flat mid-grey: with one
 * one-symbol Huffman table each for DC and AC, a block is the two bits "00" (DC difference 0, EOB).
 */
export function tinyJpeg(width = 2, height = 2, opts: { headerOnly?: boolean } = {}): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const blocks = opts.headerOnly ? 0 : Math.ceil(width / 8) * Math.ceil(height / 8);
  const scan: number[] = [];
  let bits = '';
  for (let i = 0; i < blocks; i++) bits += '00';
  bits = bits.padEnd(Math.ceil(bits.length / 8) * 8, '1');
  for (let i = 0; i < bits.length; i += 8) {
    const byte = parseInt(bits.slice(i, i + 8), 2);
    scan.push(byte);
    if (byte === 0xff) scan.push(0x00);
  }
  const huffman = (tableClass: number) => [(tableClass << 4) | 0, 1, ...new Array<number>(15).fill(0), 0x00];
  return Buffer.from([
    0xff, 0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...segment(0xc4, huffman(0)),
    ...segment(0xc4, huffman(1)),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff, 0xd9,
  ]);
}

/** One PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  typed.copy(out, 4);
  out.writeUInt32BE(crc32(typed), 8 + data.length);
  return out;
}

/**
 * An RGB PNG of one colour; width and height may be declared larger than the pixels sent (a pixel
 * flood). `padBytes` adds a private ancillary chunk of random bytes, which decoders skip and the
 * server keeps, to give the file a photo's size.
 */
export function tinyPng(width = 2, height = 2, opts: { declaredWidth?: number; declaredHeight?: number; padBytes?: number } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(opts.declaredWidth ?? width, 0);
  ihdr.writeUInt32BE(opts.declaredHeight ?? height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x7f)]);
  const raw = Buffer.concat(new Array<Buffer>(height).fill(row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    ...(opts.padBytes ? [pngChunk('raNd', randomBytes(opts.padBytes))] : []),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The header of a lossless WebP (VP8L) of the given size: enough for the sniffer. */
export function webpHeader(width: number, height: number): Buffer {
  const out = Buffer.alloc(30);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(22, 4);
  out.write('WEBPVP8L', 8, 'latin1');
  out.writeUInt32LE(10, 16);
  out[20] = 0x2f;
  out.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  return out;
}

/** An EXIF block as cameras write it: orientation, then a GPS pointer, a maker string and a secret. */
export function exifBody(orientation: number, little = true): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 3 * 12 + 4 + 32);
  const u16 = (v: number, at: number) => (little ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (little ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at));
  tiff.write(little ? 'II' : 'MM', 0, 'latin1');
  u16(42, 2);
  u32(8, 4);
  u16(3, 8);
  const entry = (k: number, tag: number, type: number, count: number, value: number) => {
    const at = 10 + k * 12;
    u16(tag, at);
    u16(type, at + 2);
    u32(count, at + 4);
    if (type === 3) u16(value, at + 8);
    else u32(value, at + 8);
  };
  entry(0, 0x010f, 2, 32, 50); // Make -> the text at offset 50
  entry(1, 0x0112, 3, 1, orientation);
  entry(2, 0x8825, 4, 1, 0); // GPS IFD pointer
  tiff.write('GPS 6.5244N 3.3792E serial-XYZ\0', 50, 'latin1');
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}
