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
}
