import type { Kysely } from 'kysely';
import type { Database, FileRow } from '../../db/schema.js';

export type NewFile = FileRow;

export class FilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stores the row unless (user_id, client_id, question) is already taken; answers the row that
   * now holds that key, so a retried upload gets the first upload's id back.
   */
  async insertOnce(file: NewFile): Promise<{ row: Pick<FileRow, 'id' | 'path'>; inserted: boolean }> {
    const inserted = await this.db
      .insertInto('files')
      .values(file)
      .onConflict((oc) => oc.columns(['user_id', 'client_id', 'question']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { row: { id: file.id, path: file.path }, inserted: true };
    const existing = await this.db
      .selectFrom('files')
      .select(['id', 'path'])
      .where('user_id', '=', file.user_id)
      .where('client_id', '=', file.client_id)
      .where('question', '=', file.question)
      .executeTakeFirstOrThrow();
    return { row: existing, inserted: false };
  }

  find(id: string): Promise<Pick<FileRow, 'id' | 'path' | 'mime' | 'size' | 'store'> | undefined> {
    return this.db.selectFrom('files').select(['id', 'path', 'mime', 'size', 'store']).where('id', '=', id).executeTakeFirst();
  }

  /** The next `limit` photos after `afterId` not in store `to` (files:migrate walks them by id). */
  notIn(to: string, afterId: string, limit: number): Promise<Pick<FileRow, 'id' | 'path' | 'sha256' | 'store'>[]> {
    return this.db.selectFrom('files').select(['id', 'path', 'sha256', 'store']).where('store', '!=', to).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  async setStore(id: string, store: string): Promise<void> {
    await this.db.updateTable('files').set({ store }).where('id', '=', id).execute();
  }

  /** Which of these ids have a row. */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('files').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }
}
