import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Msg, Role, messageCode } from '@survey-bird/contracts';
import { PASSWORD, buildTestApp, call, createUser, lastMail, login, type TestApp } from '../../../test/helpers.js';
import { MAIL_WORDS } from '../mail/texts.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const setLanguage = (token: string | null, payload: unknown) => call(t.app, token, { method: 'PATCH', url: '/api/v1/user/language', payload: payload as object });
const me = (token: string) => call(t.app, token, { method: 'GET', url: '/api/v1/user' });

describe('the app language of an account', () => {
  it('starts in English, is changed by any signed-in role and read back by GET /user', async () => {
    for (const role of [Role.fieldUser, Role.supervisor, Role.organization, Role.masterAdmin]) {
      const email = `lang-${role}@org.ng`;
      await createUser(t.app, email, role);
      const token = await login(t.app, email);
      expect((await me(token)).json().user.language).toBe('en');
      const res = await setLanguage(token, { language: 'ha' });
      expect(res.statusCode, role).toBe(200);
      expect(res.json()).toEqual({ msg: ApiMsg.languageSaved, language: 'ha' });
      expect((await me(token)).json().user.language).toBe('ha');
    }
  });

  it('refuses a language that is not one of ours, and a caller without a session, with { msg, code }', async () => {
    await createUser(t.app, 'lang-bad@org.ng', Role.fieldUser);
    const token = await login(t.app, 'lang-bad@org.ng');
    for (const language of ['fr', '', null, 42, 'HA']) {
      const res = await setLanguage(token, { language });
      expect(res.statusCode, String(language)).toBe(400);
      expect(res.json()).toEqual({ msg: ApiMsg.invalidLanguage, code: 'invalidLanguage' });
    }
    const anonymous = await setLanguage(null, { language: 'yo' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ msg: Msg.authenticationInvalid, code: 'authenticationInvalid' });
  });

  it('writes the reset mail in the account language', async () => {
    await createUser(t.app, 'lang-mail@org.ng', Role.fieldUser);
    const token = await login(t.app, 'lang-mail@org.ng');
    await setLanguage(token, { language: 'yo' });
    await call(t.app, null, { method: 'POST', url: '/api/v1/user/send-refresh-token', payload: { email: 'lang-mail@org.ng' } });
    const mail = await lastMail(t.app, 'lang-mail@org.ng');
    expect(mail?.subject).toBe(MAIL_WORDS.yo.resetSubject);
    expect(mail?.text).toContain(MAIL_WORDS.yo.resetText('').slice(0, 30));
    await setLanguage(token, { language: 'en' });
    await call(t.app, null, { method: 'POST', url: '/api/v1/user/send-refresh-token', payload: { email: 'lang-mail@org.ng' } });
    expect((await lastMail(t.app, 'lang-mail@org.ng'))?.subject).toBe('Reset your Survey Bird password');
  });

  it('registers in the language the sign-in page showed', async () => {
    const res = await call(t.app, null, { method: 'POST', url: '/api/v1/user/register', payload: { email: 'lang-new@org.ng', password: PASSWORD, language: 'pcm' } });
    expect(res.statusCode).toBe(200);
    expect((await lastMail(t.app, 'lang-new@org.ng'))?.subject).toBe(MAIL_WORDS.pcm.verifySubject);
  });
});

describe('error codes', () => {
  it('name each message by its key in the contracts, whatever the words around it', () => {
    expect(messageCode(Msg.fillCompulsory, 400)).toBe('fillCompulsory');
    expect(messageCode(ApiMsg.surveyNotFound, 404)).toBe('surveyNotFound');
    expect(messageCode(`${ApiMsg.bulkDuplicateRow} 4`, 400)).toBe('bulkDuplicateRow');
    expect(messageCode('"Age": Value not allowed', 400)).toBe('form.constraint');
    expect(messageCode('Invalid input: expected string', 400)).toBe('badRequest');
    expect(messageCode('anything', 503)).toBe('serviceUnavailable');
  });

  it('go with every error reply: a refused sign-in, an unknown route, a malformed body', async () => {
    const wrong = await call(t.app, null, { method: 'POST', url: '/api/v1/user/login', payload: { email: 'nobody@org.ng', password: 'x' } });
    expect(wrong.json()).toEqual({ msg: ApiMsg.wrongCredentials, code: 'wrongCredentials' });
    const route = await call(t.app, null, { method: 'GET', url: '/api/v1/no-such-route' });
    expect(route.json()).toEqual({ msg: ApiMsg.routeNotFound, code: 'routeNotFound' });
    const body = await call(t.app, null, { method: 'POST', url: '/api/v1/user/login', payload: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(body.statusCode).toBe(400);
    expect(body.json().code).toBe('badRequest');
  });
});
