import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Role } from '@survey-bird/contracts';
import { PASSWORD, buildTestApp, call, createUser, type TestApp } from '../../../test/helpers.js';
import { PasswordPool, defaultPasswordPoolLimits, passwordPool } from './password-pool.js';
import { hashPassword, verifyPassword } from './passwords.js';

describe('password hashing pool', () => {
  it('sizes itself from the core count, keeping a core for requests', () => {
    expect(defaultPasswordPoolLimits(1)).toEqual({ threads: 1, queue: 8 });
    expect(defaultPasswordPoolLimits(2)).toEqual({ threads: 1, queue: 8 });
    expect(defaultPasswordPoolLimits(4)).toEqual({ threads: 3, queue: 24 });
    expect(defaultPasswordPoolLimits(64).threads).toBe(4);
  });

  it('leaves libuv\'s pool to file I/O: a read finishes while four hashes are still running', async () => {
    passwordPool.configure({ threads: 1, queue: 8 });
    const order: string[] = [];
    // Four slow hashes: on libuv's four threads they used to hold every thread a file read needs.
    const hashes = Array.from({ length: 4 }, (_, i) => hashPassword(`pw-${i}`, 2 ** 15).then(() => order.push('hash')));
    await readFile(new URL(import.meta.url)).then(() => order.push('read'));
    await Promise.all(hashes);
    expect(order[0]).toBe('read');
    expect(order.filter((o) => o === 'hash')).toHaveLength(4);
  });

  it('stops a thread left idle, and starts one again for the next hash', async () => {
    const pool = new PasswordPool({ threads: 1, queue: 4 }, 100);
    const job = { password: 'pw', salt: Buffer.from('salt'), keyLength: 32, options: { N: 2 ** 10, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } };
    const first = await pool.scrypt(job);
    expect(pool.load.threads).toBe(1);
    await expect.poll(() => pool.load.threads, { timeout: 5_000, interval: 50 }).toBe(0);
    expect((await pool.scrypt(job)).equals(first)).toBe(true);
    expect(pool.load.threads).toBe(1);
    await pool.close();
  });

  it('hashes that verify, with the cost in the stored string', async () => {
    const stored = await hashPassword('Correct-horse-1', 2 ** 10);
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
    expect(await verifyPassword('Correct-horse-1', stored)).toBe(true);
    expect(await verifyPassword('Wrong-horse-1', stored)).toBe(false);
  });
});

describe('sign-in flood', () => {
  let t: TestApp;
  beforeAll(async () => {
    // One thread, one waiting: the third concurrent hash is refused.
    t = await buildTestApp({ passwordPool: { threads: 1, queue: 1 }, scryptN: 2 ** 14 });
    await createUser(t.app, 'flood@org.ng', Role.organization);
  });
  afterAll(() => t.close());

  const login = (email: string) => call(t.app, null, { method: 'POST', url: '/api/v1/user/login', payload: { email, password: PASSWORD } });

  it('answers 503 with Retry-After at once when the hashing queue is full, and signs in again after', async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, () => login('flood@org.ng')));
    const busy = replies.filter((r) => r.statusCode === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(replies.filter((r) => r.statusCode === 200).length).toBeGreaterThan(0);
    expect(replies.every((r) => r.statusCode === 200 || r.statusCode === 503)).toBe(true);
    for (const r of busy) {
      expect(r.json()).toMatchObject({ msg: ApiMsg.serviceUnavailable });
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect((await login('flood@org.ng')).statusCode).toBe(200);
  });

  it('keeps answering unknown e-mails after a refused hash (the stand-in hash is not cached as a failure)', async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, () => login('nobody@org.ng')));
    expect(replies.some((r) => r.statusCode === 503)).toBe(true);
    const again = await login('nobody@org.ng');
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ msg: ApiMsg.wrongCredentials });
  });
});
