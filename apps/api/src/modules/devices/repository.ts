import type { Kysely } from 'kysely';
import type { Database, DeviceStatusTable } from '../../db/schema.js';

export class DevicesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The latest report per account and device; an older report arriving late never overwrites a
   * newer one. Then only the account's `keep` most recently reported devices remain.
   */
  async upsert(row: DeviceStatusTable, keep: number): Promise<void> {
    const { user_id: _u, device_id: _d, ...fields } = row;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('device_status')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'device_id']).doUpdateSet(fields).where('device_status.reported_at', '<=', row.reported_at))
        .execute();
      const kept = trx.selectFrom('device_status').select('device_id').where('user_id', '=', row.user_id)
        .orderBy('reported_at', 'desc').orderBy('device_id', 'desc').limit(keep);
      await trx.deleteFrom('device_status').where('user_id', '=', row.user_id).where('device_id', 'not in', kept).execute();
    });
  }

  /** The caller's own row, keyed by the session's user: there is no id to pass for anyone else's. */
  supervisorSettings(userId: string) {
    return this.db.selectFrom('supervisor_settings').select('sync_digest').where('user_id', '=', userId).executeTakeFirst();
  }

  async setSyncDigest(userId: string, on: boolean, now: number): Promise<void> {
    const sync_digest = on ? 1 : 0;
    await this.db
      .insertInto('supervisor_settings')
      .values({ user_id: userId, sync_digest, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ sync_digest, updated_at: now }))
      .execute();
  }
}
