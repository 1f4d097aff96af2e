import { z } from 'zod';
import { ApiMsg } from '../api-messages.js';
import { Msg } from '../messages.js';
import { OFFICE_ROLES, ROLES } from '../roles.js';
import { AppLanguages } from '../constants.js';
import { Id, NewPassword, Password, RegisterEmail, RequiredEmail } from './common.js';

export const UserSummary = z.object({ email: z.string(), role: z.enum(ROLES) });
export type UserSummary = z.infer<typeof UserSummary>;

export const CurrentUser = UserSummary.extend({
  _id: z.string(),
  fullName: z.string().nullable(),
  verified: z.boolean(),
  organization_id: z.string().nullable(),
  /** An office user's role in the organization; null for every other account. */
  officeRole: z.enum(OFFICE_ROLES).nullable(),
  /** The app's language chosen for this account (PATCH /user/language); mails follow it. */
  language: z.enum(AppLanguages),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const UserLanguageBody = z.object({ language: z.enum(AppLanguages, { error: ApiMsg.invalidLanguage }) });
export type UserLanguageBody = z.infer<typeof UserLanguageBody>;
export const UserLanguageReply = z.object({ msg: z.string(), language: z.enum(AppLanguages) });

export const LoginBody = z.object({ email: RequiredEmail, password: Password(ApiMsg.providePassword) });
export type LoginBody = z.infer<typeof LoginBody>;
export const LoginReply = z.object({ user: UserSummary, msg: z.string(), token: z.string() });
export type LoginReply = z.infer<typeof LoginReply>;

export const RegisterBody = z.object({
  email: RegisterEmail,
  password: NewPassword(ApiMsg.providePassword),
  /** The token of the invitation link (`/register?email=...&invite=...`): required for an invited e-mail. */
  invite: z.string().max(200).optional(),
  /** The language the sign-in page showed: the new account's (mails follow it). */
  language: z.enum(AppLanguages).optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const ConfirmEmailParams = z.object({ id: z.string().min(1).max(200) });
export type ConfirmEmailParams = z.infer<typeof ConfirmEmailParams>;

export const CurrentUserReply = z.object({ user: CurrentUser });
export type CurrentUserReply = z.infer<typeof CurrentUserReply>;

export const SendRefreshTokenBody = z.object({ email: RequiredEmail });
export type SendRefreshTokenBody = z.infer<typeof SendRefreshTokenBody>;

export const ResetPasswordBody = z.object({
  newPassword: NewPassword(Msg.provideNewPassword),
  resetToken: z.string({ error: ApiMsg.resetLinkInvalid }).min(1, ApiMsg.resetLinkInvalid).max(200),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

export const ChangePasswordBody = z.object({
  oldPassword: Password(ApiMsg.provideOldPassword),
  newPassword: NewPassword(Msg.provideNewPassword),
  /** 'Sign out from all devices after password change', on by default (spec section 9). */
  signOutOthers: z.boolean().default(true),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const ChangePasswordHeaders = z.object({
  deviceid: z.string().max(200).optional(),
  email: z.string().max(254).optional(),
});

export const ResendVerificationBody = z
  .object({ id: Id.optional(), email: RequiredEmail.optional() })
  .refine((b) => b.id !== undefined || b.email !== undefined, { message: Msg.provideEmail });
export type ResendVerificationBody = z.infer<typeof ResendVerificationBody>;

/** Master admin's "All users" list. */
export const UserRow = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  verified: z.boolean(),
  organization_name: z.string().nullable(),
  createdAt: z.string(),
});
export type UserRow = z.infer<typeof UserRow>;
