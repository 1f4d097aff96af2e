import { accountKey, type AccountKey, db } from './db';

/**
 * The account's responses the office returned for fixing and whose fix is not on its way: the
 * changes feed's `returned` rows (statuses.ts) minus those a fix in the outbox (`revisionOf`, not yet
 * received) answers. The sync strip shows it on every field-user screen, so it lives here, in the
 * form's chunk, rather than in statuses.ts (the Earnings screen's): two indexed reads.
 */
export async function returnedToFix(account: AccountKey): Promise<string[]> {
  const key = accountKey(account);
  const [statuses, records] = await Promise.all([
    db.statuses.where('account').equals(key).filter((s) => s.status === 'returned').toArray(),
    db.outbox.where('[account+createdAt]').between([key, -Infinity], [key, Infinity]).filter((r) => r.revisionOf !== undefined && r.status !== 'synced').toArray(),
  ]);
  const fixing = new Set(records.map((r) => r.revisionOf));
  return statuses.filter((s) => !fixing.has(s.id)).map((s) => s.id);
}
