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
  /** Also a back-checker on this survey: revisits other teams' respondents (schemas/backcheck.ts). */
  backchecker: z.boolean({ error: 'backchecker must be true or false' }).optional(),
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

/**
 * Editing a member of a survey: each field optional, checked with the invitation's own messages.
 * A rate applies to responses received from then on; bank details change with an audit event and a
 * mail to the person; supervisorId null unassigns.
 */
export const UpdateMemberBody = z
  .object({
    rate: NairaInput('Rate').optional(),
    phoneNumber: phoneNumber.optional(),
    bank: z.string().trim().max(120, 'Bank is too long (max 120)').optional(),
    accountNumber: z.string({ error: ApiMsg.invalidAccountNumber }).trim().regex(nuban, ApiMsg.invalidAccountNumber).optional(),
    accountName: z.string({ error: ApiMsg.provideAccountName }).trim().min(1, ApiMsg.provideAccountName).max(120, 'Account name is too long (max 120)').optional(),
    supervisorId: Id.nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), ApiMsg.nothingToChange);
export type UpdateMemberBody = z.input<typeof UpdateMemberBody>;

export const Member = z.object({
  _id: z.string(),
  survey_id: z.string(),
  role: z.string(),
  fullName: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  bank: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  rate: Naira,
  supervisorId: z.string().nullable(),
  /** When the bank details last changed; null since the invitation. */
  bankChangedAt: z.string().nullable(),
});
export type Member = z.infer<typeof Member>;
export const UpdateMemberReply = z.object({ msg: z.string(), member: Member });
export type UpdateMemberReply = z.infer<typeof UpdateMemberReply>;

export const BulkAssignBody = z.object({
  survey_id: Id,
  supervisorId: Id,
  fieldUserIds: z.array(Id).min(1, 'Select at least one field user').max(Limits.maxBulkAssign, `Select at most ${Limits.maxBulkAssign} field users at a time`),
});
export type BulkAssignBody = z.infer<typeof BulkAssignBody>;
export const BulkAssignReply = z.object({ msg: z.string(), assigned: z.number().int() });
export type BulkAssignReply = z.infer<typeof BulkAssignReply>;

/** A person across the organization: every survey they are a member of. */
export const PersonBody = z.object({ email: ValidEmail });
export type PersonBody = z.infer<typeof PersonBody>;
export const PersonReply = z.object({ msg: z.string(), surveys: z.number().int() });
export type PersonReply = z.infer<typeof PersonReply>;
export const DeactivatedPerson = z.object({ email: z.string(), fullName: z.string(), role: z.string(), deactivatedAt: z.string(), surveys: z.number().int() });
export type DeactivatedPerson = z.infer<typeof DeactivatedPerson>;
export const DeactivatedListReply = z.object({ people: z.array(DeactivatedPerson), ...Paging });
export type DeactivatedListReply = z.infer<typeof DeactivatedListReply>;

/** The columns of a bulk invitation file, as the template heads them; supervisor e-mail is optional. */
export const FIELD_USER_BULK_COLUMNS = ['Full name', 'Email', 'Phone number', 'Bank', 'Account number', 'Account name', 'Rate', 'Supervisor email'] as const;
export const SUPERVISOR_BULK_COLUMNS = ['Full name', 'Email', 'Phone number', 'Bank', 'Account number', 'Account name'] as const;

export const BulkRowStatus = { new: 'new', existing: 'existing', error: 'error' } as const;
export type BulkRowStatus = (typeof BulkRowStatus)[keyof typeof BulkRowStatus];

export const BulkInviteQuery = z.object({
  /** true: answer the preview and write nothing. */
  dryRun: z.enum(['true', 'false'], { error: 'dryRun must be true or false' }).default('false').transform((v) => v === 'true'),
});
export type BulkInviteQuery = z.input<typeof BulkInviteQuery>;

/** One row of the file, by its row number in the sheet (the headings are row 1). */
export const BulkRow = z.object({
  row: z.number().int(),
  status: z.enum([BulkRowStatus.new, BulkRowStatus.existing, BulkRowStatus.error]),
  email: z.string(),
  fullName: z.string(),
  errors: z.array(z.object({ column: z.string(), msg: z.string() })),
});
export type BulkRow = z.infer<typeof BulkRow>;
export const BulkInviteReply = z.object({
  rows: z.array(BulkRow),
  dryRun: z.boolean(),
  /** Rows invited by this request (0 in a preview). */
  invited: z.number().int(),
});
export type BulkInviteReply = z.infer<typeof BulkInviteReply>;
export const BulkTemplateQuery = z.object({ role: z.enum(['field_user', 'supervisor'], { error: 'role must be field_user or supervisor' }) });

export const BankChangeStatus = { pending: 'pending', approved: 'approved', rejected: 'rejected', replaced: 'replaced' } as const;
export type BankChangeStatus = (typeof BankChangeStatus)[keyof typeof BankChangeStatus];

