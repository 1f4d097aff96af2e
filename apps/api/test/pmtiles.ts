import { deflateSync } from 'node:zlib';

/**
 * A small PMTiles (version 3) archive written by code, for the basemap tests: raster PNG tiles of
 * zoom 0 to `maxZoom`, each a flat colour with a darker border so a map shows the tile grid.
 * Nothing binary is kept in the repository; the layout follows the PMTiles v3 specification
 * (header, root directory, JSON metadata, tile data; no compression, no leaf directories, so the
 * root directory, which must end within the first 16 KB, holds zoom 5 at most: 1,365 tiles).
 */
export function makePmtiles(opts: { maxZoom?: number; name?: string } = {}): Buffer {
  const maxZoom = opts.maxZoom ?? 2;
  const tiles: { id: number; bytes: Buffer }[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    const n = 2 ** z;
    for (let x = 0; x < n; x++) for (let y = 0; y < n; y++) tiles.push({ id: tileId(z, x, y), bytes: tilePng(z, x, y) });
  }
  tiles.sort((a, b) => a.id - b.id);
  let offset = 0;
  const entries = tiles.map((t) => {
    const e = { tileId: t.id, offset, length: t.bytes.length, runLength: 1 };
    offset += t.bytes.length;
    return e;
  });
  const root = directory(entries);
  const metadata = Buffer.from(JSON.stringify({ name: opts.name ?? 'Test area', attribution: 'Test tiles', format: 'png' }));
  const data = Buffer.concat(tiles.map((t) => t.bytes));
  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'latin1');
  header[7] = 3;
  const rootOffset = 127;
  const metadataOffset = rootOffset + root.length;
  const leafOffset = metadataOffset + metadata.length;
  const dataOffset = leafOffset;
  const u64 = (at: number, v: number) => header.writeBigUInt64LE(BigInt(v), at);
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, leafOffset);
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, data.length);
  u64(72, tiles.length);
  u64(80, tiles.length);
  u64(88, tiles.length);
  header[96] = 1; // clustered
  header[97] = 1; // internal compression: none
  header[98] = 1; // tile compression: none
  header[99] = 2; // tile type: png
  header[100] = 0;
  header[101] = maxZoom;
  header.writeInt32LE(-180 * 1e7, 102);
  header.writeInt32LE(-85 * 1e7, 106);
  header.writeInt32LE(180 * 1e7, 110);
  header.writeInt32LE(85 * 1e7, 114);
  header[118] = 0;
  header.writeInt32LE(0, 119);
  header.writeInt32LE(0, 123);
  return Buffer.concat([header, root, metadata, data]);
}

/** The tile's id: the count of tiles of every lower zoom, plus its place on the zoom's Hilbert curve. */
export function tileId(z: number, x: number, y: number): number {
  let base = 0;
  for (let i = 0; i < z; i++) base += 4 ** i;
  const n = 2 ** z;
  let d = 0;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      [x, y] = [y, x];
    }
  }
  return base + d;
}

function varint(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

function directory(entries: { tileId: number; offset: number; length: number; runLength: number }[]): Buffer {
  const out: number[] = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) varint(out, e.runLength);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    varint(out, prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return Buffer.from(out);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A 256 x 256 RGB PNG: a pale colour per tile and an 8-pixel border. */
function tilePng(z: number, x: number, y: number): Buffer {
  const size = 256;
  const fill = [200 + ((x * 37) % 50), 220 + ((y * 23) % 30), 200 + ((z * 51) % 50)];
  const edge = [120, 140, 120];
  const rows: Buffer[] = [];
  for (let r = 0; r < size; r++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let c = 0; c < size; c++) {
      const colour = r < 8 || c < 8 || r >= size - 8 || c >= size - 8 ? edge : fill;
      row[1 + c * 3] = colour[0]!;
      row[2 + c * 3] = colour[1]!;
      row[3 + c * 3] = colour[2]!;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}
