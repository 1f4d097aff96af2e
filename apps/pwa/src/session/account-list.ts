import { Limits, Msg } from '@survey-bird/contracts';
import { accountKey } from './account-key';

/**
 * The accounts signed in on this browser (spec section 3), kept in localStorage under
 * ACCOUNTS_STORAGE_KEY as `[{ user, token }]` (the spec's key: `user` holds the e-mail). The first
 * entry is the active account: its token goes with every API call. These functions are pure;
 * account-storage.ts persists their results.
 */
export interface StoredAccount {
  email: string;
  token: string;
}

/** The stored JSON of one account, in the spec's shape. */
interface StoredJson {
  user: string;
  token: string;
}

export type AddResult = { ok: true; accounts: StoredAccount[] } | { ok: false; msg: string };

const sameUser = (a: string, b: string) => accountKey(a) === accountKey(b);

function isAccount(value: unknown): value is StoredJson {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.user === 'string' && v.user !== '' && typeof v.token === 'string' && v.token !== '';
}

/** A corrupt or foreign value is discarded and treated as no accounts. */
export function parseAccounts(raw: string | null): StoredAccount[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value) || !value.every(isAccount)) return [];
    return value.slice(0, Limits.maxAccounts).map(({ user, token }) => ({ email: user, token }));
  } catch {
    return [];
  }
}

/** The list as stored: the spec's `[{ user, token }]`. */
export function serializeAccounts(accounts: readonly StoredAccount[]): string {
  return JSON.stringify(accounts.map(({ email, token }): StoredJson => ({ user: email, token })));
}

export function hasAccount(accounts: readonly StoredAccount[], email: string): boolean {
  return accounts.some((a) => sameUser(a.email, email));
}

/** A new account is refused at the limit; signing in again as a stored account always works. */
export function canAdd(accounts: readonly StoredAccount[], email?: string): boolean {
  return accounts.length < Limits.maxAccounts || (email !== undefined && hasAccount(accounts, email));
}

/** Login: the account goes to the front, replacing an entry with the same e-mail. */
export function addAccount(accounts: readonly StoredAccount[], account: StoredAccount): AddResult {
  if (!canAdd(accounts, account.email)) return { ok: false, msg: Msg.tooManyAccounts };
  return { ok: true, accounts: [account, ...accounts.filter((a) => !sameUser(a.email, account.email))] };
}

/** Switching: the chosen account moves to the front; an unknown e-mail changes nothing. */
export function switchTo(accounts: readonly StoredAccount[], email: string): StoredAccount[] {
  const chosen = accounts.find((a) => sameUser(a.email, email));
  return chosen ? [chosen, ...accounts.filter((a) => a !== chosen)] : [...accounts];
}

export function removeAccount(accounts: readonly StoredAccount[], email: string): StoredAccount[] {
  return accounts.filter((a) => !sameUser(a.email, email));
}
