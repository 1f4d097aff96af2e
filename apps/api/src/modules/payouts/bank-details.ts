import { BankField, Limits, PayoutMsg } from '@survey-bird/contracts';
import type { PayMember } from './repository.js';

type BankDetails = Pick<PayMember, 'bank' | 'account_number' | 'account_name'>;

const accountNumber = new RegExp(`^\\d{${Limits.accountNumberLength}}$`);

/** Every bank detail a transfer file needs that this field user lacks (an account number not of 10 digits counts as lacking). */
export function missingBankFields(m: BankDetails): BankField[] {
  const missing: BankField[] = [];
  if (!m.bank.trim()) missing.push(BankField.bank);
  if (!accountNumber.test(m.account_number.trim())) missing.push(BankField.accountNumber);
  if (!m.account_name.trim()) missing.push(BankField.accountName);
  return missing;
}

/** Why a field user cannot be put in a bank transfer file (the first problem), or null. */
export function bankProblem(m: BankDetails): string | null {
  if (!m.bank.trim()) return 'No bank';
  if (!accountNumber.test(m.account_number.trim())) return `Account number is not ${Limits.accountNumberLength} digits`;
  if (!m.account_name.trim()) return 'No account name';
  return null;
}

/** Names shown in the message; the rest are counted, so a survey of 5,000 unpaid field users gives a readable reply. */
const NAMED_MAX = 20;

/**
 * The spec's "Nothing to pay: ... incomplete bank details" followed by who lacks what, e.g.
 * `...: Ada Obi <ada@x.ng> lacks bank, account number; Bayo Ade <bayo@x.ng> lacks account name`.
 * The e-mail tells apart two field users of the same name.
 */
export function nothingPayableMsg(lacking: (Pick<PayMember, 'full_name' | 'email'> & BankDetails)[]): string {
  const named = lacking.slice(0, NAMED_MAX).map((m) => `${m.full_name} <${m.email}> lacks ${missingBankFields(m).join(', ')}`);
  const more = lacking.length > NAMED_MAX ? `; and ${lacking.length - NAMED_MAX} more` : '';
  return `${PayoutMsg.nothingPayable}: ${named.join('; ')}${more}`;
}
