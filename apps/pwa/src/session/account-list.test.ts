import { Limits, Msg } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { addAccount, canAdd, parseAccounts, removeAccount, serializeAccounts, switchTo, type StoredAccount } from './account-list';

const acct = (n: number): StoredAccount => ({ email: `user${n}@example.com`, token: `t${n}` });
const five = [1, 2, 3, 4, 5].map(acct);

describe('parseAccounts', () => {
  it('reads a valid list, stored in the spec\'s [{ user, token }] shape', () => {
    const raw = serializeAccounts([acct(1), acct(2)]);
    expect(JSON.parse(raw)).toEqual([{ user: 'user1@example.com', token: 't1' }, { user: 'user2@example.com', token: 't2' }]);
    expect(parseAccounts(raw)).toEqual([acct(1), acct(2)]);
  });
  it.each([null, '', 'not json', '{"user":"a","token":"b"}', '[{"user":"a"}]', '[1,2]', '[{"user":"","token":"x"}]', 'null'])(
    'discards %j as empty',
    (raw) => expect(parseAccounts(raw)).toEqual([]),
  );
  it('drops extra fields and entries beyond the limit', () => {
    const raw = JSON.stringify([...five, acct(6)].map((a) => ({ user: a.email, token: a.token, extra: 1 })));
    expect(parseAccounts(raw)).toEqual(five);
  });
});

describe('addAccount', () => {
  it('puts a new account in front', () => {
    const r = addAccount([acct(1), acct(2)], acct(3));
    expect(r).toEqual({ ok: true, accounts: [acct(3), acct(1), acct(2)] });
  });
  it('replaces an entry with the same e-mail (case-insensitive) and moves it to the front', () => {
    const r = addAccount([acct(1), acct(2), acct(3)], { email: 'USER2@example.com', token: 'new' });
    expect(r).toEqual({ ok: true, accounts: [{ email: 'USER2@example.com', token: 'new' }, acct(1), acct(3)] });
  });
  it(`refuses a sixth account with "${Msg.tooManyAccounts}"`, () => {
    expect(five).toHaveLength(Limits.maxAccounts);
    expect(addAccount(five, acct(6))).toEqual({ ok: false, msg: Msg.tooManyAccounts });
    expect(canAdd(five)).toBe(false);
    expect(canAdd(five.slice(1))).toBe(true);
  });
  it('still lets a stored account sign in again at the limit', () => {
    const r = addAccount(five, { email: 'user4@example.com', token: 'fresh' });
    expect(r.ok && r.accounts.map((a) => a.token)).toEqual(['fresh', 't1', 't2', 't3', 't5']);
  });
});

describe('switchTo and removeAccount', () => {
  it('moves the chosen account to the front, keeping the others in order', () => {
    expect(switchTo(five, 'user3@example.com').map((a) => a.email)).toEqual(
      ['user3', 'user1', 'user2', 'user4', 'user5'].map((u) => `${u}@example.com`),
    );
  });
  it('ignores an unknown e-mail', () => {
    expect(switchTo(five, 'nobody@example.com')).toEqual(five);
  });
  it('removes by e-mail', () => {
    expect(removeAccount(five, 'user1@example.com')[0]).toEqual(acct(2));
  });
});
