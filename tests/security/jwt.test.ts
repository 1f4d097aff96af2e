import { createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Msg, Role } from '@survey-bird/contracts';
import { PASSWORD, buildTestApp, call, createUser, lastMail, login, tokenFromLink, type TestApp } from '../../apps/api/test/helpers.js';

/**
 * Token attacks beyond apps/api/test/route-matrix.test.ts (which covers alg none, a wrong key,
 * expired, missing exp and revoked tokens on every route). Each forged token is sent to
 * GET /api/v1/user, the route every role may call: one acceptance there is a full account takeover.
 */
let t: TestApp;
let victim: { id: string; token: string; sid: string };
const now = () => Math.floor(Date.now() / 1000);
const b64 = (o: object | string) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('base64url');
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string; sub: string; iat: number; exp: number };

function hmac(header: object, payload: object, key: string | Buffer, hash = 'sha256'): string {
  const head = `${b64(header)}.${b64(payload)}`;
  return `${head}.${createHmac(hash, key).update(head).digest('base64url')}`;
}

const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });
const attackerEc = generateKeyPairSync('ec', { namedCurve: 'P-256' });
function rs256(header: object, payload: object): string {
  const head = `${b64({ alg: 'RS256', typ: 'JWT', ...header })}.${b64(payload)}`;
  return `${head}.${createSign('RSA-SHA256').update(head).sign(attacker.privateKey).toString('base64url')}`;
}

async function expectRefused(token: string, label: string, authorization = `Bearer ${token}`) {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization } });
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(401);
  const body = res.json();
  expect(Object.keys(body), label).toEqual(['msg', 'code']);
  expect([Msg.invalidOrExpiredToken, Msg.authenticationInvalid], label).toContain(body.msg);
}

beforeAll(async () => {
  t = await buildTestApp();
  const user = await createUser(t.app, 'victim@jwt.ng', Role.organization);
  await t.app.db.kysely.insertInto('organizations').values({ id: 'org-jwt', name: 'JWT Org', email: 'victim@jwt.ng', created_at: Date.now() }).execute();
  const token = await login(t.app, 'victim@jwt.ng');
  victim = { id: user.id, token, sid: claimsOf(token).sid };
});
afterAll(() => t.close());

