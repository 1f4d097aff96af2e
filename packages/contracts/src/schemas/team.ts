import { z } from 'zod';
import { DeviceSummary } from './device.js';
import { Limits } from '../constants.js';
import { ApiMsg } from '../api-messages.js';
import { Msg } from '../messages.js';
import { Id, Naira, NairaInput, Paging, ValidEmail, lowerUuid } from './common.js';

export const FieldUser = z.object({
  _id: z.string(),
  fullName: z.string(),
  phoneNumber: z.string(),
  email: z.string(),
  bank: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  rate: Naira,
  responses: z.number().int(),
  /** Naira owed: approved responses not yet paid (docs/decisions.md, "Money"). */
  outstanding: Naira,
  /** Naira of pending responses, owed once approved. */
  awaitingReview: Naira,
  supervisorId: z.string().nullable(),
  supervisorName: z.string().nullable(),
  /** What their phones last reported; null before the first report. */
  device: DeviceSummary.nullable().optional(),
  /** Open quality flags on their responses to this survey; on the field-user list rows. */
  flags: z.number().int().optional(),
});
export type FieldUser = z.infer<typeof FieldUser>;

export const FieldUserListReply = z.object({
  fieldUsers: z.array(FieldUser),
  totalDue: Naira,
  /** The survey's organization's threshold: highlight phones holding work with no sync for this many days. */
  staleSyncDays: z.number().int(),
  ...Paging,
});
export type FieldUserListReply = z.infer<typeof FieldUserListReply>;

const fullName = z.string({ error: ApiMsg.fullNameShort }).trim().min(Limits.minFullName, ApiMsg.fullNameShort).max(120, 'Full name is too long (max 120)');
const phoneNumber = z.string({ error: ApiMsg.providePhone }).trim().min(1, ApiMsg.providePhone).max(30, 'Phone number is too long (max 30)');
/**
 * A NUBAN: exactly 10 digits. An invitation's bank details cannot be edited afterwards, so a
 * mistyped one (9 digits, a letter) is refused here, in the form and on the server alike.
 */
const nuban = new RegExp(`^\\d{${Limits.accountNumberLength}}$`);
const surveyId = z.string({ error: Msg.noActiveSurvey }).min(1, Msg.noActiveSurvey).max(64).overwrite(lowerUuid);

export const InviteFieldUserBody = z.object({
  survey_id: surveyId,
  fullName,
  email: ValidEmail,
  phoneNumber,
  /** Optional for a field user (spec section 8), but a NUBAN when given. */
  accountNumber: z.string({ error: ApiMsg.invalidAccountNumber }).trim().refine((v) => v === '' || nuban.test(v), ApiMsg.invalidAccountNumber).default(''),
  accountName: z.string().trim().max(120).default(''),
  bank: z.string().trim().max(120).default(''),
  rate: NairaInput('Rate').default(0),
});
export type InviteFieldUserBody = z.input<typeof InviteFieldUserBody>;

export const InviteSupervisorBody = z.object({
  survey_id: surveyId,
  fullName,
  email: ValidEmail,
  phoneNumber,
  accountNumber: z.string({ error: ApiMsg.invalidAccountNumber }).trim().regex(nuban, ApiMsg.invalidAccountNumber),
  accountName: z.string({ error: ApiMsg.provideAccountName }).trim().min(1, ApiMsg.provideAccountName).max(120),
  bank: z.string().trim().max(120).default(''),
});
export type InviteSupervisorBody = z.input<typeof InviteSupervisorBody>;

export const Supervisor = z.object({
  _id: z.string(),
  fullName: z.string(),
  phoneNumber: z.string(),
  email: z.string(),
  bank: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  outstanding: Naira,
  awaitingReview: Naira,
  fieldUserCount: z.number().int(),
});
export type Supervisor = z.infer<typeof Supervisor>;

export const SupervisorListReply = z.object({ supervisors: z.array(Supervisor), ...Paging });
export type SupervisorListReply = z.infer<typeof SupervisorListReply>;

export const InviteFieldUserReply = z.object({ msg: z.string(), fieldsUser: FieldUser });
export type InviteFieldUserReply = z.infer<typeof InviteFieldUserReply>;
export const InviteSupervisorReply = z.object({ msg: z.string(), fieldsUser: Supervisor });
export type InviteSupervisorReply = z.infer<typeof InviteSupervisorReply>;

export const AssignSupervisorBody = z.object({ supervisorId: Id, fieldUserId: Id, survey_id: Id });
export type AssignSupervisorBody = z.infer<typeof AssignSupervisorBody>;

/** A field user's or supervisor's member row on one survey (the Access delete icon). */
export const MemberParams = z.object({ surveyId: Id, memberId: Id });
export type MemberParams = z.infer<typeof MemberParams>;
export const AssignSupervisorReply = z.object({ msg: z.string(), data: FieldUser });
export type AssignSupervisorReply = z.infer<typeof AssignSupervisorReply>;

export const CurrentSupervisorNameReply = z.object({ supervisor: z.string() });
export type CurrentSupervisorNameReply = z.infer<typeof CurrentSupervisorNameReply>;

/** Master admin's "All Field Users" row: a field user across organizations. */
export const FieldUserAcrossRow = z.object({
  _id: z.string(),
  fullName: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  organization_name: z.string(),
  surveyTitle: z.string(),
  responses: z.number().int(),
  outstanding: Naira,
});
export type FieldUserAcrossRow = z.infer<typeof FieldUserAcrossRow>;
