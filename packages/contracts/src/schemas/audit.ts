import { z } from 'zod';
import { Id, IsoDate, Paging } from './common.js';

/**
 * What the audit log records: one event per office action that changes people, money, surveys or
 * data leaving the system, and each office sign-in. `area.verb`, so a filter by area reads as a prefix.
 */
export const AuditAction = {
  signIn: 'account.sign_in',
  inviteOfficeUser: 'office_user.invite',
  changeOfficeUser: 'office_user.change',
  removeOfficeUser: 'office_user.remove',
  inviteMember: 'member.invite',
  withdrawMember: 'member.withdraw',
  assignSupervisor: 'member.assign_supervisor',
  updateMember: 'member.update',
  changeRate: 'member.rate',
  changeBank: 'member.bank',
  deactivatePerson: 'member.deactivate',
  reactivatePerson: 'member.reactivate',
  requestBankChange: 'bank_change.request',
  approveBankChange: 'bank_change.approve',
  rejectBankChange: 'bank_change.reject',
  publishSurvey: 'survey.publish',
  editSurvey: 'survey.edit',
  closeSurvey: 'survey.close',
  reopenSurvey: 'survey.reopen',
  surveySettings: 'survey.settings',
  organizationSettings: 'organization.settings',
  reviewVerdict: 'response.review',
  audioVerdict: 'response.audio_review',
  dismissFlag: 'response.dismiss_flag',
  eraseResponse: 'response.erase',
  retentionErase: 'survey.retention',
  createPayout: 'payout.create',
  downloadPayout: 'payout.download',
  payoutPaid: 'payout.paid',
  cancelPayout: 'payout.cancel',
  exportResponses: 'export.responses',
  exportAudit: 'export.audit',
  createToken: 'token.create',
  revokeToken: 'token.revoke',
  useToken: 'token.use',
  exportRespondent: 'export.respondent',
} as const;
export type AuditAction = (typeof AuditAction)[keyof typeof AuditAction];
export const AUDIT_ACTIONS = Object.values(AuditAction) as [AuditAction, ...AuditAction[]];

/** Changed fields only: before and after hold the same keys. */
export const AuditChange = z.record(z.string(), z.unknown());

/** A day (YYYY-MM-DD, UTC; `to` takes the whole day) or an ISO time. */
const AuditTime = z.union([IsoDate, z.string().regex(/^\d{4}-\d{2}-\d{2}$/)], { error: 'from and to must be a date (YYYY-MM-DD) or an ISO time' });

export const AuditQuery = z.object({
  page: z.coerce.number({ error: 'page must be a positive whole number' }).int('page must be a positive whole number').min(1, 'page must be a positive whole number').max(1_000_000).default(1),
  action: z.enum(AUDIT_ACTIONS, { error: 'action is not an audited action' }).optional(),
  actorId: Id.optional(),
  surveyId: Id.optional(),
  from: AuditTime.optional(),
  to: AuditTime.optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEventRow = z.object({
  _id: z.string(),
  action: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  actorName: z.string(),
  actorRole: z.string(),
  /** The caller's office role within the organization, when the account had one. */
  officeRole: z.string().nullable(),
  surveyId: z.string().nullable(),
  surveyTitle: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  before: AuditChange.nullable(),
  after: AuditChange.nullable(),
  ip: z.string().nullable(),
});
export type AuditEventRow = z.infer<typeof AuditEventRow>;

export const AuditListReply = z.object({ events: z.array(AuditEventRow), ...Paging });
export type AuditListReply = z.infer<typeof AuditListReply>;
