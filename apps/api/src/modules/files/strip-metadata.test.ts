import { describe, expect, it } from 'vitest';
import { sniffImage } from './image-sniff.js';
import { withoutMetadata } from './strip-metadata.js';
import { exifBody, pngChunk, tinyJpeg, tinyPng } from '../../../test/images.js';

const segment = (marker: number, body: Buffer) => Buffer.concat([Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);

/** tinyJpeg with metadata segments inserted after its APP0, and optional bytes after its EOI. */
function jpegWith(extra: Buffer[], trailer = Buffer.alloc(0)): Buffer {
  const plain = tinyJpeg(16, 16);
  const app0End = 2 + 2 + plain.readUInt16BE(4);
  return Buffer.concat([plain.subarray(0, app0End), ...extra, plain.subarray(app0End), trailer]);
}

const hasText = (b: Buffer, text: string) => b.includes(Buffer.from(text, 'latin1'));
const sniff = (b: Buffer) => sniffImage(async (offset, length) => b.subarray(offset, offset + length));

describe('withoutMetadata: JPEG', () => {
  it('drops EXIF (GPS, maker), XMP, IPTC, comments and trailing pictures, and keeps the image bytes', async () => {
    const icc = segment(0xe2, Buffer.from('ICC_PROFILE\0\x01\x01profile-bytes', 'latin1'));
    const input = jpegWith(
      [
        segment(0xe1, exifBody(1)),
        segment(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>Lagos</x:xmpmeta>', 'latin1')),
        icc,
        segment(0xed, Buffer.from('Photoshop 3.0\0IPTC by-line', 'latin1')),
        segment(0xfe, Buffer.from('taken at home', 'latin1')),
      ],
      Buffer.from('MPF second picture with its own EXIF GPS', 'latin1'),
    );
    const out = withoutMetadata(input, 'image/jpeg')!;
    expect(out).not.toBeNull();
    for (const secret of ['GPS', 'serial-XYZ', 'xmpmeta', 'IPTC', 'taken at home', 'MPF', 'Exif']) expect(hasText(out, secret), secret).toBe(false);
    // What is left is the plain image plus its colour profile, in order, to the byte.
    const plain = tinyJpeg(16, 16);
    const app0End = 2 + 2 + plain.readUInt16BE(4);
    expect(out.equals(Buffer.concat([plain.subarray(0, app0End), icc, plain.subarray(app0End)]))).toBe(true);
    expect(await sniff(out)).toEqual({ mime: 'image/jpeg', ext: 'jpg', width: 16, height: 16 });
  });

  it('keeps the orientation in a minimal EXIF block right after JFIF, from either byte order', async () => {
    for (const little of [true, false]) {
      const out = withoutMetadata(jpegWith([segment(0xe1, exifBody(6, little))]), 'image/jpeg')!;
      expect(hasText(out, 'GPS')).toBe(false);
      const app0End = 2 + 2 + out.readUInt16BE(4);
      expect(out[app0End + 1]).toBe(0xe1);
      const body = out.subarray(app0End + 4, app0End + 2 + out.readUInt16BE(app0End + 2));
      expect(body.toString('latin1', 0, 8)).toBe('Exif\0\0MM');
      // One IFD entry: tag 0x0112, type SHORT, count 1, value 6.
      expect(body.readUInt16BE(14)).toBe(1);
      expect([body.readUInt16BE(16), body.readUInt16BE(18), body.readUInt32BE(20), body.readUInt16BE(24)]).toEqual([0x0112, 3, 1, 6]);
      expect(await sniff(out)).toEqual({ mime: 'image/jpeg', ext: 'jpg', width: 16, height: 16 });
    }
  });

  it('leaves a photo without metadata untouched, and one it cannot walk as sent', () => {
    expect(withoutMetadata(tinyJpeg(16, 16), 'image/jpeg')).toBeNull();
    const truncated = jpegWith([segment(0xe1, exifBody(1))]).subarray(0, 30);
    expect(withoutMetadata(truncated, 'image/jpeg')).toBeNull();
    expect(withoutMetadata(Buffer.from([0xff, 0xd8, 0x00, 0x11]), 'image/jpeg')).toBeNull();
  });

  it('finds the end of a progressive image past the tables between its scans', () => {
    const plain = tinyJpeg(16, 16);
    const eoi = plain.length - 2;
    // A second scan preceded by a table whose bytes contain FF D9: only the real EOI ends the image.
    const between = Buffer.concat([segment(0xc4, Buffer.from([0x10, 0xff, 0xd9, ...new Array<number>(14).fill(0), 0x00])), segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])), Buffer.from([0x12, 0xff, 0x00, 0x34])]);
    const progressive = Buffer.concat([plain.subarray(0, eoi), between, plain.subarray(eoi)]);
    const input = jpegWith([segment(0xfe, Buffer.from('note', 'latin1'))]);
    const withScans = Buffer.concat([input.subarray(0, input.length - 2), between, Buffer.from([0xff, 0xd9]), Buffer.from('trailer', 'latin1')]);
    const out = withoutMetadata(withScans, 'image/jpeg')!;
    expect(out.equals(progressive)).toBe(true);
  });
});

