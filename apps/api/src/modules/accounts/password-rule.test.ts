import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Msg, Role } from '@survey-bird/contracts';
import { PASSWORD, buildTestApp, call, createUser, lastMail, login, tokenFromLink, type TestApp } from '../../../test/helpers.js';
import { ensureMasterAdmin } from './admin.js';
import { isCommonPassword, passwordProblem } from './password-rule.js';

/** NIST SP 800-63B 5.1.1.2 on every place a password is set: at least 8 characters, not a common one. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: object, token: string | null = null) => call(t.app, token, { method: 'POST', url: `/api/v1/user${url}`, payload });
const refused = (msg: string) => ({ msg, code: expect.any(String) });

describe('the rule', () => {
  it('names itself: 8 characters, then the common-password list', async () => {
    expect(Msg.passwordTooShort).toBe('Password must be at least 8 characters');
    expect(ApiMsg.commonPassword).toContain('commonly used passwords');
    expect(await passwordProblem('short')).toBe(Msg.passwordTooShort);
    expect(await passwordProblem('1234567')).toBe(Msg.passwordTooShort);
    expect(await passwordProblem('password')).toBe(ApiMsg.commonPassword);
    expect(await passwordProblem('PassWord1')).toBe(ApiMsg.commonPassword);
    expect(await passwordProblem('12345678')).toBe(ApiMsg.commonPassword);
    expect(await passwordProblem('surveybird')).toBe(ApiMsg.commonPassword);
    expect(await passwordProblem(PASSWORD)).toBeNull();
    expect(await passwordProblem('kano-market-42')).toBeNull();
  });

  it('blocks the maintained list\'s common passwords of 8+ characters, whatever their case, and not uncommon ones', async () => {
    for (const p of ['password1', 'baseball', 'iloveyou', 'Sunshine1', 'QWERTYUIOP', 'trustno1']) expect(await isCommonPassword(p)).toBe(true);
    for (const p of ['kano-market-42', 'Ọmọ-ọba-2026', 'tuwo shinkafa 9']) expect(await isCommonPassword(p)).toBe(false);
  });

  it('keeps the demo seed\'s passwords valid (demo- and 8 random base64url characters)', async () => {
    expect(await passwordProblem('demo-AbCd_9-x')).toBeNull();
  });
});

describe('register', () => {
  it('refuses a short password, then a common one, and creates no account', async () => {
    const short = await post('/register', { email: 'short@rule.ng', password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual(refused(Msg.passwordTooShort));
    const common = await post('/register', { email: 'common@rule.ng', password: 'Password1' });
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual(refused(ApiMsg.commonPassword));
    expect(await t.app.db.kysely.selectFrom('users').select('id').where('email', 'in', ['short@rule.ng', 'common@rule.ng']).execute()).toEqual([]);
    expect((await post('/register', { email: 'fine@rule.ng', password: 'kano-market-42' })).statusCode).toBe(200);
  });

  it('answers an existing e-mail the same way (the rule comes before the account is looked up)', async () => {
    await createUser(t.app, 'taken@rule.ng', Role.fieldUser);
    expect((await post('/register', { email: 'taken@rule.ng', password: 'iloveyou' })).json()).toEqual(refused(ApiMsg.commonPassword));
  });
});

describe('reset', () => {
  it('refuses a short or common new password and leaves the link usable', async () => {
    await createUser(t.app, 'reset@rule.ng', Role.fieldUser);
    await post('/send-refresh-token', { email: 'reset@rule.ng' });
    const resetToken = tokenFromLink((await lastMail(t.app, 'reset@rule.ng'))?.link);
    expect((await post('/reset-password', { resetToken, newPassword: 'short' })).json()).toEqual(refused(Msg.passwordTooShort));
    const common = await post('/reset-password', { resetToken, newPassword: 'sunshine' });
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual(refused(ApiMsg.commonPassword));
    expect((await post('/reset-password', { resetToken, newPassword: 'kano-market-42' })).json()).toMatchObject({ msg: ApiMsg.passwordReset });
    await login(t.app, 'reset@rule.ng', 'kano-market-42');
  });
});

describe('change', () => {
  it('refuses a short or common new password and keeps the old one', async () => {
    await createUser(t.app, 'change@rule.ng', Role.organization);
    const token = await login(t.app, 'change@rule.ng');
    expect((await post('/change-password', { oldPassword: PASSWORD, newPassword: 'short' }, token)).json()).toEqual(refused(Msg.passwordTooShort));
    const common = await post('/change-password', { oldPassword: PASSWORD, newPassword: 'football' }, token);
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual(refused(ApiMsg.commonPassword));
    await login(t.app, 'change@rule.ng', PASSWORD);
  });

  it('still signs in with an old password that predates the rule', async () => {
    await createUser(t.app, 'old@rule.ng', Role.fieldUser, { password: 'pw' });
    await login(t.app, 'old@rule.ng', 'pw');
  });
});

describe('master admin', () => {
  it('refuses a common ADMIN_PASSWORD at start-up, naming the setting', async () => {
    const other = await buildTestApp();
    try {
      await expect(ensureMasterAdmin(other.app, 'root@rule.ng', 'password1')).rejects.toThrow(`ADMIN_PASSWORD: ${ApiMsg.commonPassword}`);
      expect(await ensureMasterAdmin(other.app, 'root@rule.ng', 'kano-market-42')).toBe(true);
    } finally {
      await other.close();
    }
  });
});
