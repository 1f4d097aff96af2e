import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { LeaseStore } from './lease-store.js';

/** Rows of `leases`; taking one is a single upsert that only overwrites an expired row. */
export class DbLeaseStore implements LeaseStore {
  constructor(private readonly db: Kysely<Database>) {}

  async acquire(key: string, holder: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const row = await this.db
      .insertInto('leases')
      .values({ key, holder, expires_at: now + ttlMs })
      .onConflict((oc) => oc.column('key').doUpdateSet({ holder, expires_at: now + ttlMs }).where(sql.ref('leases.expires_at'), '<=', now))
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  async renew(key: string, holder: string, ttlMs: number): Promise<boolean> {
    const result = await this.db.updateTable('leases').set({ expires_at: Date.now() + ttlMs }).where('key', '=', key).where('holder', '=', holder).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async release(key: string, holder: string): Promise<void> {
    await this.db.deleteFrom('leases').where('key', '=', key).where('holder', '=', holder).execute();
  }

  async close(): Promise<void> {}
}
