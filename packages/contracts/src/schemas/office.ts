import { z } from 'zod';
import { OFFICE_ROLES } from '../roles.js';
import { Id, Paging, ValidEmail } from './common.js';

/** The most surveys one office user may be limited to: far more than an organization runs at once. */
export const MAX_OFFICE_SURVEYS = 200;

export const OfficeMsg = {
  invited: 'Office user invited',
  updated: 'Office user updated',
  removed: 'Office user removed',
  notFound: 'Office user not found',
  alreadyOfficeUser: 'This e-mail is already an office user',
  lastOwner: 'An organization needs at least one owner: make someone else owner first',
  roleRequired: 'Choose a role: owner, admin, analyst, finance or reviewer',
  surveysUnknown: 'Some of these surveys are not of this organization',
  ownerSeesAll: 'An owner sees every survey: choose no surveys for an owner',
  limitedCannot: 'Only an office user who sees every survey can do this',
  financeBankOnly: 'Finance may change bank details only',
} as const;

const OfficeRoleField = z.enum(OFFICE_ROLES, { error: OfficeMsg.roleRequired });
/** null or absent: every survey of the organization; a list: only those (at least one). */
const SurveyIds = z.array(Id).min(1, 'Choose at least one survey, or none to allow every survey').max(MAX_OFFICE_SURVEYS, `At most ${MAX_OFFICE_SURVEYS} surveys`).nullable();

export const OfficeUser = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.enum(OFFICE_ROLES),
  /** null: every survey. */
  surveyIds: z.array(z.string()).nullable(),
  /** Whether the e-mail has an account yet (false: the invitation waits for registration). */
  registered: z.boolean(),
  createdAt: z.string(),
});
export type OfficeUser = z.infer<typeof OfficeUser>;

export const OfficeUserListReply = z.object({ officeUsers: z.array(OfficeUser), ...Paging });
export type OfficeUserListReply = z.infer<typeof OfficeUserListReply>;

export const InviteOfficeUserBody = z.object({ email: ValidEmail, role: OfficeRoleField, surveyIds: SurveyIds.optional() });
export type InviteOfficeUserBody = z.infer<typeof InviteOfficeUserBody>;

export const UpdateOfficeUserBody = z.object({ role: OfficeRoleField, surveyIds: SurveyIds.optional() });
export type UpdateOfficeUserBody = z.infer<typeof UpdateOfficeUserBody>;

export const OfficeUserParams = z.object({ id: Id });
export const OfficeUserReply = z.object({ msg: z.string(), officeUser: OfficeUser });
export type OfficeUserReply = z.infer<typeof OfficeUserReply>;
