import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export class FileBlobsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async put(fileId: string, bytes: Buffer, replace = false): Promise<void> {
    await this.db
      .insertInto('file_blobs')
      .values({ file_id: fileId, bytes })
      .onConflict((oc) => (replace ? oc.column('file_id').doUpdateSet({ bytes }) : oc.column('file_id').doNothing()))
      .execute();
  }

  /** `length` bytes from `offset` (0-based); undefined when there is no such blob. substr is 1-based on both engines. */
  async slice(fileId: string, offset: number, length: number): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom('file_blobs')
      .select(sql<Buffer>`substr(bytes, ${offset + 1}, ${length})`.as('chunk'))
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return row && Buffer.from(row.chunk);
  }

  async remove(fileId: string): Promise<void> {
    await this.db.deleteFrom('file_blobs').where('file_id', '=', fileId).execute();
  }
}
