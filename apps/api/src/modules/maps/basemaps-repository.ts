import type { Insertable, Kysely } from 'kysely';
import type { BasemapsTable, Database } from '../../db/schema.js';

/** The organizations' basemap rows. */
export class BasemapsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  latest(organizationId: string) {
    return this.db.selectFrom('basemaps').select(['id', 'name', 'size', 'created_at']).where('organization_id', '=', organizationId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  }

  find(id: string) {
    return this.db.selectFrom('basemaps').select(['id', 'size', 'store', 'path']).where('id', '=', id).executeTakeFirst();
  }

  /** Inserts the new row and deletes the organization's others in one transaction; answers the deleted ones (their bytes go next). */
  async replace(organizationId: string, row: Omit<Insertable<BasemapsTable>, 'organization_id'>) {
    return this.db.transaction().execute(async (trx) => {
      const older = await trx.selectFrom('basemaps').select(['id', 'store', 'path']).where('organization_id', '=', organizationId).execute();
      await trx.insertInto('basemaps').values({ ...row, organization_id: organizationId }).execute();
      if (older.length > 0) await trx.deleteFrom('basemaps').where('id', 'in', older.map((o) => o.id)).execute();
      return older;
    });
  }
}
