import type { StoredAccount } from '../session/account-list';
import { accountKey, type AccountKey, db } from './db';

/**
 * The service worker cannot read localStorage, where the page keeps the signed-in accounts
 * (session/account-storage.ts). The page mirrors them here; the worker syncs whatever is mirrored.
 * A signed-out account disappears from the mirror but its outbox stays: it is sent after the
 * next sign-in of that account.
 */
export async function mirrorAccounts(accounts: readonly StoredAccount[]): Promise<void> {
  await db.transaction('rw', db.accounts, async () => {
    const existing = new Map((await db.accounts.toArray()).map((row) => [row.account, row]));
    const keep = new Set<string>();
    for (const { email: user, token } of accounts) {
      const account = accountKey(user);
      if (keep.has(account)) continue;
      keep.add(account);
      const before = existing.get(account);
      // A 401 is remembered per token: the same token stays paused, a new sign-in resumes syncing.
      const rejectedToken = before?.rejectedToken === token ? token : undefined;
      if (before && before.token === token && before.user === user && before.rejectedToken === rejectedToken) continue;
      await db.accounts.put(rejectedToken ? { account, user, token, rejectedToken } : { account, user, token });
    }
    const gone = [...existing.keys()].filter((account) => !keep.has(account));
    if (gone.length > 0) await db.accounts.bulkDelete(gone);
  });
}

export async function mirroredAccounts(): Promise<StoredAccount[]> {
  return (await db.accounts.toArray()).map(({ user, token }) => ({ email: user, token }));
}

/** The server answered 401 to this token: stop syncing the account until another token is mirrored. */
export async function rejectToken(account: AccountKey, token: string): Promise<void> {
  const key = accountKey(account);
  await db.transaction('rw', db.accounts, async () => {
    const row = await db.accounts.get(key);
    await db.accounts.put({ ...(row ?? { account: key, user: account, token }), rejectedToken: token });
  });
}

export async function isTokenRejected(account: AccountKey, token: string): Promise<boolean> {
  return (await db.accounts.get(accountKey(account)))?.rejectedToken === token;
}

/** Accounts that need to sign in again before their responses can be sent. */
export async function accountsNeedingSignIn(): Promise<string[]> {
  return (await db.accounts.toArray()).filter((row) => row.rejectedToken !== undefined && row.rejectedToken === row.token).map((row) => row.account);
}
