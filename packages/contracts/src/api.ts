import { z } from 'zod';
import { Role } from './roles.js';
import { MsgReply, PageQuery, Paging, SurveyIdParams } from './schemas/common.js';
import * as D from './schemas/device.js';
import * as E from './schemas/earnings.js';
import * as F from './schemas/flags.js';
import { HealthReply, ReadyReply } from './schemas/health.js';
import * as O from './schemas/organization.js';
import * as P from './schemas/payout.js';
import * as R from './schemas/response.js';
import * as V from './schemas/review.js';
import * as S from './schemas/survey.js';
import * as T from './schemas/team.js';
import * as U from './schemas/user.js';

/**
 * Every route of the API: method, path, who may call it, and its shapes. The API registers its
 * handlers against these entries and the PWA's client infers argument and result types from them;
 * the permission matrix test walks this table, so a route without an entry cannot exist.
 *
 * access: 'public' (no token), 'user' (any signed-in, verified or not), or the roles allowed.
 */
export type Access = 'public' | 'user' | readonly Role[];

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  access: Access;
  summary: string;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodType;
  /** undefined: binary reply (xlsx, image). */
  reply?: z.ZodType;
  multipart?: boolean;
  /**
   * Largest request body in bytes (default DEFAULT_BODY_LIMIT); a larger one is refused with 413
   * while it streams in, before it is parsed. Multipart uploads are capped by Limits.maxImageBytes.
   */
  bodyLimit?: number;
  /** Path and query parameters that are credentials (link tokens, photo addresses): the request log shows them as [redacted]. */
  sensitive?: readonly string[];
}

const KB = 1024;
const MB = 1024 * KB;
/** Every body not given its own limit: the largest fixed-shape body (a 20,000-character mail, escaped) fits. */
export const DEFAULT_BODY_LIMIT = 256 * KB;
/** Public account routes carry an e-mail, a password or a link token: nothing near this. */
const ACCOUNT_BODY_LIMIT = 4 * KB;
/** One response: 200 answers of 10,000 characters, with room for multi-byte text. */
export const RESPONSE_BODY_LIMIT = 4 * MB;
/** Room for a 200,000-option dataset in one publish. */
const SURVEY_BODY_LIMIT = 16 * MB;
/** An XLSForm upload: the 10 MB file (Limits.maxXlsformBytes) and its multipart envelope. */
const XLSFORM_BODY_LIMIT = 10 * MB + 64 * KB;
/** A queue's batch: at least one largest response, and every batch the app-wide 12 MB limit took before. */
const BATCH_BODY_LIMIT = 12 * MB;

const org = [Role.organization] as const;
const sup = [Role.supervisor] as const;
const fu = [Role.fieldUser] as const;
const admin = [Role.masterAdmin] as const;
const orgOrSup = [Role.organization, Role.supervisor] as const;

const ImageParams = z.object({ id: z.string().min(1).max(100) });
/** A resumable upload's id (the server names them: 32 hex digits). */
const ResumableParams = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/, 'Upload not found') });

