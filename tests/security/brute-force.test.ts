import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Role } from '@survey-bird/contracts';
import { loadConfig } from '../../apps/api/src/config.js';
import { PASSWORD, buildTestApp, createUser, type TestApp } from '../../apps/api/test/helpers.js';

/** The limiter as production configures it (RATE_LIMIT_MAX unset), not the test helper's relaxed one. */
function productionRateLimit() {
  const dir = mkdtempSync(join(tmpdir(), 'sb-cfg-'));
  try {
    return loadConfig({ JWT_SECRET: 'x' }, { dataDir: dir }).rateLimit;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const limit = productionRateLimit();

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ rateLimit: limit });
  for (const email of ['spread@brute.ng', 'single@brute.ng', 'forwarded@brute.ng', 'reset@brute.ng']) await createUser(t.app, email, Role.fieldUser);
});
afterAll(() => t.close());

const login = (email: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email, password }, remoteAddress, headers });

async function attack(n: number, attempt: (i: number) => Promise<{ statusCode: number; body: string }>) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await attempt(i);
    statuses.push(res.statusCode);
    if (res.statusCode === 429) expect(JSON.parse(res.body)).toMatchObject({ msg: ApiMsg.tooManyRequests });
  }
  return { statuses, reached: statuses.filter((s) => s !== 429).length, firstLimited: statuses.indexOf(429) };
}

describe('OWASP ASVS 5.0 V6.3.1 (credential stuffing and brute force) and API4:2023 Unrestricted Resource Consumption: 1,000 wrong passwords', () => {
  expect(limit.max).toBeLessThanOrEqual(20);

  // Failures only count (issue 14 item 6): max per (address, account), 3 x max per account, 10 x max per address.
  it(`one account from 1,000 addresses: at most ${3 * limit.max} guesses reach the password check, the rest get 429`, async () => {
    const { statuses, reached, firstLimited } = await attack(1000, (i) => login('spread@brute.ng', `guess-${i}`, `10.${(i >> 8) & 255}.${i & 255}.7`));
    expect(reached).toBe(3 * limit.max);
    expect(firstLimited).toBe(3 * limit.max);
    expect(statuses.slice(0, 3 * limit.max).every((s) => s === 401)).toBe(true);
    // The real owner is locked out for the window too: the price of a per-account limit (docs/security.md).
    expect((await login('spread@brute.ng', PASSWORD, '10.200.0.1')).statusCode).toBe(429);
  });

  it('the same account spelled differently counts as the same account', async () => {
    const variants = ['SINGLE@brute.ng', ' single@BRUTE.ng ', 'Single@Brute.NG'];
    const { reached } = await attack(60, (i) => login(variants[i % variants.length]!, `guess-${i}`, `172.16.${i}.1`));
    expect(reached).toBe(3 * limit.max);
  });

  it('one address guessing many accounts is limited too', async () => {
    const { reached, statuses } = await attack(1000, (i) => login(`nobody-${i}@brute.ng`, 'Winter2025!', '192.0.2.10'));
    expect(reached).toBe(10 * limit.max);
    expect(statuses.slice(10 * limit.max).every((s) => s === 429)).toBe(true);
  });

  it('one account from one address, and with a forged X-Forwarded-For per request', async () => {
    const single = await attack(1000, (i) => login('forwarded@brute.ng', `guess-${i}`, '192.0.2.20'));
    expect(single.reached).toBe(limit.max);
    await new Promise((r) => setTimeout(r, 0));
    const forged = await attack(200, (i) => login('reset@brute.ng', `guess-${i}`, '192.0.2.21', { 'x-forwarded-for': `203.0.113.${i % 250}, 198.51.100.${i % 250}` }));
    expect(forged.reached).toBe(limit.max);
  });

  it('a forged X-Forwarded-For does not give one address a fresh limit per request (no TRUST_PROXY)', async () => {
    const spread = await attack(200, (i) => login(`spray-${i}@brute.ng`, 'Winter2025!', '192.0.2.22', { 'x-forwarded-for': `203.0.113.${i % 250}` }));
    expect(spread.reached).toBe(10 * limit.max);
  });

  it('reset tokens, change-password and the mail-sending routes are limited per address', async () => {
    const guesses = await attack(1000, (i) => t.app.inject({ method: 'POST', url: '/api/v1/user/reset-password', payload: { resetToken: `guess-${i}`, newPassword: 'owned-pw-1' }, remoteAddress: '192.0.2.30' }));
    expect(guesses.reached).toBe(limit.max);
    const mails = await attack(100, (i) => t.app.inject({ method: 'POST', url: '/api/v1/user/send-refresh-token', payload: { email: `flood-${i}@brute.ng` }, remoteAddress: '192.0.2.31' }));
    expect(mails.reached).toBe(limit.max);
    const resend = await attack(100, (i) => t.app.inject({ method: 'POST', url: '/api/v1/user/resend-verification-mail', payload: { email: `flood-${i}@brute.ng` }, remoteAddress: '192.0.2.32' }));
    expect(resend.reached).toBe(limit.max);
    const register = await attack(100, (i) => t.app.inject({ method: 'POST', url: '/api/v1/user/register', payload: { email: `flood-${i}@brute.ng`, password: 'pw-123456' }, remoteAddress: '192.0.2.33' }));
    expect(register.reached).toBe(limit.max);
  });
});