/** Bank details as their owner sees them: the account number masked but for its last 4 digits. */
export const MaskedBank = z.object({ bank: z.string(), accountNumber: z.string(), accountName: z.string() });
export const MyBankRow = z.object({
  survey_id: z.string(),
  surveyTitle: z.string(),
  organizationName: z.string(),
  current: MaskedBank,
  /** The change asked for and not yet decided; null when none. */
  pending: MaskedBank.extend({ requestedAt: z.string() }).nullable(),
  /** The office's latest decision on a request of theirs (approved, or rejected with its reason); null before any. */
  lastDecision: z.lazy(() => BankDecision).nullable(),
});
export type MyBankRow = z.infer<typeof MyBankRow>;
export const MyBankReply = z.object({ banks: z.array(MyBankRow), ...Paging });
export type MyBankReply = z.infer<typeof MyBankReply>;

export const BankChangeBody = z.object({
  survey_id: surveyId,
  bank: z.string({ error: 'Provide the bank' }).trim().min(1, 'Provide the bank').max(120, 'Bank is too long (max 120)'),
  accountNumber: z.string({ error: ApiMsg.invalidAccountNumber }).trim().regex(nuban, ApiMsg.invalidAccountNumber),
  accountName: z.string({ error: ApiMsg.provideAccountName }).trim().min(1, ApiMsg.provideAccountName).max(120, 'Account name is too long (max 120)'),
});
export type BankChangeBody = z.input<typeof BankChangeBody>;

/** A pending request as the office sees it: the details in full, current and asked for. */
export const BankChangeRow = z.object({
  _id: z.string(),
  survey_id: z.string(),
  surveyTitle: z.string(),
  memberId: z.string(),
  fullName: z.string(),
  email: z.string(),
  current: MaskedBank,
  requested: MaskedBank,
  requestedAt: z.string(),
});
export type BankChangeRow = z.infer<typeof BankChangeRow>;
export const BankChangeListReply = z.object({ requests: z.array(BankChangeRow), ...Paging });
export type BankChangeListReply = z.infer<typeof BankChangeListReply>;
export const BankChangeIdParams = z.object({ id: Id });

/** What the field user is told of the office's decision on their request. */
export const BankDecision = z.object({
  status: z.enum([BankChangeStatus.approved, BankChangeStatus.rejected]),
  /** The office's reason for a rejection; '' when none was given. */
  reason: z.string(),
  decidedAt: z.string(),
  /** The details asked for, the account number masked. */
  bank: z.string(),
  accountNumber: z.string(),
});
export type BankDecision = z.infer<typeof BankDecision>;

export const RejectBankChangeBody = z.object({
  reason: z.string({ error: 'reason must be text' }).trim().max(Limits.maxBankRejectReason, `Reason is too long (max ${Limits.maxBankRejectReason})`).default(''),
});
export type RejectBankChangeBody = z.input<typeof RejectBankChangeBody>;

/** One person invited to several surveys of the organization at once (each survey its own invitation and mail). */
export const InviteToSurveysBody = InviteFieldUserBody.omit({ survey_id: true }).extend({
  role: z.enum(['field_user', 'supervisor'], { error: 'role must be field_user or supervisor' }),
  surveyIds: z.array(Id, { error: 'Choose at least one survey' }).min(1, 'Choose at least one survey').max(Limits.maxInviteSurveys, `Choose at most ${Limits.maxInviteSurveys} surveys`),
});
export type InviteToSurveysBody = z.input<typeof InviteToSurveysBody>;
/** Per survey: invited (`new`), already on it (`existing`), or refused with the message (`error`). */
export const SurveyInviteResult = z.object({
  survey_id: z.string(),
  surveyTitle: z.string(),
  status: z.enum([BulkRowStatus.new, BulkRowStatus.existing, BulkRowStatus.error]),
  msg: z.string(),
});
export type SurveyInviteResult = z.infer<typeof SurveyInviteResult>;
export const InviteToSurveysReply = z.object({ msg: z.string(), results: z.array(SurveyInviteResult), invited: z.number().int() });
export type InviteToSurveysReply = z.infer<typeof InviteToSurveysReply>;

/** A survey's active team invited to another survey of the organization, supervisors first. */
export const CopyTeamBody = z.object({
  fromSurveyId: Id,
  toSurveyId: Id,
  /** true: answer what would happen and write nothing. */
  dryRun: z.boolean({ error: 'dryRun must be true or false' }).default(false),
});
export type CopyTeamBody = z.input<typeof CopyTeamBody>;
export const CopyTeamRow = z.object({
  role: z.string(),
  email: z.string(),
  fullName: z.string(),
  status: z.enum([BulkRowStatus.new, BulkRowStatus.existing, BulkRowStatus.error]),
  msg: z.string(),
});
export type CopyTeamRow = z.infer<typeof CopyTeamRow>;
export const CopyTeamReply = z.object({ msg: z.string(), rows: z.array(CopyTeamRow), dryRun: z.boolean(), invited: z.number().int() });
export type CopyTeamReply = z.infer<typeof CopyTeamReply>;
