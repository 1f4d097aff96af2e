import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Msg, Role } from '@survey-bird/contracts';
import { invitationToken } from './links.js';
import { PASSWORD, buildTestApp, call, createUser, lastMail, login, tokenFromLink, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, token: string | null = null, headers: Record<string, string> = {}) =>
  call(t.app, token, { method: 'POST', url: `/api/v1/user${url}`, payload: payload as object, headers });
const get = (url: string, token: string | null = null) => call(t.app, token, { method: 'GET', url: `/api/v1/user${url}` });

describe('login', () => {
  it('asks for the e-mail first, then the password', async () => {
    expect((await post('/login', {})).json()).toMatchObject({ msg: Msg.provideEmail });
    expect((await post('/login', { email: '', password: '' })).json()).toMatchObject({ msg: Msg.provideEmail });
    const res = await post('/login', { email: 'a@b.co' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: ApiMsg.providePassword });
  });

  it('signs in with user, msg and token, ignoring e-mail case', async () => {
    await createUser(t.app, 'ada@org.ng', Role.organization);
    const res = await post('/login', { email: ' ADA@org.ng ', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toEqual({ email: 'ada@org.ng', role: Role.organization });
    expect(body.msg).toBe(ApiMsg.loginSuccess);
    expect(body.token.split('.')).toHaveLength(3);
  });

  it('answers a wrong password and an unknown e-mail the same way', async () => {
    await createUser(t.app, 'wrong@org.ng', Role.fieldUser);
    const wrong = await post('/login', { email: 'wrong@org.ng', password: 'nope' });
    const unknown = await post('/login', { email: 'nobody@org.ng', password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ msg: ApiMsg.wrongCredentials });
    expect(unknown.json()).toEqual(wrong.json());
  });
});

describe('GET /user', () => {
  it('needs a token', async () => {
    const res = await get('');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ msg: Msg.authenticationInvalid });
  });

  it('rejects a tampered token', async () => {
    await createUser(t.app, 'tamper@org.ng', Role.fieldUser);
    const token = await login(t.app, 'tamper@org.ng');
    const [h, p, s] = token.split('.');
    const res = await get('', `${h}.${p}x.${s}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ msg: Msg.invalidOrExpiredToken });
  });

  it('returns the verified user', async () => {
    await createUser(t.app, 'me@org.ng', Role.supervisor, { fullName: 'Me Myself' });
    const res = await get('', await login(t.app, 'me@org.ng'));
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: 'me@org.ng', role: Role.supervisor, fullName: 'Me Myself', verified: true });
  });

  it('tells an unverified user to check their mail', async () => {
    await createUser(t.app, 'unverified@org.ng', Role.fieldUser, { verified: false });
    const res = await get('', await login(t.app, 'unverified@org.ng'));
    expect(res.statusCode).toBe(403);
    expect(res.json().msg.startsWith('Kindly check your email')).toBe(true);
  });
});

describe('register and confirm e-mail', () => {
  it('validates e-mail then password', async () => {
    expect((await post('/register', { password: 'x' })).json()).toMatchObject({ msg: Msg.provideEmail });
    expect((await post('/register', { email: 'x@y.ng' })).json()).toMatchObject({ msg: ApiMsg.providePassword });
  });

  it('refuses a malformed e-mail with the spec words and creates no account', async () => {
    for (const email of ['not-an-email', 'a@b', 'two words@x.ng', '@x.ng']) {
      const res = await post('/register', { email, password: 'pw-123456' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ msg: ApiMsg.invalidEmail });
    }
    const rows = await t.app.db.kysely.selectFrom('users').select('id').where('email', 'in', ['not-an-email', 'a@b']).execute();
    expect(rows).toHaveLength(0);
  });

  it('gives an uninvited e-mail role nothing, and a verification link that works once', async () => {
    const res = await post('/register', { email: 'new@person.ng', password: 'pw-123456' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ msg: Msg.accountCreated });
    const mail = await lastMail(t.app, 'new@person.ng');
    expect(mail?.link).toMatch(/^http:\/\/sb\.test\/confirm-email\/[\w-]{40,}$/);
    const token = tokenFromLink(mail?.link);

    const before = await get('', await login(t.app, 'new@person.ng', 'pw-123456'));
    expect(before.statusCode).toBe(403);

    const confirm = await get(`/${token}`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json()).toMatchObject({ msg: ApiMsg.accountVerified });
    const again = await get(`/${token}`);
    expect(again.statusCode).toBe(400);
    expect(again.json().msg.startsWith('link expired')).toBe(true);

    const after = await get('', await login(t.app, 'new@person.ng', 'pw-123456'));
    expect(after.json().user).toMatchObject({ email: 'new@person.ng', role: Role.nothing });
  });

  it('gives an invited e-mail the invited role', async () => {
    const now = Date.now();
    const k = t.app.db.kysely;
    await k.insertInto('organizations').values({ id: 'org-reg', name: 'Reg Org', email: 'owner@reg.ng', created_at: now }).execute();
    await post('/register', { email: 'owner@reg.ng', password: 'pw-123456', invite: invitationToken(t.config.jwtSecret, 'owner@reg.ng') });
    const user = await k.selectFrom('users').select(['role', 'verified']).where('email', '=', 'owner@reg.ng').executeTakeFirstOrThrow();
    expect(user).toEqual({ role: Role.organization, verified: 1 });
  });

  it('answers an existing e-mail exactly like a new one, and keeps the old password', async () => {
    await createUser(t.app, 'taken@org.ng', Role.fieldUser);
    const res = await post('/register', { email: 'taken@org.ng', password: 'attacker-pw' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ msg: Msg.accountCreated });
    expect((await post('/login', { email: 'taken@org.ng', password: PASSWORD })).statusCode).toBe(200);
    expect((await post('/login', { email: 'taken@org.ng', password: 'attacker-pw' })).statusCode).toBe(401);
  });

  it('refuses an unknown or garbage link with link expired', async () => {
    const res = await get('/not-a-real-token');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg.startsWith('link expired')).toBe(true);
  });

  it('refuses an expired link and resends a working one by token or e-mail', async () => {
    await post('/register', { email: 'late@person.ng', password: 'pw-123456' });
    const token = tokenFromLink((await lastMail(t.app, 'late@person.ng'))?.link);
    await t.app.db.kysely.updateTable('auth_tokens').set({ expires_at: Date.now() - 1 }).where('kind', '=', 'verify').execute();
    const expired = await get(`/${token}`);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().msg.startsWith('link expired')).toBe(true);

    const resend = await post('/resend-verification-mail', { id: token });
    expect(resend.json()).toMatchObject({ msg: ApiMsg.verificationResent });
    const fresh = tokenFromLink((await lastMail(t.app, 'late@person.ng'))?.link);
    expect(fresh).not.toBe(token);
    expect((await get(`/${fresh}`)).json()).toMatchObject({ msg: ApiMsg.accountVerified });

    const byEmail = await post('/resend-verification-mail', { email: 'unknown@person.ng' });
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.json()).toMatchObject({ msg: ApiMsg.verificationResent });
    expect((await post('/resend-verification-mail', {})).json()).toMatchObject({ msg: Msg.provideEmail });
  });
});

describe('password reset', () => {
  it('replies the same for known and unknown e-mails, and asks for one', async () => {
    await createUser(t.app, 'forgot@org.ng', Role.fieldUser);
    const known = await post('/send-refresh-token', { email: 'forgot@org.ng' });
    const unknown = await post('/send-refresh-token', { email: 'ghost@org.ng' });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(await lastMail(t.app, 'ghost@org.ng')).toBeUndefined();
    expect((await post('/send-refresh-token', {})).json()).toMatchObject({ msg: Msg.provideEmail });
  });

  it('resets with the mailed token once, and signs out every session', async () => {
    await createUser(t.app, 'reset@org.ng', Role.fieldUser);
    const oldToken = await login(t.app, 'reset@org.ng');
    await post('/send-refresh-token', { email: 'reset@org.ng' });
    const mail = await lastMail(t.app, 'reset@org.ng');
    expect(mail?.link).toContain('/reset-password?token=');
    const resetToken = tokenFromLink(mail?.link);

    expect((await post('/reset-password', { resetToken })).json()).toMatchObject({ msg: Msg.provideNewPassword });
    const res = await post('/reset-password', { resetToken, newPassword: 'brand-new-pw' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ msg: ApiMsg.passwordReset });
    expect((await post('/reset-password', { resetToken, newPassword: 'again-new-pw' })).json().msg.startsWith('link expired')).toBe(true);
    expect((await get('', oldToken)).statusCode).toBe(401);
    expect((await post('/login', { email: 'reset@org.ng', password: 'brand-new-pw' })).statusCode).toBe(200);
  });
});

describe('outstanding reset links', () => {
  const resetLink = async (email: string) => {
    await post('/send-refresh-token', { email });
    return tokenFromLink((await lastMail(t.app, email))?.link);
  };

  it('using one reset link invalidates every other one of the account', async () => {
    await createUser(t.app, 'links@org.ng', Role.fieldUser);
    const link1 = await resetLink('links@org.ng');
    const link2 = await resetLink('links@org.ng');
    expect(link1).not.toBe(link2);
    expect((await post('/reset-password', { resetToken: link2, newPassword: 'from-link-2' })).statusCode).toBe(200);
    const late = await post('/reset-password', { resetToken: link1, newPassword: 'from-link-1' });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ msg: ApiMsg.resetLinkInvalid });
    expect((await post('/login', { email: 'links@org.ng', password: 'from-link-2' })).statusCode).toBe(200);
  });

  it('changing the password invalidates every outstanding reset link', async () => {
    await createUser(t.app, 'links2@org.ng', Role.fieldUser);
    const link = await resetLink('links2@org.ng');
    const token = await login(t.app, 'links2@org.ng');
    expect((await post('/change-password', { oldPassword: PASSWORD, newPassword: 'changed-pw' }, token)).statusCode).toBe(200);
    expect((await post('/reset-password', { resetToken: link, newPassword: 'attacker-pw' })).json()).toMatchObject({ msg: ApiMsg.resetLinkInvalid });
    expect((await post('/login', { email: 'links2@org.ng', password: 'changed-pw' })).statusCode).toBe(200);
    const fresh = await resetLink('links2@org.ng');
    expect((await post('/reset-password', { resetToken: fresh, newPassword: 'after-change' })).statusCode).toBe(200);
  });
});

describe('change password and sessions', () => {
  it('validates, checks the old password, and signs out the other sessions by default', async () => {
    await createUser(t.app, 'change@org.ng', Role.fieldUser);
    const here = await login(t.app, 'change@org.ng');
    const elsewhere = await login(t.app, 'change@org.ng');
    const headers = { deviceid: 'phone-1', email: 'change@org.ng' };
    expect((await post('/change-password', { newPassword: 'x' }, here, headers)).json()).toMatchObject({ msg: ApiMsg.provideOldPassword });
    expect((await post('/change-password', { oldPassword: PASSWORD }, here, headers)).json()).toMatchObject({ msg: Msg.provideNewPassword });
    const wrong = await post('/change-password', { oldPassword: 'nope', newPassword: 'new-pw-1' }, here, headers);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ msg: ApiMsg.wrongOldPassword });

    const ok = await post('/change-password', { oldPassword: PASSWORD, newPassword: 'new-pw-1' }, here, headers);
    expect(ok.json()).toMatchObject({ msg: ApiMsg.passwordChanged });
    expect((await get('', here)).statusCode).toBe(200);
    expect((await get('', elsewhere)).statusCode).toBe(401);
  });

  it('keeps the other sessions when asked', async () => {
    await createUser(t.app, 'keep@org.ng', Role.fieldUser);
    const here = await login(t.app, 'keep@org.ng');
    const elsewhere = await login(t.app, 'keep@org.ng');
    await post('/change-password', { oldPassword: PASSWORD, newPassword: 'new-pw-2', signOutOthers: false }, here);
    expect((await get('', elsewhere)).statusCode).toBe(200);
  });

  it('signs out one session, then all of them', async () => {
    await createUser(t.app, 'out@org.ng', Role.fieldUser);
    const a = await login(t.app, 'out@org.ng');
    const b = await login(t.app, 'out@org.ng');
    const c = await login(t.app, 'out@org.ng');
    expect((await post('/sign-out', {}, a)).json()).toMatchObject({ msg: Msg.accountSignedOut });
    expect((await get('', a)).json()).toMatchObject({ msg: Msg.invalidOrExpiredToken });
    expect((await get('', b)).statusCode).toBe(200);
    expect((await post('/sign-out/all', {}, b)).json()).toMatchObject({ msg: Msg.allSessionsSignedOut });
    expect((await get('', b)).statusCode).toBe(401);
    expect((await get('', c)).statusCode).toBe(401);
    expect((await post('/sign-out', {}, null)).statusCode).toBe(401);
  });
});

describe('master admin: all users', () => {
  it('lists and searches users for the master admin only', async () => {
    await createUser(t.app, 'root@sb.ng', Role.masterAdmin);
    const admin = await login(t.app, 'root@sb.ng');
    const res = await get('/all?searchQuery=ORG.NG&page=1', admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalCount).toBeGreaterThan(3);
    expect(body.users.every((u: { email: string }) => u.email.includes('org.ng'))).toBe(true);
    const none = await get('/all?searchQuery=%25', admin);
    expect(none.json().totalCount).toBe(0);
    const fieldUser = await login(t.app, 'me@org.ng');
    expect((await get('/all', fieldUser)).statusCode).toBe(403);
  });
});

describe('rate limiting', () => {
  it('limits failed sign-ins per (IP, account), then per account across IPs, and never counts correct ones', async () => {
    const limited = await buildTestApp({ rateLimit: { max: 5, windowMs: 60_000 } });
    try {
      await createUser(limited.app, 'victim@org.ng', Role.fieldUser);
      const attempt = (password: string, ip: string) => limited.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'victim@org.ng', password }, remoteAddress: ip });
      for (let i = 0; i < 10; i++) expect((await attempt(PASSWORD, '10.0.0.1')).statusCode).toBe(200);
      const fromOne: number[] = [];
      for (let i = 0; i < 7; i++) fromOne.push((await attempt(`guess-${i}`, '10.0.0.1')).statusCode);
      expect(fromOne).toEqual([401, 401, 401, 401, 401, 429, 429]);
      const limitedReply = await attempt(PASSWORD, '10.0.0.1');
      expect(limitedReply.statusCode).toBe(429);
      expect(limitedReply.json()).toMatchObject({ msg: ApiMsg.tooManyRequests });
      // The same account from another IP still signs in, until failures from many IPs reach 3 x max.
      expect((await attempt(PASSWORD, '10.0.0.2')).statusCode).toBe(200);
      const spread: number[] = [];
      for (let i = 0; i < 12; i++) spread.push((await attempt(`spread-${i}`, `10.0.1.${i}`)).statusCode);
      expect(spread.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(spread.slice(10)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });
});
