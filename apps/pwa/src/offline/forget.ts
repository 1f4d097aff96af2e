import { accountKey, type AccountKey, db, metaKey } from './db';
import { draftOwner } from './drafts';
import { forgetAccountKey } from './vault';

/**
 * Removes an account from this phone for good: its key first (vault.ts), so whatever a crash
 * leaves behind is ciphertext nobody can open, then its outbox (sent or not), drafts, photos,
 * statuses, cached surveys and meta. Unsent work goes with it: the screen offers Save to file first.
 */
export async function forgetAccountData(account: AccountKey): Promise<void> {
  const key = accountKey(account);
  await forgetAccountKey(key);
  await db.transaction('rw', [db.outbox, db.drafts, db.photos, db.statuses, db.surveys, db.datasets, db.meta, db.accounts], async () => {
    const ids = (await db.outbox.where('[account+createdAt]').between([key, -Infinity], [key, Infinity]).primaryKeys()).map(String);
    await db.photos.where('owner').anyOf(ids).delete();
    await db.photos.where('owner').startsWith(draftOwner(key, '')).delete();
    await db.outbox.bulkDelete(ids);
    await db.drafts.where('account').equals(key).delete();
    await db.statuses.where('account').equals(key).delete();
    await db.surveys.where('account').equals(key).delete();
    await db.datasets.filter((d) => d.account === key).delete();
    await db.accounts.delete(key);
    await db.meta.bulkDelete([metaKey.lease(key), metaKey.lastSyncAt(key), metaKey.changesCursor(key), metaKey.earnings(key), metaKey.myResponses(key)]);
    await db.meta.where('key').startsWith(metaKey.tusUpload(key, '', '', '').split('|')[0]! + '|').delete();
  });
}
