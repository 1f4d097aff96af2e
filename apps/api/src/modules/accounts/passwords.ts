import { randomBytes, timingSafeEqual } from 'node:crypto';
import { passwordPool } from './password-pool.js';

const KEY_LENGTH = 64;

/** On the password pool's own threads, never libuv's (see password-pool.ts); 503 when it is full. */
function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return passwordPool.scrypt({ password: password.normalize('NFKC'), salt, keyLength: KEY_LENGTH, options: { N, r, p, maxmem: 256 * N * r + 1024 * 1024 } });
}

/** `scrypt$N$r$p$salt$key`: the cost travels with the hash, so raising it later keeps old hashes valid. */
export async function hashPassword(password: string, N: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, 8, 1);
  return ['scrypt', N, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
