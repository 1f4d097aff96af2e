import type { Kysely } from 'kysely';
import type { Database, DeviceStatusTable } from '../../db/schema.js';

export class DevicesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The latest report per account and device; an older report arriving late never overwrites a newer one. */
  async upsert(row: DeviceStatusTable): Promise<void> {
    const { user_id: _u, device_id: _d, ...fields } = row;
    await this.db
      .insertInto('device_status')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'device_id']).doUpdateSet(fields).where('device_status.reported_at', '<=', row.reported_at))
      .execute();
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
