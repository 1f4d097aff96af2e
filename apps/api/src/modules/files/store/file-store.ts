import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { FileStoreKind } from '../../../config.js';
import type { Database } from '../../../db/schema.js';

/**
 * Where photo bytes live. `files.store` names the store of each photo, so reads find photos of
 * every store while `files:migrate` moves them; new photos go to the configured one:
 * - disk: DATA_DIR/uploads (one instance, the SQLite default);
 * - postgres: the `file_blobs` table, in the transaction of the photo's row (default with DATABASE_URL);
 * - s3: an S3-compatible bucket (S3_BUCKET and friends).
 */
export type StoreKind = FileStoreKind;
export const STORE_KINDS: readonly StoreKind[] = ['disk', 'postgres', 's3'];

/** A photo as the stores know it: its id and its relative path (`uploads/<id>.<ext>`, also the object key). */
export interface StoredFile {
  id: string;
  path: string;
}

export interface FileStore {
  readonly kind: StoreKind;
  /**
   * Keeps the (synced) temp file's bytes for `file` and runs `insertRow`, so that a row that exists
   * always has its bytes: disk and s3 write the bytes first and remove them if no row was inserted
   * (a retried upload); postgres writes both in one transaction. Never keeps the temp file.
   */
  save<T extends { inserted: boolean }>(file: StoredFile, tempPath: string, insertRow: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /** The bytes, streamed; undefined when this store does not hold them. */
  open(file: StoredFile): Promise<Readable | undefined>;
  /** Writes the bytes of a photo whose row exists (files:migrate); durable when it resolves. */
  write(file: StoredFile, bytes: Buffer): Promise<void>;
  remove(file: StoredFile): Promise<void>;
}
