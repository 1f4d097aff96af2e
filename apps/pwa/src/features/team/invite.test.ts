import { ApiMsg, Msg } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { checkInvite, EMPTY_INVITE, type InviteForm } from './invite';

const good: InviteForm = { fullName: 'Amina Bello', email: 'amina@example.com', phoneNumber: '08030000000', bank: 'Access Bank', accountNumber: '0123456789', accountName: 'Amina Bello', rate: '500' };
const msgOf = (r: { ok: boolean; msg?: string }) => (r.ok ? null : r.msg);

describe('checkInvite (field user)', () => {
  it('needs an active survey first', () => {
    expect(msgOf(checkInvite('fieldUser', null, EMPTY_INVITE))).toBe(Msg.noActiveSurvey);
  });
  it('checks in the spec order: name, e-mail, phone', () => {
    expect(msgOf(checkInvite('fieldUser', 's1', EMPTY_INVITE))).toBe(ApiMsg.fullNameShort);
    expect(msgOf(checkInvite('fieldUser', 's1', { ...EMPTY_INVITE, fullName: 'Ab' }))).toBe(ApiMsg.fullNameShort);
    expect(msgOf(checkInvite('fieldUser', 's1', { ...EMPTY_INVITE, fullName: 'Abe' }))).toBe(ApiMsg.invalidEmail);
    expect(msgOf(checkInvite('fieldUser', 's1', { ...EMPTY_INVITE, fullName: 'Abe', email: 'abe@' }))).toBe(ApiMsg.invalidEmail);
    expect(msgOf(checkInvite('fieldUser', 's1', { ...EMPTY_INVITE, fullName: 'Abe', email: 'abe@x.ng' }))).toBe(ApiMsg.providePhone);
  });
  it('does not need bank, account number or account name', () => {
    const r = checkInvite('fieldUser', 's1', { ...EMPTY_INVITE, fullName: 'Abe', email: 'Abe@X.ng', phoneNumber: '0803' });
    expect(r).toEqual({ ok: true, body: { survey_id: 's1', fullName: 'Abe', email: 'abe@x.ng', phoneNumber: '0803', bank: '', accountNumber: '', accountName: '', rate: 0 } });
  });
  it('takes no account number, but a 10-digit one (a NUBAN) when one is typed', () => {
    const named = { ...EMPTY_INVITE, fullName: 'Abe', email: 'abe@x.ng', phoneNumber: '0803' };
    expect(msgOf(checkInvite('fieldUser', 's1', { ...named, accountNumber: '012345678' }))).toBe(ApiMsg.invalidAccountNumber);
    expect(msgOf(checkInvite('fieldUser', 's1', { ...named, accountNumber: '01234567a9' }))).toBe(ApiMsg.invalidAccountNumber);
    expect(msgOf(checkInvite('fieldUser', 's1', { ...named, accountNumber: ' 0123456789 ' }))).toBeNull();
    expect(ApiMsg.invalidAccountNumber).toContain('10 digits');
  });
  it('sends the rate as a number', () => {
    const r = checkInvite('fieldUser', 's1', good);
    expect(r.ok && r.body.rate).toBe(500);
  });
});

describe('checkInvite (supervisor)', () => {
  const base = { ...good, rate: '' };
  it('also needs a 10-digit account number, then an account name', () => {
    expect(msgOf(checkInvite('supervisor', 's1', { ...base, accountNumber: '12345' }))).toBe(ApiMsg.invalidAccountNumber);
    expect(msgOf(checkInvite('supervisor', 's1', { ...base, accountNumber: '012345678x' }))).toBe(ApiMsg.invalidAccountNumber);
    expect(msgOf(checkInvite('supervisor', 's1', { ...base, accountNumber: '' }))).toBe(ApiMsg.invalidAccountNumber);
    expect(msgOf(checkInvite('supervisor', 's1', { ...base, accountName: ' ' }))).toBe(ApiMsg.provideAccountName);
  });
  it('checks the phone before the account', () => {
    expect(msgOf(checkInvite('supervisor', 's1', { ...base, phoneNumber: '', accountNumber: '' }))).toBe(ApiMsg.providePhone);
  });
  it('accepts a complete form without a rate', () => {
    const r = checkInvite('supervisor', 's1', base);
    expect(r.ok).toBe(true);
    expect(r.ok && 'rate' in r.body).toBe(false);
  });
});
