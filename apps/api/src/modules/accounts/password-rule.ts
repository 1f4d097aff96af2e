import { ApiMsg, Limits, Msg } from '@survey-bird/contracts';
import { badRequest } from '../../http/errors.js';
import { COMMON_PASSWORDS } from './common-passwords.js';

let common: Set<string> | undefined;

/** Compared lower-cased and NFKC-normalised (as hashed): `Password1` is as guessable as `password1`. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(COMMON_PASSWORDS.split('\n').filter((p) => p !== ''));
  return common.has(password.normalize('NFKC').toLowerCase());
}

/** Why a password cannot be set (NIST SP 800-63B 5.1.1.2: length, then the blocklist), or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < Limits.minPassword) return Msg.passwordTooShort;
  if (isCommonPassword(password)) return ApiMsg.commonPassword;
  return null;
}

/** Every place a password is set calls this first: register, reset, change, master admin. */
export function assertPasswordRule(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(problem);
}
