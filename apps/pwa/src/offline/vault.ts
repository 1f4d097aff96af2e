import { accountKey, type AccountKey, db, type Sealed } from './db';

/**
 * Encryption at rest of what the phone holds of a field user's work: the answers of drafts, of
 * outbox records (with their capture meta: the GPS fix) and of returned responses, and the bytes of
 * photos are kept in IndexedDB as AES-GCM ciphertext (256-bit key, a fresh 96-bit random IV per
 * value) under the account's own key. The key is a WebCrypto key made non-extractable and kept
 * in the `keys` table: page script can use it but never read its bytes, and deleting the row
 * (forgetAccountKey) leaves the ciphertext of that account unreadable. docs/security.md says what
 * this does and does not protect against.
 *
 * Encryption is async WebCrypto, and an IndexedDB transaction commits as soon as it waits on
 * anything else: callers seal before they open their transaction and open after it closed;
 * transitions inside a transaction copy the sealed value as it is.
 *
 * Where WebCrypto is missing (an insecure http origin, which cannot run the service worker
 * either) values are kept in clear rather than refused: losing a response is worse.
 */

const subtle = (): SubtleCrypto | undefined => (enabled ? globalThis.crypto?.subtle : undefined);
let enabled = true;
const keys = new Map<string, Promise<CryptoKey | undefined>>();

/** For tests of the clear-text fallback (a browser without WebCrypto) and of upgrades from it. */
export function setSealingForTests(on: boolean): void {
  enabled = on;
  keys.clear();
  opened.clear();
}

/** For tests: the database was deleted, so the remembered keys are gone. */
export function resetVaultCache(): void {
  keys.clear();
  opened.clear();
}

export const sealingAvailable = (): boolean => subtle() !== undefined;

async function loadOrCreate(account: AccountKey): Promise<CryptoKey | undefined> {
  const crypto = subtle();
  if (!crypto) return undefined;
  const found = await db.keys.get(account);
  if (found) return found.key;
  const made = await crypto.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  // Two tabs may make one at once: the first stored wins, the other is dropped before any use.
  return db.transaction('rw', db.keys, async () => {
    const again = await db.keys.get(account);
    if (again) return again.key;
    await db.keys.add({ account, key: made, createdAt: Date.now() });
    return made;
  });
}

/** The account's key, made on first use; undefined without WebCrypto. */
export function accountCryptoKey(account: AccountKey, create = true): Promise<CryptoKey | undefined> {
  const key = accountKey(account);
  const known = keys.get(key);
  if (known) return known;
  if (!create) {
    return db.keys.get(key).then((row) => {
      if (row) keys.set(key, Promise.resolve(row.key));
      return row?.key;
    }, () => undefined);
  }
  const loading = loadOrCreate(key).catch((err: unknown) => {
    keys.delete(key);
    throw err;
  });
  keys.set(key, loading);
  return loading;
}

const newIv = () => globalThis.crypto.getRandomValues(new Uint8Array(12));

/** Bytes as ciphertext under the account's key; undefined without WebCrypto (the caller keeps them in clear). */
export async function sealBytes(account: AccountKey, bytes: BufferSource): Promise<Sealed | undefined> {
  const key = await accountCryptoKey(account);
  if (!key) return undefined;
  const iv = newIv();
  return { iv, data: await subtle()!.encrypt({ name: 'AES-GCM', iv }, key, bytes) };
}

export class SealedUnreadableError extends Error {
  override name = 'SealedUnreadableError';
  constructor() {
    super('This data was saved under a key this phone no longer has');
  }
}

export async function openBytes(account: AccountKey, sealed: Sealed): Promise<ArrayBuffer> {
  const key = await accountCryptoKey(account, false);
  const crypto = globalThis.crypto?.subtle;
  if (!key || !crypto) throw new SealedUnreadableError();
  try {
    // Promise.resolve: keeps Dexie's live queries tracking across a non-Dexie await (dexie-react-hooks' rule).
    return await Promise.resolve(crypto.decrypt({ name: 'AES-GCM', iv: sealed.iv as Uint8Array<ArrayBuffer> }, key, sealed.data));
  } catch {
    throw new SealedUnreadableError();
  }
}

/**
 * Decrypted JSON by IV (unique per sealed value, so never stale): the Responses and Earnings lists
 * re-read every record on each change, and a decrypt is a round trip to the browser's crypto
 * thread. Plaintext kept in memory only, like the screens' own state; bounded.
 */
const opened = new Map<string, string>();
const OPENED_MAX = 4000;
const ivKey = (iv: Uint8Array) => String.fromCharCode(...iv);

export async function sealJson(account: AccountKey, value: unknown): Promise<Sealed | undefined> {
  const text = JSON.stringify(value);
  const sealed = await sealBytes(account, new TextEncoder().encode(text));
  if (sealed) remember(ivKey(sealed.iv), text);
  return sealed;
}

function remember(key: string, text: string) {
  if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
  opened.set(key, text);
}

export async function openJson<T>(account: AccountKey, sealed: Sealed): Promise<T> {
  const k = ivKey(sealed.iv);
  let text = opened.get(k);
  if (text === undefined) {
    text = new TextDecoder().decode(await openBytes(account, sealed));
    remember(k, text);
  }
  return JSON.parse(text) as T;
}

/** Removing an account from the phone: its key goes, so what is left of its data cannot be read. */
export async function forgetAccountKey(account: AccountKey): Promise<void> {
  const key = accountKey(account);
  keys.delete(key);
  opened.clear();
  await db.keys.delete(key);
}
