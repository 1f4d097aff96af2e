import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { FileBlobsRepository } from './file-blobs-repository.js';
import type { FileStore, StoredFile } from './file-store.js';

/** 256 KB per query: a 10 MB photo is 40 round trips, and no reader holds a whole photo in memory. */
const SLICE = 256 * 1024;

/**
 * Photo bytes in the `file_blobs` table of the application database (the 'postgres' store; the same
 * SQL runs on SQLite, where the tests also use it). Every instance reads every photo, the bytes
 * commit with their row, and a `pg_dump` backs up both together.
 */
export class DatabaseStore implements FileStore {
  readonly kind = 'postgres' as const;
  private readonly blobs: FileBlobsRepository;

  constructor(private readonly db: Kysely<Database>) {
    this.blobs = new FileBlobsRepository(db);
  }

  async save<T extends { inserted: boolean }>(file: StoredFile, tempPath: string, insertRow: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    const bytes = await readFile(tempPath);
    return this.db.transaction().execute(async (trx) => {
      const result = await insertRow(trx);
      if (result.inserted) await new FileBlobsRepository(trx).put(file.id, bytes);
      return result;
    });
  }

  async open(file: StoredFile): Promise<Readable | undefined> {
    const first = await this.blobs.slice(file.id, 0, SLICE);
    if (!first) return undefined;
    const blobs = this.blobs;
    async function* rest(): AsyncGenerator<Buffer> {
      let chunk: Buffer | undefined = first;
      let offset = 0;
      while (chunk && chunk.length > 0) {
        yield chunk;
        if (chunk.length < SLICE) return;
        offset += chunk.length;
        chunk = await blobs.slice(file.id, offset, SLICE);
      }
    }
    return Readable.from(rest(), { objectMode: false });
  }

  write(file: StoredFile, bytes: Buffer): Promise<void> {
    return this.blobs.put(file.id, bytes, true);
  }

  remove(file: StoredFile): Promise<void> {
    return this.blobs.remove(file.id);
  }
}
