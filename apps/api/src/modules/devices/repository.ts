import type { Kysely } from 'kysely';
import { Role } from '@survey-bird/contracts';
import type { Database, DeviceStatusTable, SyncDigestsTable } from '../../db/schema.js';

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

  /**
   * The sync digest's (supervisor, field user) pairs through active invitations on open surveys,
   * for the supervisors not checked on `day` and not opted out; `days` is the lowest threshold.
   */
  digestPairs(day: string) {
    return this.db.selectFrom('members as s')
      .innerJoin('members as f', 'f.supervisor_id', 's.id')
      .innerJoin('surveys as v', 'v.id', 's.survey_id')
      .innerJoin('organizations as o', 'o.id', 'v.organization_id')
      .select(['s.user_id as supervisor', 'f.user_id as fieldUser'])
      .select((eb) => [eb.fn.max('f.full_name').as('name'), eb.fn.min('o.stale_sync_days').as('days')])
      .where('s.role', '=', Role.supervisor).where('s.withdrawn_at', 'is', null).where('s.user_id', 'is not', null)
      .where('f.role', '=', Role.fieldUser).where('f.withdrawn_at', 'is', null).where('f.user_id', 'is not', null)
      .where('v.closed_at', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('sync_digests as d').select('d.user_id').whereRef('d.user_id', '=', 's.user_id').where('d.day', '=', day))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('supervisor_settings as p').select('p.user_id').whereRef('p.user_id', '=', 's.user_id').where('p.sync_digest', '=', 0))))
      .groupBy(['s.user_id', 'f.user_id'])
      .execute();
  }

  /** Every device report of these accounts (up to 500 per query). */
  async reportsOf(userIds: string[]) {
    const rows = [];
    for (let i = 0; i < userIds.length; i += 500) {
      rows.push(...await this.db.selectFrom('device_status').select(['user_id', 'app_version', 'waiting', 'failed', 'photos_waiting', 'last_sync_at', 'reported_at']).where('user_id', 'in', userIds.slice(i, i + 500)).execute());
    }
    return rows;
  }

  /** Claims a supervisor's digest of a day; a claim already there is kept. */
  async claimDigest(row: SyncDigestsTable): Promise<void> {
    await this.db.insertInto('sync_digests').values(row).onConflict((oc) => oc.columns(['user_id', 'day']).doNothing()).execute();
  }

  /** The day's claims not yet mailed, with the supervisor's address. */
  /** A supervisor's app language: the digest's text is written in it when claimed. */
  async languageOf(userId: string): Promise<string | undefined> {
    return (await this.db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst())?.language;
  }

  dueDigests(day: string) {
    return this.db.selectFrom('sync_digests as d').innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.user_id', 'd.day', 'd.field_users', 'd.text', 'u.email', 'u.language']).where('d.day', '=', day).where('d.mailed_at', 'is', null).execute();
  }

  /** Marks a claim mailed where it was not yet; whether this caller took it. */
  async takeDigest(userId: string, day: string, now: number): Promise<boolean> {
    const taken = await this.db.updateTable('sync_digests').set({ mailed_at: now }).where('user_id', '=', userId).where('day', '=', day).where('mailed_at', 'is', null).executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }
}
