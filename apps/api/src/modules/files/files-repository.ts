import type { Kysely } from 'kysely';
import { Role } from '@survey-bird/contracts';
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

  /**
   * The photo if `caller` may see it: a field user their own uploads; a supervisor the uploads of
   * the field users assigned to them on that survey; an organization account its surveys' photos.
   * Anyone else, or another organization's photo: undefined (a 404, the photo's existence unsaid).
   */
  findFor(id: string, caller: { userId: string; role: string; organizationId: string | null; surveys?: 'all' | readonly string[] }): Promise<Pick<FileRow, 'id' | 'path' | 'mime' | 'size' | 'store'> | undefined> {
    const q = this.db.selectFrom('files as f').select(['f.id', 'f.path', 'f.mime', 'f.size', 'f.store']).where('f.id', '=', id);
    // Their photos only: an audio audit clip (question '') is never played back to the field user who recorded it.
    if (caller.role === Role.fieldUser) return q.where('f.user_id', '=', caller.userId).where('f.question', '!=', '').executeTakeFirst();
    if (caller.role === Role.organization && caller.organizationId) {
      const own = q.innerJoin('surveys as s', 's.id', 'f.survey_id').where('s.organization_id', '=', caller.organizationId);
      // A survey-limited office user sees only their surveys' photos.
      const limited = caller.surveys !== undefined && caller.surveys !== 'all' ? caller.surveys : null;
      if (limited !== null && limited.length === 0) return Promise.resolve(undefined);
      return (limited === null ? own : own.where('f.survey_id', 'in', limited)).executeTakeFirst();
    }
    if (caller.role === Role.supervisor) {
      return q
        .where((eb) => eb.exists(
          eb.selectFrom('members as fu')
            .innerJoin('members as sup', 'sup.id', 'fu.supervisor_id')
            .select('fu.id')
            .whereRef('fu.survey_id', '=', 'f.survey_id')
            .whereRef('fu.user_id', '=', 'f.user_id')
            .where('fu.role', '=', Role.fieldUser)
            .where('sup.user_id', '=', caller.userId)
            .where('sup.role', '=', Role.supervisor)
            .where('sup.withdrawn_at', 'is', null),
        ))
        .executeTakeFirst();
    }
    return Promise.resolve(undefined);
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
