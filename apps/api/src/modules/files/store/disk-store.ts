import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { FileStore, StoredFile } from './file-store.js';

/** DATA_DIR/<path>: files appear there only complete (synced temp file, then rename). */
export class DiskStore implements FileStore {
  readonly kind = 'disk' as const;

  constructor(
    private readonly dataDir: string,
    private readonly db: Kysely<Database>,
  ) {}

  async save<T extends { inserted: boolean }>(file: StoredFile, tempPath: string, insertRow: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    const finalPath = join(this.dataDir, file.path);
    await rename(tempPath, finalPath);
    try {
      const result = await insertRow(this.db);
      if (!result.inserted) await unlink(finalPath);
      return result;
    } catch (err) {
      await unlink(finalPath).catch(() => undefined);
      throw err;
    }
  }

  async open(file: StoredFile): Promise<Readable | undefined> {
    const stream = createReadStream(join(this.dataDir, file.path));
    // Opening fails only if the file is missing: undefined (a 404), not a broken 200.
    return new Promise((resolve) => {
      stream.once('open', () => resolve(stream)).once('error', () => resolve(undefined));
    });
  }

  async write(file: StoredFile, bytes: Buffer): Promise<void> {
    const finalPath = join(this.dataDir, file.path);
    const temp = join(dirname(finalPath), `.tmp-${randomBytes(16).toString('hex')}`);
    try {
      await writeFile(temp, bytes, { flag: 'wx', mode: 0o600, flush: true });
      await rename(temp, finalPath);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
  }

  async remove(file: StoredFile): Promise<void> {
    await unlink(join(this.dataDir, file.path)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
}
