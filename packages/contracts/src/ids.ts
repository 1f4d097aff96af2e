// Free of zod, like links.ts, so a script or thread can import '@survey-bird/contracts/ids'
// without the schemas; the phone's drafts and outbox and the API's write path use it.

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let offset = POOL_BYTES;

/** 16 random bytes; one getRandomValues call per 256 ids. */
function randomBytes16(): Uint8Array {
  if (offset + 16 > pool.length) {
    pool = globalThis.crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    offset = 0;
  }
  offset += 16;
  return pool.subarray(offset - 16, offset);
}

/**
 * A UUIDv7 (RFC 9562): 48 bits of the millisecond clock, then 74 random bits. Ids that grow with
 * time are appended to the end of a B-tree index instead of landing on a random page, so the
 * server's write of a batch touches a few index pages, not one per response. Needs only
 * crypto.getRandomValues, which (unlike crypto.randomUUID) also exists on plain-http origins.
 */
export function uuidv7(now = Date.now()): string {
  const b = randomBytes16();
  const ms = Math.max(0, Math.floor(now));
  const high = Math.floor(ms / 0x1000000); // top 24 of the 48 bits
  const low = ms % 0x1000000;
  const h = HEX;
  return (
    h[(high >>> 16) & 0xff]! + h[(high >>> 8) & 0xff]! + h[high & 0xff]! + h[(low >>> 16) & 0xff]! +
    '-' + h[(low >>> 8) & 0xff]! + h[low & 0xff]! +
    '-' + h[0x70 | (b[6]! & 0x0f)]! + h[b[7]!]! +
    '-' + h[0x80 | (b[8]! & 0x3f)]! + h[b[9]!]! +
    '-' + h[b[10]!]! + h[b[11]!]! + h[b[12]!]! + h[b[13]!]! + h[b[14]!]! + h[b[15]!]!
  );
}