describe('withoutMetadata: PNG and WebP', () => {

  it('drops text, time and EXIF chunks from a PNG and whatever follows IEND', async () => {
    const plain = tinyPng(4, 4);
    const ihdrEnd = 8 + 25;
    const input = Buffer.concat([
      plain.subarray(0, ihdrEnd),
      pngChunk('eXIf', exifBody(1).subarray(6)),
      pngChunk('tEXt', Buffer.from('Comment\0taken at home', 'latin1')),
      pngChunk('tIME', Buffer.from([7, 234, 11, 25, 9, 30, 0])),
      plain.subarray(ihdrEnd),
      Buffer.from('appended', 'latin1'),
    ]);
    const out = withoutMetadata(input, 'image/png')!;
    expect(out.equals(plain)).toBe(true);
    expect(withoutMetadata(plain, 'image/png')).toBeNull();
    expect(await sniff(out)).toEqual({ mime: 'image/png', ext: 'png', width: 4, height: 4 });
  });

  it('drops EXIF and XMP chunks from an extended WebP, clears their flags and fixes the RIFF size', () => {
    const riff = (chunks: Buffer[]) => {
      const body = Buffer.concat(chunks);
      const head = Buffer.alloc(12);
      head.write('RIFF', 0, 'latin1');
      head.writeUInt32LE(body.length + 4, 4);
      head.write('WEBP', 8, 'latin1');
      return Buffer.concat([head, body]);
    };
    const webpChunk = (fourcc: string, data: Buffer) => {
      const head = Buffer.alloc(8);
      head.write(fourcc, 0, 'latin1');
      head.writeUInt32LE(data.length, 4);
      return Buffer.concat([head, data, data.length & 1 ? Buffer.alloc(1) : Buffer.alloc(0)]);
    };
    const vp8x = (flags: number) => webpChunk('VP8X', Buffer.from([flags, 0, 0, 0, 15, 0, 0, 15, 0, 0]));
    const image = webpChunk('VP8L', Buffer.from([0x2f, 0x0f, 0xc0, 0x03, 0x00, 0x07]));
    const input = riff([vp8x(0x0c), image, webpChunk('EXIF', exifBody(1).subarray(6)), webpChunk('XMP ', Buffer.from('<x:xmpmeta>home</x:xmpmeta>', 'latin1'))]);
    const out = withoutMetadata(input, 'image/webp')!;
    expect(out.equals(riff([vp8x(0x00), image]))).toBe(true);
    expect(withoutMetadata(riff([vp8x(0x00), image]), 'image/webp')).toBeNull();
  });
});
