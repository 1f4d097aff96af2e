import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface ResumableUploadRow {
  id: string;
  metadata: string;
  size: number | null;
  upload_offset: number;
  created_at: number;
}

/** The `resumable_uploads` tables: an upload's row, and its bytes as chunk rows keyed by offset. */
export class ResumableRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(row: { id: string; metadata: string; size: number | null; created_at: number }): Promise<void> {
    await this.db.insertInto('resumable_uploads').values(row).execute();
  }

  find(id: string): Promise<ResumableUploadRow | undefined> {
    return this.db.selectFrom('resumable_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Appends `bytes` at `offset` and moves the upload's offset past them, in one transaction: false
   * (nothing written) when the upload is gone, holds other bytes there, or would outgrow its length.
   */
  append(id: string, offset: number, bytes: Buffer): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const end = offset + bytes.length;
      const moved = await trx
        .updateTable('resumable_uploads')
        .set({ upload_offset: end })
        .where('id', '=', id)
        .where('upload_offset', '=', offset)
        .where((eb) => eb.or([eb('size', 'is', null), eb('size', '>=', end)]))
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      await trx.insertInto('resumable_upload_chunks').values({ upload_id: id, chunk_offset: offset, bytes }).execute();
      return true;
    });
  }

  /** The first chunk starting at or after `offset`, or undefined past the last. */
  chunkFrom(id: string, offset: number): Promise<{ chunk_offset: number; bytes: Buffer } | undefined> {
    return this.db
      .selectFrom('resumable_upload_chunks')
      .select(['chunk_offset', 'bytes'])
      .where('upload_id', '=', id)
      .where('chunk_offset', '>=', offset)
      .orderBy('chunk_offset')
      .limit(1)
      .executeTakeFirst();
  }

  async setSize(id: string, size: number): Promise<boolean> {
    const res = await this.db.updateTable('resumable_uploads').set({ size }).where('id', '=', id).where('size', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Removes the upload and (by the foreign key's cascade) its chunks; true when there was one. */
  async remove(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('resumable_uploads').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /** Removes every upload created before `cutoff` (epoch ms); answers how many. */
  async removeCreatedBefore(cutoff: number): Promise<number> {
    const res = await this.db.deleteFrom('resumable_uploads').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
