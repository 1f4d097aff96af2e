import { E2E_ALGORITHM, type EncryptedAnswers } from './schemas/encrypted.js';

/**
 * End-to-end encryption of a survey's answers, in WebCrypto only (browsers and Node alike):
 *
 * - The office makes an RSA-OAEP 3072-bit key pair (SHA-256) in the browser. The public key goes
 *   to the survey; the private key leaves the browser only inside a key file, encrypted with
 *   AES-256-GCM under a key derived from a passphrase (PBKDF2-SHA-256, 600,000 iterations).
 * - A phone seals each response with a fresh AES-256-GCM key and a random 96-bit IV, and wraps
 *   that key with RSA-OAEP to the public key: one envelope per response (EncryptedAnswers).
 * - The office loads the key file with its passphrase and opens envelopes in the browser.
 *
 * Loaded lazily by the PWA (only encrypted surveys pay for it).
 */

export const KEY_FILE_FORMAT = 'survey-bird-survey-key' as const;
const PBKDF2_ITERATIONS = 600_000;
const RSA = { name: 'RSA-OAEP', hash: 'SHA-256' } as const;

/** The private key as the office downloads it: nothing in it is readable without the passphrase. */
export interface SurveyKeyFile {
  format: typeof KEY_FILE_FORMAT;
  alg: typeof E2E_ALGORITHM;
  kid: string;
  /** SPKI, base64: the key the survey was given. */
  publicKey: string;
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number; salt: string };
  iv: string;
  /** AES-256-GCM ciphertext of the private key's PKCS#8 bytes. */
  data: string;
  createdAt: string;
}

export class WrongPassphraseError extends Error {
  override name = 'WrongPassphraseError';
  constructor() {
    super('The passphrase does not open this key file');
  }
}

export class NotThisKeyError extends Error {
  override name = 'NotThisKeyError';
  constructor(kid: string) {
    super(`This response was encrypted to another key (${kid})`);
  }
}

const subtle = () => globalThis.crypto.subtle;
const random = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n));

export function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let s = '';
  for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** The first 16 hex digits of SHA-256 of the SPKI: names the key in envelopes and key files. */
export async function keyIdOf(publicKey: string): Promise<string> {
  const digest = new Uint8Array(await subtle().digest('SHA-256', fromBase64(publicKey)));
  return [...digest.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new key pair: the public key to store on the survey, the private key to lock into a key file. */
export async function generateSurveyKeys(): Promise<{ publicKey: string; privateKey: CryptoKey }> {
  const pair = await subtle().generateKey({ ...RSA, modulusLength: 3072, publicExponent: new Uint8Array([1, 0, 1]) }, true, ['encrypt', 'decrypt']);
  return { publicKey: toBase64(await subtle().exportKey('spki', pair.publicKey)), privateKey: pair.privateKey };
}

async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const base = await subtle().importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

export async function lockPrivateKey(privateKey: CryptoKey, publicKey: string, passphrase: string, iterations = PBKDF2_ITERATIONS): Promise<SurveyKeyFile> {
  const salt = random(16);
  const iv = random(12);
  const pkcs8 = await subtle().exportKey('pkcs8', privateKey);
  const data = await subtle().encrypt({ name: 'AES-GCM', iv }, await passphraseKey(passphrase, salt, iterations), pkcs8);
  return { format: KEY_FILE_FORMAT, alg: E2E_ALGORITHM, kid: await keyIdOf(publicKey), publicKey, kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: toBase64(salt) }, iv: toBase64(iv), data: toBase64(data), createdAt: new Date().toISOString() };
}

export function isSurveyKeyFile(value: unknown): value is SurveyKeyFile {
  const v = value as Partial<SurveyKeyFile> | null;
  return typeof v === 'object' && v !== null && v.format === KEY_FILE_FORMAT && typeof v.data === 'string' && typeof v.iv === 'string' && typeof v.kdf?.salt === 'string' && typeof v.kid === 'string';
}

/** The key file's private key (non-extractable, decrypt only); WrongPassphraseError when the passphrase is not its own. */
export async function unlockPrivateKey(file: SurveyKeyFile, passphrase: string): Promise<CryptoKey> {
  let pkcs8: ArrayBuffer;
  try {
    pkcs8 = await subtle().decrypt({ name: 'AES-GCM', iv: fromBase64(file.iv) }, await passphraseKey(passphrase, fromBase64(file.kdf.salt), file.kdf.iterations), fromBase64(file.data));
  } catch {
    throw new WrongPassphraseError();
  }
  return subtle().importKey('pkcs8', pkcs8, RSA, false, ['decrypt']);
}

const publicKeys = new Map<string, Promise<{ key: CryptoKey; kid: string }>>();
function importPublic(publicKey: string) {
  let found = publicKeys.get(publicKey);
  if (!found) {
    found = Promise.all([subtle().importKey('spki', fromBase64(publicKey), RSA, false, ['encrypt']), keyIdOf(publicKey)]).then(([key, kid]) => ({ key, kid }));
    publicKeys.set(publicKey, found);
  }
  return found;
}

/** The value's JSON sealed to the survey's public key; a new AES key and IV every time. */
export async function encryptAnswers(publicKey: string, value: unknown): Promise<EncryptedAnswers> {
  const { key: rsa, kid } = await importPublic(publicKey);
  const raw = random(32);
  const iv = random(12);
  const aes = await subtle().importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
  const [wrapped, data] = await Promise.all([subtle().encrypt(RSA, rsa, raw), subtle().encrypt({ name: 'AES-GCM', iv }, aes, new TextEncoder().encode(JSON.stringify(value)))]);
  raw.fill(0);
  return { alg: E2E_ALGORITHM, kid, key: toBase64(wrapped), iv: toBase64(iv), data: toBase64(data) };
}

/** The envelope's value; NotThisKeyError when it was sealed to another key. */
export async function decryptAnswers<T = unknown>(privateKey: CryptoKey, kid: string, envelope: EncryptedAnswers): Promise<T> {
  if (envelope.kid !== kid) throw new NotThisKeyError(envelope.kid);
  const raw = await subtle().decrypt(RSA, privateKey, fromBase64(envelope.key));
  const aes = await subtle().importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
  const plain = await subtle().decrypt({ name: 'AES-GCM', iv: fromBase64(envelope.iv) }, aes, fromBase64(envelope.data));
  return JSON.parse(new TextDecoder().decode(plain)) as T;
}
