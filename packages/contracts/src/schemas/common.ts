import { z } from 'zod';
import { Limits } from '../constants.js';
import { ApiMsg } from '../api-messages.js';
import { Msg } from '../messages.js';

/** Every error: the spec's English words and a stable code the phone translates (message-codes.ts). */
export const ErrorReply = z.object({ msg: z.string(), code: z.string() });
export type ErrorReply = z.infer<typeof ErrorReply>;

export const MsgReply = z.object({ msg: z.string() });
export type MsgReply = z.infer<typeof MsgReply>;

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The same UUID in upper and lower case is one id: every UUID input is lower-cased before use. */
export const lowerUuid = (v: string) => (UUID_SHAPE.test(v) ? v.toLowerCase() : v);

/** Ids are opaque strings (UUIDs); a malformed one is simply not found. */
export const Id = z.string().min(1).max(64).overwrite(lowerUuid);

/** A client-generated idempotency key (a response's or a photo's clientId), lower-cased. */
export const ClientId = z.uuid({ error: 'clientId must be a UUID' }).toLowerCase();

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail that must be present (spec: 'Provide email'); normalised to lower case. */
export const RequiredEmail = z
  .string({ error: Msg.provideEmail })
  .trim()
  .min(1, Msg.provideEmail)
  .max(Limits.maxEmail, ApiMsg.invalidEmail)
  .toLowerCase();

/** Register: present first ('Provide email'), then the standard pattern ('Invalid email address'). */
export const RegisterEmail = RequiredEmail.regex(EMAIL_PATTERN, ApiMsg.invalidEmail);

/** An e-mail that must match the standard pattern (spec: 'Invalid email address'). */
export const ValidEmail = z
  .string({ error: ApiMsg.invalidEmail })
  .trim()
  .max(Limits.maxEmail, ApiMsg.invalidEmail)
  .regex(EMAIL_PATTERN, ApiMsg.invalidEmail)
  .toLowerCase();

export const Password = (message: string) =>
  z.string({ error: message }).min(1, message).max(Limits.maxPassword, `Password is too long (max ${Limits.maxPassword})`);

/**
 * A password being set (register, reset, change): also at least `Limits.minPassword` characters.
 * The server alone checks it against the common-password list (apps/api accounts/password-rule.ts),
 * so the PWA's bundle never carries the list. Sign-in keeps `Password`: old passwords still sign in.
 */
export const NewPassword = (message: string) => Password(message).min(Limits.minPassword, Msg.passwordTooShort);

export const PageQuery = z.object({
  page: z.coerce.number({ error: 'page must be a positive whole number' }).int('page must be a positive whole number').min(1, 'page must be a positive whole number').max(1_000_000).default(1),
  searchQuery: z.string().trim().max(Limits.maxSearchQuery, `searchQuery is too long (max ${Limits.maxSearchQuery})`).default(''),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const Paging = {
  page: z.number().int(),
  totalCount: z.number().int(),
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean(),
};

export const SurveyIdParams = z.object({ surveyId: Id });
export type SurveyIdParams = z.infer<typeof SurveyIdParams>;

/** An amount of money: whole naira, no decimals (spec section 9), never negative. */
export const Naira = z.number().int().min(0);
export type Naira = z.infer<typeof Naira>;

/**
 * Naira from a form or JSON: a whole number, or a string of decimal digits (an HTML number input).
 * Anything else ("0x10", "1e3", true, [], 1.5) is refused rather than coerced to a number.
 */
export const NairaInput = (label: string) => {
  const whole = `${label} must be a whole number of naira`;
  return z
    .union([z.number({ error: whole }).int(whole), z.string({ error: whole }).trim().regex(/^-?\d{1,9}$/, whole).transform(Number)], { error: whole })
    .pipe(z.number().min(0, `${label} cannot be negative`).max(100_000_000, `${label} is too large (max 100000000)`));
};

export const IsoDate = z.string().datetime({ offset: true });