describe('OWASP ASVS 5.0 V6.3.8 (no account enumeration) and API2:2023: identical answers for known and unknown e-mails', () => {
  let open: TestApp;
  let ip = 0;
  const post = (url: string, payload: object) => open.app.inject({ method: 'POST', url: `/api/v1/user${url}`, payload, remoteAddress: `10.9.${(++ip >> 8) & 255}.${ip & 255}` });
  beforeAll(async () => {
    open = await buildTestApp({ rateLimit: limit });
    await createUser(open.app, 'known@enum.ng', Role.organization);
    await createUser(open.app, 'pending@enum.ng', Role.fieldUser, { verified: false });
  });
  afterAll(() => open.close());

  /** Status, body bytes and the headers that could differ; the request id and date are per request. */
  const shape = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => ({
    status: res.statusCode,
    body: res.body,
    type: res.headers['content-type'],
    length: res.headers['content-length'],
  });

  it('login: wrong password of a verified, an unverified and an unknown account', async () => {
    const known = shape(await post('/login', { email: 'known@enum.ng', password: 'wrong-password' }));
    const pending = shape(await post('/login', { email: 'pending@enum.ng', password: 'wrong-password' }));
    const unknown = shape(await post('/login', { email: 'ghost@enum.ng', password: 'wrong-password' }));
    expect(known).toEqual({ status: 401, body: JSON.stringify({ msg: ApiMsg.wrongCredentials, code: 'wrongCredentials' }), type: 'application/json; charset=utf-8', length: known.length });
    expect(pending).toEqual(known);
    expect(unknown).toEqual(known);
  });

  it('send-refresh-token, resend-verification and register', async () => {
    for (const [url, body] of [
      ['/send-refresh-token', (email: string) => ({ email })],
      ['/resend-verification-mail', (email: string) => ({ email })],
      ['/register', (email: string) => ({ email, password: 'pw-123456' })],
    ] as const) {
      const replies = [];
      for (const email of ['known@enum.ng', 'pending@enum.ng', `ghost-${url.slice(1)}@enum.ng`, 'KNOWN@enum.ng']) replies.push(shape(await post(url, body(email))));
      expect(replies[0]!.status, url).toBe(200);
      for (const r of replies) expect(r, `${url}`).toEqual(replies[0]);
    }
  });

  it('resend-verification by id: a user id, a token and garbage answer alike', async () => {
    const user = await open.app.db.kysely.selectFrom('users').select('id').where('email', '=', 'pending@enum.ng').executeTakeFirstOrThrow();
    const replies = [];
    for (const id of [user.id, 'not-a-user', 'x'.repeat(64)]) replies.push(shape(await post('/resend-verification-mail', { id })));
    expect(replies[0]!.status).toBe(200);
    for (const r of replies) expect(r).toEqual(replies[0]);
  });

  it('register and login cost about the same for a known and an unknown e-mail (no timing oracle)', async () => {
    // A realistic scrypt cost so the hash dominates; the production cost is higher still.
    const timed = await buildTestApp({ rateLimit: { max: 1e6, windowMs: 60_000 }, scryptN: 2 ** 13 });
    try {
      await createUser(timed.app, 'known@timing.ng', Role.fieldUser);
      const time = async (url: string, payload: object) => {
        const started = process.hrtime.bigint();
        const res = await timed.app.inject({ method: 'POST', url: `/api/v1/user${url}`, payload });
        expect(res.statusCode).toBeLessThan(500);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      for (const url of ['/register', '/login']) {
        const known: number[] = [];
        const unknown: number[] = [];
        for (let i = 0; i < 5; i++) {
          known.push(await time(url, { email: 'known@timing.ng', password: `pw-${i}-wrong` }));
          unknown.push(await time(url, { email: `new-${i}@timing.ng`, password: `pw-${i}-wrong` }));
        }
        const ratio = median(known) / median(unknown);
        expect(ratio, `${url}: known ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms`).toBeGreaterThan(0.33);
        expect(ratio, url).toBeLessThan(3);
      }
    } finally {
      await timed.close();
    }
  });
});
