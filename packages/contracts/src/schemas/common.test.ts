import { describe, expect, it } from 'vitest';
import { ApiMsg } from '../api-messages.js';
import { Msg } from '../messages.js';
import { Naira, PageQuery, RequiredEmail, ValidEmail } from './common.js';
import { ChangePasswordBody, LoginBody, RegisterBody, ResetPasswordBody } from './user.js';
import { ResponsesQuery } from './response.js';

const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('a password being set', () => {
  it('is at least 8 characters on register, reset and change (the form checks length; the server also the common list)', () => {
    expect(message(RegisterBody.safeParse({ email: 'a@b.ng', password: 'short' }))).toBe(Msg.passwordTooShort);
    expect(message(ResetPasswordBody.safeParse({ newPassword: '1234567', resetToken: 't' }))).toBe(Msg.passwordTooShort);
    expect(message(ChangePasswordBody.safeParse({ oldPassword: 'x', newPassword: 'short' }))).toBe(Msg.passwordTooShort);
    expect(message(ResetPasswordBody.safeParse({ newPassword: '', resetToken: 't' }))).toBe(Msg.provideNewPassword);
    expect(RegisterBody.safeParse({ email: 'a@b.ng', password: 'kano-market-42' }).success).toBe(true);
  });
  it('is not checked on sign-in, so a password from before the rule still signs in', () => {
    expect(LoginBody.safeParse({ email: 'a@b.ng', password: 'pw' }).success).toBe(true);
  });
});

describe('Naira', () => {
  it('takes whole, non-negative amounts of any size a sum can reach', () => {
    expect(Naira.parse(0)).toBe(0);
    expect(Naira.parse(12_500)).toBe(12_500);
    expect(Naira.parse(250_000_000_000)).toBe(250_000_000_000);
  });

  it('refuses kobo, negatives, text and unsafe integers', () => {
    for (const bad of [12.5, -1, '100', Number.MAX_SAFE_INTEGER + 2, Number.NaN, true]) {
      expect(Naira.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe('PageQuery', () => {
  it('defaults to page 1 and no search, trimming the search', () => {
    expect(PageQuery.parse({})).toEqual({ page: 1, searchQuery: '' });
    expect(PageQuery.parse({ page: '3', searchQuery: '  ngozi ' })).toEqual({ page: 3, searchQuery: 'ngozi' });
  });

  it('answers a bad page in words', () => {
    for (const bad of ['0', '-2', '1.5', 'two']) {
      expect(message(PageQuery.safeParse({ page: bad })), bad).toBe('page must be a positive whole number');
    }
  });

  it('is the responses query too, so the tables page the same way', () => {
    expect(ResponsesQuery.safeParse({ page: '0' }).success).toBe(false);
    expect(ResponsesQuery.parse({ page: '2' }).page).toBe(2);
  });
});

describe('e-mails', () => {
  it('normalises case and spaces', () => {
    expect(RequiredEmail.parse('  Ada@Example.NG ')).toBe('ada@example.ng');
    expect(ValidEmail.parse('Ada@Example.NG')).toBe('ada@example.ng');
  });

  it('uses the spec words for a missing or malformed address', () => {
    expect(message(RequiredEmail.safeParse(''))).toBe(Msg.provideEmail);
    expect(message(ValidEmail.safeParse('not-an-email'))).toBe(ApiMsg.invalidEmail);
  });
});
