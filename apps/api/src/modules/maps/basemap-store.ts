import { createReadStream } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Db } from '../../db/database.js';
import type { FileStores, StoreKind } from '../files/store/index.js';
import { S3Store } from '../files/store/s3-store.js';

/** The database store's chunk: a range request reads the few chunks it covers, an upload holds one at a time. */
export const CHUNK_BYTES = 1024 * 1024;

export interface StoredBasemap {
  id: string;
  store: string;
  path: string;
}

/**
 * A basemap's bytes in the configured file store (the photos' store): DATA_DIR/basemaps on disk,
 * `basemap_chunks` rows in the database, or the object `basemaps/<id>.pmtiles` in S3. Reads
 * are by byte range, as the PMTiles reader asks for them.
 */
export class BasemapBytes {
  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly stores: FileStores,
  ) {}

  /** Moves the temp file into the current store; answers where it went. */
  async put(id: string, tempPath: string): Promise<{ store: StoreKind; path: string }> {
    const kind = this.stores.current.kind;
    const path = `basemaps/${id}.pmtiles`;
    if (kind === 'disk') {
      await mkdir(join(this.dataDir, 'basemaps'), { recursive: true, mode: 0o700 });
      await rename(tempPath, join(this.dataDir, path));
      return { store: kind, path };
    }
    try {
      if (kind === 's3') await this.s3().putObject(path, tempPath);
      else await this.putChunks(id, tempPath);
    } finally {
      await unlink(tempPath).catch(() => undefined);
    }
    return { store: kind, path };
  }

  private s3(): S3Store {
    const store = this.stores.get('s3');
    if (!(store instanceof S3Store)) throw new Error('the s3 store is not an S3Store');
    return store;
  }

  private async putChunks(id: string, tempPath: string): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      let seq = 0;
      for await (const chunk of createReadStream(tempPath, { highWaterMark: CHUNK_BYTES })) {
        await trx.insertInto('basemap_chunks').values({ basemap_id: id, seq, bytes: chunk as Buffer }).execute();
        seq += 1;
      }
    });
  }

  /** Bytes `start` to `end`, inclusive; undefined when the store does not hold them. */
  async read(b: StoredBasemap, start: number, end: number): Promise<Readable | undefined> {
    if (b.store === 'disk') {
      const stream = createReadStream(join(this.dataDir, b.path), { start, end });
      return new Promise((resolve) => {
        stream.once('open', () => resolve(stream)).once('error', () => resolve(undefined));
      });
    }
    if (b.store === 's3') return this.s3().openRange(b.path, start, end);
    return this.readChunks(b.id, start, end);
  }

  private async readChunks(id: string, start: number, end: number): Promise<Readable | undefined> {
    const first = Math.floor(start / CHUNK_BYTES);
    const last = Math.floor(end / CHUNK_BYTES);
    const k = this.db.kysely;
    const chunkAt = async (seq: number) => (await k.selectFrom('basemap_chunks').select('bytes').where('basemap_id', '=', id).where('seq', '=', seq).executeTakeFirst())?.bytes;
    const head = await chunkAt(first);
    if (!head) return undefined;
    async function* slices(): AsyncGenerator<Buffer> {
      let chunk: Buffer | undefined = Buffer.from(head!);
      for (let seq = first; seq <= last && chunk; seq++) {
        const from = seq === first ? start - seq * CHUNK_BYTES : 0;
        const to = seq === last ? end - seq * CHUNK_BYTES + 1 : chunk.length;
        yield chunk.subarray(from, to);
        if (seq < last) {
          const next = await chunkAt(seq + 1);
          chunk = next ? Buffer.from(next) : undefined;
        }
      }
    }
    return Readable.from(slices(), { objectMode: false });
  }

  async remove(b: StoredBasemap): Promise<void> {
    if (b.store === 'disk') {
      await unlink(join(this.dataDir, b.path)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    } else if (b.store === 's3') await this.s3().remove({ id: b.id, path: b.path });
    else await this.db.kysely.deleteFrom('basemap_chunks').where('basemap_id', '=', b.id).execute();
  }
}
