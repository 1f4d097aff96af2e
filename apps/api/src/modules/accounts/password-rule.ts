import { ApiMsg, Limits, Msg } from '@survey-bird/contracts';
import { badRequest } from '../../http/errors.js';

/** Names people in Nigeria pick for this product that no general list carries. */
const LOCAL_COMMON = ['surveybird', 'surveybird1', 'survey-bird', 'survey123', 'nigeria123', 'lagos123', 'naija123'];

let common: Promise<Set<string>> | undefined;

/**
 * The blocklist NIST SP 800-63B 5.1.1.2 asks for: @zxcvbn-ts/language-common's 49,233 most common
 * passwords (maintained, MIT), of which 17,950 have 8+ characters (shorter ones fail the length rule
 * first). Loaded on the first password set, not at start-up: decompressing it costs about 0.3 s and
 * 6.5 MB of heap, which an idle server should not hold.
 */
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => {
    const list = dictionary['passwords-common'];
    return new Set([...list.filter((p) => p.length >= Limits.minPassword).map((p) => p.toLowerCase()), ...LOCAL_COMMON]);
  });
  return common;
}

/** Compared lower-cased and NFKC-normalised (as hashed): `Password1` is as guessable as `password1`. */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.normalize('NFKC').toLowerCase());
}

/** Why a password cannot be set (length, then the blocklist), or null. */
export async function passwordProblem(password: string): Promise<string | null> {
  if (password.length < Limits.minPassword) return Msg.passwordTooShort;
  if (await isCommonPassword(password)) return ApiMsg.commonPassword;
  return null;
}

/** Every place a password is set calls this first: register, reset, change, master admin. */
export async function assertPasswordRule(password: string): Promise<void> {
  const problem = await passwordProblem(password);
  if (problem) throw badRequest(problem);
}
