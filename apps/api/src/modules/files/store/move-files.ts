import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../../db/database.js';
import { FilesRepository } from '../files-repository.js';
import type { FileStores, StoreKind } from './index.js';
import { STORE_KINDS } from './file-store.js';

export interface MoveReport {
  moved: number;
  /** Photos left where they were, with the reason (bytes missing, or not matching their SHA-256). */
  failed: { id: string; reason: string }[];
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Moves every photo not yet in store `to` there, one at a time: read from its store and check
 * against the row's SHA-256, write to `to`, read back and check again, then point the row at `to`
 * and delete the old copy. Stopped at any point, a run leaves every photo readable (the row names a
 * store holding its bytes) and the next run goes on from where it stopped.
 */
export async function moveFiles(db: Db, stores: FileStores, to: StoreKind, onProgress: (done: number) => void = () => undefined): Promise<MoveReport> {
  const repo = new FilesRepository(db.kysely);
  const target = stores.get(to);
  const report: MoveReport = { moved: 0, failed: [] };
  let after = '';
  for (;;) {
    const batch = await repo.notIn(to, after, 100);
    if (batch.length === 0) return report;
    for (const row of batch) {
      after = row.id;
      if (!(STORE_KINDS as readonly string[]).includes(row.store)) {
        report.failed.push({ id: row.id, reason: `unknown store ${row.store}` });
        continue;
      }
      const source = stores.get(row.store as StoreKind);
      const stream = await source.open(row);
      const bytes = stream && (await bytesOf(stream));
      if (!bytes) {
        report.failed.push({ id: row.id, reason: `missing from ${row.store}` });
        continue;
      }
      if (sha256(bytes) !== row.sha256) {
        report.failed.push({ id: row.id, reason: `bytes in ${row.store} do not match the SHA-256 of the row` });
        continue;
      }
      await target.write(row, bytes);
      const copy = await target.open(row);
      if (!copy || sha256(await bytesOf(copy)) !== row.sha256) {
        report.failed.push({ id: row.id, reason: `the copy in ${to} does not match the SHA-256 of the row` });
        continue;
      }
      await repo.setStore(row.id, to);
      await source.remove(row);
      report.moved++;
      onProgress(report.moved);
    }
  }
}
