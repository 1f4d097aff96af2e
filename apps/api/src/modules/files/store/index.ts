import type { Config } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import { DatabaseStore } from './database-store.js';
import { DiskStore } from './disk-store.js';
import type { FileStore, StoreKind } from './file-store.js';
import { S3Store } from './s3-store.js';

export type { FileStore, StoreKind, StoredFile } from './file-store.js';
export { STORE_KINDS } from './file-store.js';

/** The store new photos go to, and every store a row may name (built on first use: S3 only when asked for). */
export class FileStores {
  private readonly built = new Map<StoreKind, FileStore>();

  constructor(
    private readonly config: Config,
    private readonly db: Db,
  ) {}

  get current(): FileStore {
    return this.get(this.config.fileStore);
  }

  get(kind: StoreKind): FileStore {
    let store = this.built.get(kind);
    if (!store) {
      store = this.build(kind);
      this.built.set(kind, store);
    }
    return store;
  }

  close(): void {
    for (const store of this.built.values()) if (store instanceof S3Store) store.close();
  }

  private build(kind: StoreKind): FileStore {
    if (kind === 'disk') return new DiskStore(this.config.dataDir, this.db.kysely);
    if (kind === 'postgres') return new DatabaseStore(this.db.kysely);
    if (!this.config.s3) throw new Error('S3_BUCKET is not set: the s3 file store needs S3_BUCKET (and S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)');
    return new S3Store(this.config.s3, this.db.kysely);
  }
}
