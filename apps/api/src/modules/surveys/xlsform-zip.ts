import { Readable } from 'node:stream';
import JSZip from 'jszip';
import { ApiMsg, Limits } from '@survey-bird/contracts';
import { HttpError } from '../../http/errors.js';

/** An .xlsx holds 10 to 30 parts; a zip of thousands of entries is not a workbook anyone saved. */
const MAX_ENTRIES = 1000;
/**
 * XML deflates 5 to 20 times (a 100,000-choice sheet of near-identical rows: 17); deflate's
 * ceiling is about 1030. A part of more than 1 MB declaring more than 200 is a bomb, refused before
 * anything is inflated.
 */
const MAX_RATIO = 200;
const RATIO_FROM_BYTES = 1 << 20;

export const notXlsx = () => new HttpError(415, ApiMsg.xlsformNotXlsx);
const tooLarge = () => new HttpError(413, ApiMsg.xlsformUnpacksTooLarge);

/** What the central directory says of a part (jszip keeps it on the entry, outside its typings). */
interface Declared {
  compressedSize?: number;
  uncompressedSize?: number;
}
const declaredOf = (entry: JSZip.JSZipObject): Declared => (entry as unknown as { _data?: Declared })._data ?? {};

/**
 * The zip of an .xlsx, opened from its central directory only (nothing is inflated here), with
 * one budget of Limits.maxXlsformUnpackedBytes for every part read. Parts are inflated only when
 * asked for, so a large unrelated part (a picture, a macro, a padded custom part) costs nothing.
 */
export class XlsxZip {
  private spent = 0;
  private constructor(private readonly zip: JSZip) {}

  static async open(bytes: Uint8Array): Promise<XlsxZip> {
    let zip: JSZip;
    try {
      zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
    } catch {
      throw notXlsx();
    }
    if (Object.keys(zip.files).length > MAX_ENTRIES) throw tooLarge();
    return new XlsxZip(zip);
  }

  has(path: string): boolean {
    const entry = this.zip.file(path);
    return entry !== null && !entry.dir;
  }

  /**
   * Checks the declared sizes of the parts about to be read, all together, before inflating any:
   * their sum against the budget and each one's ratio.
   */
  checkDeclared(paths: string[]): void {
    let total = 0;
    for (const path of paths) {
      const entry = this.zip.file(path);
      if (!entry) continue;
      const { compressedSize = 0, uncompressedSize = 0 } = declaredOf(entry);
      total += uncompressedSize;
      if (uncompressedSize > RATIO_FROM_BYTES && uncompressedSize > compressedSize * MAX_RATIO) throw tooLarge();
    }
    if (total > Limits.maxXlsformUnpackedBytes) throw tooLarge();
  }

  /**
   * A part's bytes as they inflate, in pieces of at most 64 KB. The real bytes are counted, not the
   * declared ones: past the part's declared size (a lying directory) or past the budget, reading
   * stops at once.
   */
  async *read(path: string): AsyncGenerator<Buffer> {
    const entry = this.zip.file(path);
    if (!entry || entry.dir) return;
    this.checkDeclared([path]);
    const declared = declaredOf(entry).uncompressedSize;
    // jszip's stream is an old-style one (readable-stream 2): wrapped, it is async-iterable with back-pressure.
    const stream = new Readable({ highWaterMark: 1 << 16 }).wrap(entry.nodeStream('nodebuffer'));
    let size = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        this.spent += chunk.length;
        if (declared !== undefined && size > declared) throw new HttpError(413, ApiMsg.xlsformDamaged);
        if (this.spent > Limits.maxXlsformUnpackedBytes) throw tooLarge();
        yield chunk;
      }
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw notXlsx();
    } finally {
      stream.destroy();
    }
  }
}
