/** The fixed header of a PMTiles version 3 archive: 127 bytes at the start of the file. */
export const PMTILES_HEADER_BYTES = 127;

export interface PmtilesHeader {
  rootOffset: number;
  rootLength: number;
  metadataOffset: number;
  metadataLength: number;
  leafOffset: number;
  leafLength: number;
  tileDataOffset: number;
  tileDataLength: number;
  minZoom: number;
  maxZoom: number;
  tileType: number;
}

const u64 = (b: Buffer, at: number) => Number(b.readBigUInt64LE(at));

/**
 * Reads and checks the header against the file's size: the magic "PMTiles", version 3, and every
 * section (root directory, metadata, leaf directories, tile data) inside the file with the root
 * directory within the first 16 KB as the format requires. Undefined when any of it fails.
 */
export function readPmtilesHeader(head: Buffer, size: number): PmtilesHeader | undefined {
  if (head.length < PMTILES_HEADER_BYTES || size < PMTILES_HEADER_BYTES) return undefined;
  if (head.subarray(0, 7).toString('latin1') !== 'PMTiles' || head[7] !== 3) return undefined;
  const h: PmtilesHeader = {
    rootOffset: u64(head, 8),
    rootLength: u64(head, 16),
    metadataOffset: u64(head, 24),
    metadataLength: u64(head, 32),
    leafOffset: u64(head, 40),
    leafLength: u64(head, 48),
    tileDataOffset: u64(head, 56),
    tileDataLength: u64(head, 64),
    tileType: head[99]!,
    minZoom: head[100]!,
    maxZoom: head[101]!,
  };
  const inside = (offset: number, length: number) => Number.isSafeInteger(offset) && Number.isSafeInteger(length) && (length === 0 ? offset <= size : offset >= PMTILES_HEADER_BYTES && offset + length <= size);
  if (!inside(h.rootOffset, h.rootLength) || h.rootOffset + h.rootLength > 16_384 || h.rootLength === 0) return undefined;
  if (!inside(h.metadataOffset, h.metadataLength) || !inside(h.leafOffset, h.leafLength) || !inside(h.tileDataOffset, h.tileDataLength)) return undefined;
  // Tile types: 0 unknown, 1 mvt, 2 png, 3 jpeg, 4 webp, 5 avif.
  if (h.tileType > 5 || h.minZoom > h.maxZoom || h.maxZoom > 30) return undefined;
  return h;
}