export const routes = {
  // accounts
  login: { method: 'POST', path: '/api/v1/user/login', access: 'public', summary: 'Sign in', body: U.LoginBody, reply: U.LoginReply, bodyLimit: ACCOUNT_BODY_LIMIT },
  register: { method: 'POST', path: '/api/v1/user/register', access: 'public', summary: 'Create an account (from an invitation)', body: U.RegisterBody, reply: MsgReply, bodyLimit: ACCOUNT_BODY_LIMIT },
  sendRefreshToken: { method: 'POST', path: '/api/v1/user/send-refresh-token', access: 'public', summary: 'Mail a password reset link', body: U.SendRefreshTokenBody, reply: MsgReply, bodyLimit: ACCOUNT_BODY_LIMIT },
  resetPassword: { method: 'POST', path: '/api/v1/user/reset-password', access: 'public', summary: 'Set a new password from a reset link', body: U.ResetPasswordBody, reply: MsgReply, bodyLimit: ACCOUNT_BODY_LIMIT },
  resendVerification: { method: 'POST', path: '/api/v1/user/resend-verification-mail', access: 'public', summary: 'Mail a new verification link', body: U.ResendVerificationBody, reply: MsgReply, bodyLimit: ACCOUNT_BODY_LIMIT },
  currentUser: { method: 'GET', path: '/api/v1/user', access: 'user', summary: 'The signed-in user', reply: U.CurrentUserReply },
  changePassword: { method: 'POST', path: '/api/v1/user/change-password', access: 'user', summary: 'Change password', body: U.ChangePasswordBody, headers: U.ChangePasswordHeaders, reply: MsgReply, bodyLimit: ACCOUNT_BODY_LIMIT },
  signOut: { method: 'POST', path: '/api/v1/user/sign-out', access: 'user', summary: 'Sign out this session', reply: MsgReply },
  signOutAll: { method: 'POST', path: '/api/v1/user/sign-out/all', access: 'user', summary: 'Sign out every session of this user', reply: MsgReply },
  allUsers: { method: 'GET', path: '/api/v1/user/all', access: admin, summary: 'All users (master admin)', querystring: PageQuery, reply: z.object({ users: z.array(U.UserRow), ...Paging }) },
  confirmEmail: { method: 'GET', path: '/api/v1/user/:id', access: 'public', summary: 'Confirm an e-mail address', params: U.ConfirmEmailParams, reply: MsgReply, sensitive: ['id'] },

  // organizations
  currentOrganization: { method: 'GET', path: '/api/v1/organization', access: org, summary: 'The signed-in organization', reply: O.OrganizationReply },
  allOrganizations: { method: 'GET', path: '/api/v1/organization/all', access: admin, summary: 'Organizations (master admin)', querystring: PageQuery, reply: O.OrganizationListReply },
  createOrganization: { method: 'POST', path: '/api/v1/organization', access: admin, summary: 'Add an organization and invite its owner', body: O.CreateOrganizationBody, reply: O.CreateOrganizationReply },
  organizationSettings: { method: 'PATCH', path: '/api/v1/organization/settings', access: org, summary: "Change the organization's settings (days without sync before a field user is flagged)", body: O.OrganizationSettingsBody, reply: O.OrganizationReply },
  sendMail: { method: 'POST', path: '/api/v1/organization/mail', access: admin, summary: 'Mail one organization or all of them', body: O.SendMailBody, reply: O.SendMailReply },

  // surveys
  createSurvey: { method: 'POST', path: '/api/v1/survey/create', access: org, summary: 'Publish a survey', body: S.CreateSurveyBody, reply: S.CreateSurveyReply, bodyLimit: SURVEY_BODY_LIMIT },
  organizationSurveys: { method: 'GET', path: '/api/v1/survey/organization', access: org, summary: "The organization's surveys", querystring: PageQuery, reply: S.SurveyListReply },
  fieldUserSurveys: { method: 'GET', path: '/api/v1/survey/field-user', access: fu, summary: 'Surveys the field user was invited to', querystring: PageQuery, reply: S.SurveyListReply },
  supervisorSurveys: { method: 'GET', path: '/api/v1/survey/supervisor', access: sup, summary: 'Surveys the supervisor was invited to', querystring: PageQuery, reply: S.SurveyListReply },
  largeDataset: { method: 'GET', path: '/api/v1/survey/large-dataset', access: [Role.organization, Role.fieldUser, Role.supervisor], summary: 'Search the options of a large select', querystring: S.LargeDatasetQuery, reply: S.LargeDatasetReply },
  updateSurvey: { method: 'PUT', path: '/api/v1/survey/:id', access: org, summary: 'Publish the next version of a survey (same body as create)', params: V.SurveyIdOnlyParams, body: S.CreateSurveyBody, reply: S.CreateSurveyReply, bodyLimit: SURVEY_BODY_LIMIT },
  surveyVersions: { method: 'GET', path: '/api/v1/survey/:id/versions', access: org, summary: 'Every published version of a survey, newest first', params: V.SurveyIdOnlyParams, querystring: PageQuery, reply: S.SurveyVersionListReply },
  importXlsform: { method: 'POST', path: '/api/v1/survey/import-xlsform', access: org, summary: 'Read an XLSForm (.xlsx) into a survey draft, listing what was not carried over (multipart)', multipart: true, reply: S.XlsformImportReply, bodyLimit: XLSFORM_BODY_LIMIT },
  datasetExport: { method: 'GET', path: '/api/v1/survey/large-dataset/all', access: [Role.organization, Role.fieldUser, Role.supervisor], summary: 'Every option of a large select (offline copy)', querystring: S.DatasetExportQuery, reply: S.DatasetExportReply },

  // responses
  respond: { method: 'POST', path: '/api/v1/survey/respond', access: fu, summary: 'Submit a response (idempotent per clientId)', body: R.RespondBody, reply: R.RespondReply, bodyLimit: RESPONSE_BODY_LIMIT },
  syncResponses: { method: 'POST', path: '/api/v1/sync/responses', access: fu, summary: 'Submit queued responses in one request, each answered individually', body: R.SyncResponsesBody, reply: R.SyncResponsesReply, bodyLimit: BATCH_BODY_LIMIT },
  uploadImage: { method: 'POST', path: '/api/v1/files/image', access: fu, summary: 'Upload a photo answer (multipart, idempotent per clientId and question)', multipart: true, reply: R.UploadImageReply },
  // Resumable photo uploads: the tus 1.0 protocol, bodies and replies as tus defines them.
  resumableCreate: { method: 'POST', path: '/api/v1/files/tus', access: fu, summary: 'Start a resumable photo upload (tus creation; Upload-Metadata: question, survey_id, organization_id, clientId of a response sent with its placeholder)' },
  resumableOffset: { method: 'GET', path: '/api/v1/files/tus/:id', access: fu, summary: "HEAD: the bytes the server holds of the caller's resumable upload (tus); GET answers 404", params: ResumableParams },
  resumableAppend: { method: 'PATCH', path: '/api/v1/files/tus/:id', access: fu, summary: 'Append bytes at Upload-Offset (tus); the last bytes store the photo and attach it to its response', params: ResumableParams },
  resumableTerminate: { method: 'DELETE', path: '/api/v1/files/tus/:id', access: fu, summary: "Cancel the caller's unfinished resumable upload (tus termination): its bytes are removed", params: ResumableParams },
  getImage: { method: 'GET', path: '/api/v1/files/image/:id', access: 'public', summary: 'A stored photo (capability URL)', params: ImageParams, sensitive: ['id'] },
  organizationResponses: { method: 'GET', path: '/api/v1/survey/organization/response/:surveyId', access: org, summary: 'Responses of a survey', params: SurveyIdParams, querystring: R.ResponsesQuery, reply: R.ResponseListReply },
  organizationExport: { method: 'GET', path: '/api/v1/survey/organization/response/download/:surveyId', access: org, summary: 'Responses as xlsx', params: SurveyIdParams, querystring: R.ResponsesQuery },
  exportQueue: { method: 'GET', path: '/api/v1/export/queue', access: [Role.organization, Role.supervisor], summary: "The caller's place in the export queue, while an export waits", reply: R.ExportQueueReply },
  organizationTopPerformer: { method: 'GET', path: '/api/v1/survey/organization/top-performer/:surveyId', access: org, summary: 'Top performer and active field users', params: SurveyIdParams, reply: R.TopPerformerReply },
  organizationByWeeks: { method: 'GET', path: '/api/v1/survey/organization/by-weeks/:surveyId', access: org, summary: 'Responses and earnings per day of one week', params: SurveyIdParams, querystring: R.ByWeeksQuery, reply: R.ByWeeksReply },
  supervisorResponses: { method: 'GET', path: '/api/v1/supervisor/response/:surveyId', access: sup, summary: "Responses of the supervisor's field users", params: SurveyIdParams, querystring: R.ResponsesQuery, reply: R.ResponseListReply },
  supervisorTopPerformer: { method: 'GET', path: '/api/v1/survey/supervisor/top-performer/:surveyId', access: sup, summary: "Top performer among the supervisor's field users", params: SurveyIdParams, reply: R.TopPerformerReply },
  supervisorExport: { method: 'GET', path: '/api/v1/survey/supervisorName/response/download/:surveyId', access: sup, summary: "The supervisor's responses as xlsx", params: SurveyIdParams, querystring: R.ResponsesQuery },

  // review
  surveySettings: { method: 'PATCH', path: '/api/v1/survey/:id/settings', access: org, summary: "Change a survey's settings (pay after review, closed, quality-flag thresholds, photo quality)", params: V.SurveyIdOnlyParams, body: V.SurveySettingsBody, reply: V.SurveySettingsReply },
  reviewResponses: { method: 'POST', path: '/api/v1/responses/review', access: orgOrSup, summary: 'Approve, return or reject responses, each answered individually', body: V.ReviewBody, reply: V.ReviewReply },
  dismissFlag: { method: 'POST', path: '/api/v1/responses/:id/flags/:flag/dismiss', access: orgOrSup, summary: 'Dismiss a quality flag on a response with a note (audited)', params: F.DismissFlagParams, body: F.DismissFlagBody, reply: F.DismissFlagReply },
  responseDetail: { method: 'GET', path: '/api/v1/responses/:id', access: orgOrSup, summary: 'A response with its status and audit trail', params: V.ResponseIdParams, reply: V.ResponseDetailReply },

  // payouts
  createPayout: { method: 'POST', path: '/api/v1/payouts', access: org, summary: 'Freeze the approved, unpaid responses into a draft payout (idempotent per key)', body: P.CreatePayoutBody, reply: P.CreatePayoutReply },
  markPayoutPaid: { method: 'POST', path: '/api/v1/payouts/:id/paid', access: org, summary: 'Mark a payout paid with the transfer reference', params: P.PayoutIdParams, body: P.MarkPaidBody, reply: P.PayoutReply },
  cancelPayout: { method: 'POST', path: '/api/v1/payouts/:id/cancel', access: org, summary: 'Cancel a draft payout, releasing its responses', params: P.PayoutIdParams, reply: P.PayoutReply },
  payouts: { method: 'GET', path: '/api/v1/payouts', access: orgOrSup, summary: 'Payouts of a survey with totals', querystring: P.PayoutListQuery, reply: P.PayoutListReply },
  payout: { method: 'GET', path: '/api/v1/payouts/:id', access: orgOrSup, summary: 'A payout with its lines', params: P.PayoutIdParams, reply: P.PayoutDetail },
  payoutDownload: { method: 'GET', path: '/api/v1/payouts/:id/download', access: org, summary: 'The bank transfer file (xlsx or csv)', params: P.PayoutIdParams, querystring: P.PayoutDownloadQuery },

  // the field user's own money
  myResponseChanges: { method: 'GET', path: '/api/v1/me/responses/changes', access: fu, summary: "Changes to the caller's responses since a cursor (status, comment, paid)", querystring: E.ChangesQuery, reply: E.ChangesReply },
  myEarnings: { method: 'GET', path: '/api/v1/me/earnings', access: fu, summary: "The caller's earnings: awaiting review, owed, paid, returned", reply: E.EarningsReply },
  myResponses: { method: 'GET', path: '/api/v1/me/responses', access: fu, summary: "The caller's own responses, newest first, paged: status, amount, submitted, reviewed and paid times", querystring: E.MyResponsesQuery, reply: E.MyResponsesReply },
  // field-team monitoring
  reportDevice: { method: 'POST', path: '/api/v1/me/device', access: fu, summary: "The phone's state at a sync: work waiting, failed, storage, last sync", body: D.DeviceReportBody, reply: D.DeviceReportReply },
  supervisorSettings: { method: 'GET', path: '/api/v1/me/supervisor-settings', access: sup, summary: "The supervisor's own settings (daily sync e-mail)", reply: D.SupervisorSettings },
  updateSupervisorSettings: { method: 'PATCH', path: '/api/v1/me/supervisor-settings', access: sup, summary: "Change the supervisor's own settings (turn the daily sync e-mail off or on)", body: D.SupervisorSettingsBody, reply: D.SupervisorSettings },

  // teams
  fieldUsers: { method: 'GET', path: '/api/v1/field-user/:surveyId', access: org, summary: 'Field users of a survey with pay owed', params: SurveyIdParams, querystring: PageQuery, reply: T.FieldUserListReply },
  inviteFieldUser: { method: 'POST', path: '/api/v1/field-user', access: org, summary: 'Invite a field user to a survey', body: T.InviteFieldUserBody, reply: T.InviteFieldUserReply },
  allFieldUsers: { method: 'GET', path: '/api/v1/field-user/all', access: admin, summary: 'Field users across organizations (master admin)', querystring: PageQuery, reply: z.object({ fieldUsers: z.array(T.FieldUserAcrossRow), ...Paging }) },
  supervisors: { method: 'GET', path: '/api/v1/supervisor/:surveyId', access: org, summary: 'Supervisors of a survey', params: SurveyIdParams, querystring: PageQuery, reply: T.SupervisorListReply },
  inviteSupervisor: { method: 'POST', path: '/api/v1/supervisor', access: org, summary: 'Invite a supervisor to a survey', body: T.InviteSupervisorBody, reply: T.InviteSupervisorReply },
  withdrawMember: { method: 'DELETE', path: '/api/v1/member/:surveyId/:memberId', access: org, summary: "Withdraw a field user's or supervisor's invitation to a survey (responses and pay stay)", params: T.MemberParams, reply: MsgReply },
  assignSupervisor: { method: 'POST', path: '/api/v1/supervisor/assign', access: org, summary: 'Assign a supervisor to a field user', body: T.AssignSupervisorBody, reply: T.AssignSupervisorReply },
  supervisorFieldUsers: { method: 'GET', path: '/api/v1/supervisor/field-user/:surveyId', access: sup, summary: "The supervisor's own field users", params: SurveyIdParams, querystring: PageQuery, reply: T.FieldUserListReply },
  currentSupervisorName: { method: 'GET', path: '/api/v1/supervisor/current-supervisor/name', access: sup, summary: "The signed-in supervisor's name", reply: T.CurrentSupervisorNameReply },

  // probes for a load balancer or an orchestrator (outside /api/v1: they are about the process, not the data)
  healthz: { method: 'GET', path: '/healthz', access: 'public', summary: 'Liveness: the process answers', reply: HealthReply },
  readyz: { method: 'GET', path: '/readyz', access: 'public', summary: 'Readiness: database answers and migrations are current (503 while starting or draining)', reply: ReadyReply },
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type Input<T> = T extends z.ZodType ? z.input<T> : undefined;
export type RouteReply<N extends RouteName> = Routes[N] extends { reply: infer Rp } ? Infer<Rp> : Blob;
export type RouteBody<N extends RouteName> = Routes[N] extends { body: infer B } ? Input<B> : undefined;
export type RouteQuery<N extends RouteName> = Routes[N] extends { querystring: infer Q } ? Input<Q> : undefined;
export type RouteParams<N extends RouteName> = Routes[N] extends { params: infer P } ? Infer<P> : undefined;