describe('OWASP ASVS 5.0 V9.1 (token source and integrity), V7.4 (session termination) and API2:2023 Broken Authentication: forged JWTs', () => {
  it('the genuine token works, so every refusal below is about the forgery', async () => {
    const res = await call(t.app, victim.token, { method: 'GET', url: '/api/v1/user' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: 'victim@jwt.ng', role: Role.organization });
  });

  it('refuses algorithm swaps: RS256, RS512, HS384, HS512, ES256 and PS256 headers signed with the server secret', async () => {
    const payload = { sid: victim.sid, sub: victim.id, iat: now(), exp: now() + 3600 };
    const secret = t.config.jwtSecret;
    const cases: [string, string][] = [
      ['RS256 header, HMAC-SHA256 with the secret', hmac({ alg: 'RS256', typ: 'JWT' }, payload, secret)],
      ['RS512 header, HMAC-SHA512 with the secret', hmac({ alg: 'RS512', typ: 'JWT' }, payload, secret, 'sha512')],
      ['HS384 with the secret', hmac({ alg: 'HS384', typ: 'JWT' }, payload, secret, 'sha384')],
      ['HS512 with the secret', hmac({ alg: 'HS512', typ: 'JWT' }, payload, secret, 'sha512')],
      ['ES256 header, HMAC-SHA256 with the secret', hmac({ alg: 'ES256', typ: 'JWT' }, payload, secret)],
      ['PS256 header, HMAC-SHA256 with the secret', hmac({ alg: 'PS256', typ: 'JWT' }, payload, secret)],
      ['"none" in upper case', `${b64({ alg: 'NONE', typ: 'JWT' })}.${b64(payload)}.`],
      ['"HS256 " with a trailing space', hmac({ alg: 'HS256 ', typ: 'JWT' }, payload, secret)],
      ['no alg at all', hmac({ typ: 'JWT' }, payload, secret)],
      ['real RS256 with the attacker key', rs256({}, payload)],
      ['real ES256 with the attacker key', (() => {
        const head = `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64(payload)}`;
        return `${head}.${createSign('SHA256').update(head).sign({ key: attackerEc.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
      })()],
    ];
    for (const [label, token] of cases) await expectRefused(token, label);
  });

  it('refuses key-selection header injection: kid, jku, x5u, x5c and an embedded jwk', async () => {
    const payload = { sid: victim.sid, sub: victim.id, iat: now(), exp: now() + 3600 };
    const jwk = attacker.publicKey.export({ format: 'jwk' });
    const x5c = attacker.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
    const cases: [string, string][] = [
      ['kid path traversal to /dev/null, empty key', hmac({ alg: 'HS256', kid: '../../../../../../dev/null' }, payload, '')],
      ['kid path traversal, key "\\n"', hmac({ alg: 'HS256', kid: '../../../../proc/sys/kernel/randomize_va_space' }, payload, '2\n')],
      ['kid SQL injection, key "x"', hmac({ alg: 'HS256', kid: "x' UNION SELECT 'x' --" }, payload, 'x')],
      ['kid command injection', hmac({ alg: 'HS256', kid: 'key|curl evil.example' }, payload, 'key')],
      ['jku to an attacker JWKS', rs256({ jku: 'https://evil.example/jwks.json', kid: 'evil' }, payload)],
      ['x5u to an attacker certificate', rs256({ x5u: 'https://evil.example/cert.pem' }, payload)],
      ['x5c with the attacker key', rs256({ x5c: [x5c] }, payload)],
      ['embedded jwk (CVE-2018-0114)', rs256({ jwk }, payload)],
      ['jku with HS256 and the empty key', hmac({ alg: 'HS256', jku: 'https://evil.example/jwks.json' }, payload, '')],
    ];
    for (const [label, token] of cases) await expectRefused(token, label);
  });

  it('refuses a tampered payload under the original signature', async () => {
    const other = await createUser(t.app, 'admin@jwt.ng', Role.masterAdmin);
    const [h, p, s] = victim.token.split('.') as [string, string, string];
    const claims = claimsOf(victim.token);
    const variants: [string, object][] = [
      ['sub swapped to the master admin', { ...claims, sub: other.id }],
      ['exp pushed out', { ...claims, exp: claims.exp + 10 * 365 * 86_400 }],
      ['role claim added', { ...claims, role: Role.masterAdmin }],
      ['sid swapped', { ...claims, sid: 'another-session' }],
    ];
    for (const [label, payload] of variants) await expectRefused(`${h}.${b64(payload)}.${s}`, label);
    // Re-encoding the same claims differently (padding, standard base64) must not pass either.
    await expectRefused(`${h}.${p}=.${s}`, 'padded payload');
    await expectRefused(`${h}.${Buffer.from(JSON.stringify(claimsOf(victim.token))).toString('base64')}.${s}`, 'standard base64 payload');
    await expectRefused(`${h}.${p}.${s.slice(0, -2)}`, 'truncated signature');
    await expectRefused(`${h}.${p}.`, 'signature stripped');
    await expectRefused(`${h}.${p}`, 'two segments');
    await expectRefused(`${h}.${p}.${s}.${s}`, 'four segments');
  });

  it('refuses tokens signed with the real secret that lack sid or sub, or name a session that is not theirs', async () => {
    const secret = t.config.jwtSecret;
    const header = { alg: 'HS256', typ: 'JWT' };
    const stranger = await createUser(t.app, 'stranger@jwt.ng', Role.fieldUser);
    const cases: [string, object][] = [
      ['missing sid', { sub: victim.id, iat: now(), exp: now() + 3600 }],
      ['missing sub', { sid: victim.sid, iat: now(), exp: now() + 3600 }],
      ['sid null', { sid: null, sub: victim.id, iat: now(), exp: now() + 3600 }],
      ['sid as an object', { sid: { $ne: '' }, sub: victim.id, iat: now(), exp: now() + 3600 }],
      ['sub as a list', { sid: victim.sid, sub: [victim.id], iat: now(), exp: now() + 3600 }],
      ['sid as a number', { sid: 1, sub: victim.id, iat: now(), exp: now() + 3600 }],
      ['sid of the victim, sub of another user', { sid: victim.sid, sub: stranger.id, iat: now(), exp: now() + 3600 }],
      ['unknown sid', { sid: 'no-such-session', sub: victim.id, iat: now(), exp: now() + 3600 }],
      ['exp as a string', { sid: victim.sid, sub: victim.id, iat: now(), exp: 'never' }],
      ['nbf in the future', { sid: victim.sid, sub: victim.id, iat: now(), nbf: now() + 3600, exp: now() + 7200 }],
    ];
    for (const [label, payload] of cases) await expectRefused(hmac(header, payload, secret), label);
  });

  it('refuses the token of a deleted user, of a signed-out session, and those from before a password reset', async () => {
    await createUser(t.app, 'gone@jwt.ng', Role.fieldUser);
    const gone = await login(t.app, 'gone@jwt.ng');
    await t.app.db.kysely.deleteFrom('users').where('email', '=', 'gone@jwt.ng').execute();
    await expectRefused(gone, 'deleted user');
    // A forged token for the deleted user's id with a fresh session id of someone else must fail too.
    await expectRefused(hmac({ alg: 'HS256', typ: 'JWT' }, { sid: victim.sid, sub: claimsOf(gone).sub, iat: now(), exp: now() + 3600 }, t.config.jwtSecret), 'deleted user, borrowed sid');

    await createUser(t.app, 'out@jwt.ng', Role.fieldUser);
    const out = await login(t.app, 'out@jwt.ng');
    const kept = await login(t.app, 'out@jwt.ng');
    expect((await call(t.app, out, { method: 'POST', url: '/api/v1/user/sign-out' })).statusCode).toBe(200);
    await expectRefused(out, 'signed-out session');
    expect((await call(t.app, kept, { method: 'GET', url: '/api/v1/user' })).statusCode).toBe(200);

    await createUser(t.app, 'reset@jwt.ng', Role.supervisor);
    const before = [await login(t.app, 'reset@jwt.ng'), await login(t.app, 'reset@jwt.ng')];
    await t.app.inject({ method: 'POST', url: '/api/v1/user/send-refresh-token', payload: { email: 'reset@jwt.ng' } });
    const resetToken = tokenFromLink((await lastMail(t.app, 'reset@jwt.ng'))?.link);
    const reset = await t.app.inject({ method: 'POST', url: '/api/v1/user/reset-password', payload: { resetToken, newPassword: 'a-new-password-1' } });
    expect(reset.json()).toMatchObject({ msg: ApiMsg.passwordReset });
    for (const token of before) await expectRefused(token, 'session from before the reset');
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'reset@jwt.ng', password: PASSWORD } })).statusCode).toBe(401);
    const after = await login(t.app, 'reset@jwt.ng', 'a-new-password-1');
    expect((await call(t.app, after, { method: 'GET', url: '/api/v1/user' })).statusCode).toBe(200);
  });

  it('refuses very long tokens quickly, with 401 and no 5xx', async () => {
    const [h, p, s] = victim.token.split('.') as [string, string, string];
    for (const size of [8 * 1024, 64 * 1024, 1024 * 1024]) {
      const started = Date.now();
      await expectRefused(`${h}.${p}${'A'.repeat(size)}.${s}`, `payload padded to ${size}`);
      await expectRefused(`${'A'.repeat(size)}.${p}.${s}`, `header padded to ${size}`);
      await expectRefused(`${h}.${p}.${s}${'A'.repeat(size)}`, `signature padded to ${size}`);
      await expectRefused('.'.repeat(size), `${size} dots`);
      expect(Date.now() - started).toBeLessThan(2000);
    }
    const huge = hmac({ alg: 'HS256', typ: 'JWT' }, { sid: victim.sid, sub: victim.id, exp: now() + 3600, pad: 'x'.repeat(256 * 1024) }, 'wrong');
    await expectRefused(huge, 'huge claims, wrong key');
  });

  it('refuses tokens with whitespace or control characters in or around them', async () => {
    const token = victim.token;
    const [h, p, s] = token.split('.') as [string, string, string];
    const headers: [string, string][] = [
      ['two spaces after Bearer', `Bearer  ${token}`],
      ['tab after Bearer', `Bearer\t${token}`],
      ['lower-case scheme', `bearer ${token}`],
      ['no scheme', token],
      ['Basic scheme', `Basic ${token}`],
      ['token twice', `Bearer ${token} ${token}`],
      ['space inside the payload', `Bearer ${h}.${p.slice(0, 10)} ${p.slice(10)}.${s}`],
      ['tab inside the signature', `Bearer ${h}.${p}.${s.slice(0, 5)}\t${s.slice(5)}`],
      ['space before a dot', `Bearer ${h} .${p}.${s}`],
      ['newline inside', `Bearer ${h}.${p}\n.${s}`],
      ['NUL inside', `Bearer ${h}.${p}.${s}\u0000`],
      ['non-breaking space after the token', `Bearer ${token}\u00a0`],
      ['zero-width space inside', `Bearer ${h}.\u200b${p}.${s}`],
      ['trailing space', `Bearer ${token} `],
      ['trailing tab', `Bearer ${token}\t`],
    ];
    for (const [label, authorization] of headers) await expectRefused(token, label, authorization);
    // The genuine header still works after all that.
    expect((await call(t.app, token, { method: 'GET', url: '/api/v1/user' })).statusCode).toBe(200);
  });
});
