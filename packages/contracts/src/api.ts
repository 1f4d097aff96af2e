import { z } from 'zod';
import { OFFICE_ROLES, OfficeRole, Role } from './roles.js';
import * as A from './schemas/audit.js';
import * as AU from './schemas/audio.js';
import * as B from './schemas/backcheck.js';
import { MsgReply, PageQuery, Paging, SurveyIdParams } from './schemas/common.js';
import * as D from './schemas/device.js';
import * as E from './schemas/earnings.js';
import * as F from './schemas/flags.js';
import * as M from './schemas/map.js';
import { HealthReply, ReadyReply } from './schemas/health.js';
import * as O from './schemas/organization.js';
import * as OF from './schemas/office.js';
import * as P from './schemas/payout.js';
import * as PR from './schemas/privacy.js';
import * as R from './schemas/response.js';
import * as V from './schemas/review.js';
import * as S from './schemas/survey.js';
import * as T from './schemas/team.js';
import * as U from './schemas/user.js';
import * as OD from './schemas/odata.js';
import * as TK from './schemas/token.js';
import * as W from './schemas/webhook.js';

/**
 * Every route of the API: method, path, who may call it, and its shapes. The API registers its
 * handlers against these entries and the PWA's client infers argument and result types from them;
 * the permission matrix test walks this table, so a route without an entry cannot exist.
 *
 * access: 'public' (no token), 'user' (any signed-in, verified or not), or the roles allowed.
 */
export type Access = 'public' | 'user' | readonly Role[];

/**
 * The office roles that may call a route open to organizations (checked after `access`). Every
 * route whose access lists `organization` names its office roles; a contracts test holds that.
 */
export type OfficeAccess = readonly OfficeRole[];

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  access: Access;
  /** Which office roles of an organization may call it (only with `organization` in access). */
  office?: OfficeAccess;
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
  /**
   * Whether an API token (`sb_...`, made on the Tokens screen) may call it: 'bearer' takes
   * `Authorization: Bearer sb_...`; 'basic' also takes the token as the password of HTTP Basic and
   * answers 401 with a Basic challenge (what Power BI and Excel send for an OData feed). A token on
   * any other route is refused with 403: tokens read, they never write.
   */
  token?: 'bearer' | 'basic';
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
/** A bulk invitation file (Limits.maxBulkInviteBytes) and its multipart envelope. */
const BULK_BODY_LIMIT = 2 * MB + 64 * KB;
/** A queue's batch: at least one largest response, and every batch the app-wide 12 MB limit took before. */
const BATCH_BODY_LIMIT = 12 * MB;

const org = [Role.organization] as const;
const sup = [Role.supervisor] as const;
const fu = [Role.fieldUser] as const;
const admin = [Role.masterAdmin] as const;
const orgOrSup = [Role.organization, Role.supervisor] as const;

/** Reading dashboards, the table, a response, the export and the team: every office role. */
const READ = OFFICE_ROLES;
/** Changing surveys, their settings and their teams, and the organization's settings. */
const MANAGE = [OfficeRole.owner, OfficeRole.admin] as const;
/** Review verdicts and flag dismissals. */
const REVIEW = [OfficeRole.owner, OfficeRole.admin, OfficeRole.reviewer] as const;
/** Payouts: create, list, read (bank details), download, mark paid, cancel. */
const PAY = [OfficeRole.owner, OfficeRole.admin, OfficeRole.finance] as const;
/** A member's details: the survey managers, and finance for bank details only (the handler refuses finance any other field). */
const MEMBER_EDIT = [OfficeRole.owner, OfficeRole.admin, OfficeRole.finance] as const;
/** Office users: invite, change, remove. */
const OWNER = [OfficeRole.owner] as const;
/** A basemap upload: the archive (MapLimits.maxBasemapBytes) and its multipart envelope. */
const BASEMAP_BODY_LIMIT = M.MapLimits.maxBasemapBytes + 64 * KB;

const ImageParams = z.object({ id: z.string().min(1).max(100) });
/** A link placed in an export or webhook: its expiry (unix seconds) and hex HMAC over id and expiry. */
const ImageQuery = z.object({ exp: z.string().max(20).optional(), sig: z.string().max(128).optional() });
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
  setLanguage: { method: 'PATCH', path: '/api/v1/user/language', access: 'user', summary: "Choose the app's language for this account (the phone and mails follow it)", body: U.UserLanguageBody, reply: U.UserLanguageReply, bodyLimit: ACCOUNT_BODY_LIMIT },
  changePassword: { method: 'POST', path: '/api/v1/user/change-password', access: 'user', summary: 'Change password', body: U.ChangePasswordBody, headers: U.ChangePasswordHeaders, reply: MsgReply, bodyLimit: ACCOUNT_BODY_LIMIT },
  signOut: { method: 'POST', path: '/api/v1/user/sign-out', access: 'user', summary: 'Sign out this session', reply: MsgReply },
  signOutAll: { method: 'POST', path: '/api/v1/user/sign-out/all', access: 'user', summary: 'Sign out every session of this user', reply: MsgReply },
  allUsers: { method: 'GET', path: '/api/v1/user/all', access: admin, summary: 'All users (master admin)', querystring: PageQuery, reply: z.object({ users: z.array(U.UserRow), ...Paging }) },
  confirmEmail: { method: 'GET', path: '/api/v1/user/:id', access: 'public', summary: 'Confirm an e-mail address', params: U.ConfirmEmailParams, reply: MsgReply, sensitive: ['id'] },

  // organizations
  currentOrganization: { method: 'GET', path: '/api/v1/organization', access: org, office: READ, summary: 'The signed-in organization', reply: O.OrganizationReply },
  allOrganizations: { method: 'GET', path: '/api/v1/organization/all', access: admin, summary: 'Organizations (master admin)', querystring: PageQuery, reply: O.OrganizationListReply },
  createOrganization: { method: 'POST', path: '/api/v1/organization', access: admin, summary: 'Add an organization and invite its owner', body: O.CreateOrganizationBody, reply: O.CreateOrganizationReply },
  organizationSettings: { method: 'PATCH', path: '/api/v1/organization/settings', access: org, office: MANAGE, summary: "Change the organization's settings (days without sync before a field user is flagged)", body: O.OrganizationSettingsBody, reply: O.OrganizationReply },
  sendMail: { method: 'POST', path: '/api/v1/organization/mail', access: admin, summary: 'Mail one organization or all of them', body: O.SendMailBody, reply: O.SendMailReply },
  officeUsers: { method: 'GET', path: '/api/v1/organization/office-users', access: org, office: OWNER, summary: "The organization's office users with their roles and surveys", querystring: PageQuery, reply: OF.OfficeUserListReply },
  inviteOfficeUser: { method: 'POST', path: '/api/v1/organization/office-users', access: org, office: OWNER, summary: 'Invite an office user by e-mail with an office role (optionally limited to some surveys)', body: OF.InviteOfficeUserBody, reply: OF.OfficeUserReply },
  updateOfficeUser: { method: 'PATCH', path: '/api/v1/organization/office-users/:id', access: org, office: OWNER, summary: "Change an office user's role and surveys (the last owner stays owner)", params: OF.OfficeUserParams, body: OF.UpdateOfficeUserBody, reply: OF.OfficeUserReply },
  removeOfficeUser: { method: 'DELETE', path: '/api/v1/organization/office-users/:id', access: org, office: OWNER, summary: 'Remove an office user (never the last owner); their access ends with their next request', params: OF.OfficeUserParams, reply: MsgReply },

  // surveys
  createSurvey: { method: 'POST', path: '/api/v1/survey/create', access: org, office: MANAGE, summary: 'Publish a survey', body: S.CreateSurveyBody, reply: S.CreateSurveyReply, bodyLimit: SURVEY_BODY_LIMIT },
  organizationSurveys: { method: 'GET', path: '/api/v1/survey/organization', access: org, office: READ, summary: "The organization's surveys", querystring: PageQuery, reply: S.SurveyListReply, token: 'bearer' },
  fieldUserSurveys: { method: 'GET', path: '/api/v1/survey/field-user', access: fu, summary: 'Surveys the field user was invited to', querystring: PageQuery, reply: S.SurveyListReply },
  supervisorSurveys: { method: 'GET', path: '/api/v1/survey/supervisor', access: sup, summary: 'Surveys the supervisor was invited to', querystring: PageQuery, reply: S.SurveyListReply },
  largeDataset: { method: 'GET', path: '/api/v1/survey/large-dataset', access: [Role.organization, Role.fieldUser, Role.supervisor], office: READ, summary: 'Search the options of a large select', querystring: S.LargeDatasetQuery, reply: S.LargeDatasetReply },
  updateSurvey: { method: 'PUT', path: '/api/v1/survey/:id', access: org, office: MANAGE, summary: 'Publish the next version of a survey (same body as create)', params: V.SurveyIdOnlyParams, body: S.CreateSurveyBody, reply: S.CreateSurveyReply, bodyLimit: SURVEY_BODY_LIMIT },
  surveyVersions: { method: 'GET', path: '/api/v1/survey/:id/versions', access: org, office: READ, summary: 'Every published version of a survey, newest first', params: V.SurveyIdOnlyParams, querystring: PageQuery, reply: S.SurveyVersionListReply },
  surveyXlsform: { method: 'GET', path: '/api/v1/survey/:id/xlsform', access: org, office: READ, summary: 'The latest version of a survey as an XLSForm (.xlsx) that imports back to the same questions', params: V.SurveyIdOnlyParams },
  importXlsform: { method: 'POST', path: '/api/v1/survey/import-xlsform', access: org, office: MANAGE, summary: 'Read an XLSForm (.xlsx) into a survey draft, listing what was not carried over (multipart)', multipart: true, reply: S.XlsformImportReply, bodyLimit: XLSFORM_BODY_LIMIT },
  datasetExport: { method: 'GET', path: '/api/v1/survey/large-dataset/all', access: [Role.organization, Role.fieldUser, Role.supervisor], office: READ, summary: 'Every option of a large select (offline copy)', querystring: S.DatasetExportQuery, reply: S.DatasetExportReply },

  // responses
  respond: { method: 'POST', path: '/api/v1/survey/respond', access: [Role.fieldUser, Role.supervisor], summary: 'Submit a response (idempotent per clientId); a supervisor sends back-checks only (backcheckOf)', body: R.RespondBody, reply: R.RespondReply, bodyLimit: RESPONSE_BODY_LIMIT },
  syncResponses: { method: 'POST', path: '/api/v1/sync/responses', access: [Role.fieldUser, Role.supervisor], summary: 'Submit queued responses in one request, each answered individually (a supervisor: back-checks only)', body: R.SyncResponsesBody, reply: R.SyncResponsesReply, bodyLimit: BATCH_BODY_LIMIT },
  uploadImage: { method: 'POST', path: '/api/v1/files/image', access: fu, summary: 'Upload a photo answer (multipart, idempotent per clientId and question)', multipart: true, reply: R.UploadImageReply },
  // Resumable photo uploads: the tus 1.0 protocol, bodies and replies as tus defines them.
  resumableCreate: { method: 'POST', path: '/api/v1/files/tus', access: fu, summary: "Start a resumable photo upload (tus creation; Upload-Metadata: question, survey_id, organization_id, clientId of a response sent with its placeholder), or with kind 'audio_audit' and no question, the response's audio audit clip" },
  resumableOffset: { method: 'GET', path: '/api/v1/files/tus/:id', access: fu, summary: "HEAD: the bytes the server holds of the caller's resumable upload (tus); GET answers 404", params: ResumableParams },
  resumableAppend: { method: 'PATCH', path: '/api/v1/files/tus/:id', access: fu, summary: 'Append bytes at Upload-Offset (tus); the last bytes store the photo and attach it to its response', params: ResumableParams },
  resumableTerminate: { method: 'DELETE', path: '/api/v1/files/tus/:id', access: fu, summary: "Cancel the caller's unfinished resumable upload (tus termination): its bytes are removed", params: ResumableParams },
  getImage: { method: 'GET', path: '/api/v1/files/image/:id', access: 'public', summary: 'A stored photo: with the session (or API token), or a signed expiring link (exp, sig)', params: ImageParams, querystring: ImageQuery, sensitive: ['id', 'sig'], token: 'bearer' },
  organizationResponses: { method: 'GET', path: '/api/v1/survey/organization/response/:surveyId', access: org, office: READ, summary: 'Responses of a survey', params: SurveyIdParams, querystring: R.ResponsesQuery, reply: R.ResponseListReply, token: 'bearer' },
  organizationExport: { method: 'GET', path: '/api/v1/survey/organization/response/download/:surveyId', access: org, office: READ, summary: 'Responses as xlsx, csv, Stata or SPSS (a zip of the csv and its syntax file), GeoJSON or KML', params: SurveyIdParams, querystring: R.ExportQuery, token: 'bearer' },
  exportQueue: { method: 'GET', path: '/api/v1/export/queue', access: [Role.organization, Role.supervisor], office: READ, summary: "The caller's place in the export queue, while an export waits", reply: R.ExportQueueReply },
  organizationTopPerformer: { method: 'GET', path: '/api/v1/survey/organization/top-performer/:surveyId', access: org, office: READ, summary: 'Top performer and active field users', params: SurveyIdParams, reply: R.TopPerformerReply },
  organizationByWeeks: { method: 'GET', path: '/api/v1/survey/organization/by-weeks/:surveyId', access: org, office: READ, summary: 'Responses and earnings per day of one week', params: SurveyIdParams, querystring: R.ByWeeksQuery, reply: R.ByWeeksReply },
  supervisorResponses: { method: 'GET', path: '/api/v1/supervisor/response/:surveyId', access: sup, summary: "Responses of the supervisor's field users", params: SurveyIdParams, querystring: R.ResponsesQuery, reply: R.ResponseListReply },
  supervisorTopPerformer: { method: 'GET', path: '/api/v1/survey/supervisor/top-performer/:surveyId', access: sup, summary: "Top performer among the supervisor's field users", params: SurveyIdParams, reply: R.TopPerformerReply },
  surveyChanges: { method: 'GET', path: '/api/v1/survey/:id/responses', access: org, office: READ, summary: 'Every response changed (new, revised, reviewed, paid) after a cursor, oldest change first, up to 1,000 a page: to mirror a survey exactly once', params: V.SurveyIdOnlyParams, querystring: R.SurveyChangesQuery, reply: R.SurveyChangesReply, token: 'bearer' },
  supervisorExport: { method: 'GET', path: '/api/v1/survey/supervisorName/response/download/:surveyId', access: sup, summary: "The supervisor's responses, in the formats of organizationExport", params: SurveyIdParams, querystring: R.ExportQuery },

  // review
  surveySettings: { method: 'PATCH', path: '/api/v1/survey/:id/settings', access: org, office: MANAGE, summary: "Change a survey's settings (pay after review, closed, quality-flag thresholds, photo quality, personal questions, retention days, audio audit, pay gate)", params: V.SurveyIdOnlyParams, body: V.SurveySettingsBody, reply: V.SurveySettingsReply },
  reviewResponses: { method: 'POST', path: '/api/v1/responses/review', access: orgOrSup, office: REVIEW, summary: 'Approve, return or reject responses, each answered individually', body: V.ReviewBody, reply: V.ReviewReply },
  dismissFlag: { method: 'POST', path: '/api/v1/responses/:id/flags/:flag/dismiss', access: orgOrSup, office: REVIEW, summary: 'Dismiss a quality flag on a response with a note (audited)', params: F.DismissFlagParams, body: F.DismissFlagBody, reply: F.DismissFlagReply },
  responseDetail: { method: 'GET', path: '/api/v1/responses/:id', access: orgOrSup, office: READ, summary: 'A response with its status and audit trail', params: V.ResponseIdParams, reply: V.ResponseDetailReply, token: 'bearer' },
  responseAudio: { method: 'GET', path: '/api/v1/responses/:id/audio', access: orgOrSup, office: REVIEW, summary: "The response's audio audit clip (Opus), for its reviewers", params: V.ResponseIdParams },
  reviewAudio: { method: 'POST', path: '/api/v1/responses/:id/audio/review', access: orgOrSup, office: REVIEW, summary: 'Mark the audio audit "matches" or "does not match" (which returns or rejects the response with the reason)', params: V.ResponseIdParams, body: AU.AudioReviewBody, reply: AU.AudioReviewReply },

  // personal data: erasure and subject access (owner/admin: MANAGE)
  eraseResponse: { method: 'POST', path: '/api/v1/responses/:id/erase', access: org, office: MANAGE, summary: "Erase a response's personal answers, photos and files (the row keeps its other answers and its money; audited with the reason)", params: V.ResponseIdParams, body: PR.EraseBody, reply: PR.EraseReply },
  respondents: { method: 'GET', path: '/api/v1/respondents', access: org, office: MANAGE, summary: "Responses whose answers hold a respondent's name or phone number, newest first, paged: to erase or export together", querystring: PR.RespondentsQuery, reply: PR.RespondentsReply },
  respondentExport: { method: 'GET', path: '/api/v1/respondents/download', access: org, office: MANAGE, summary: 'Everything held about one respondent (every response matching the search, all answers) as xlsx (audited)', querystring: PR.RespondentExportQuery },
  myData: { method: 'GET', path: '/api/v1/me/data', access: fu, summary: "Everything held about the signed-in field user: account, memberships with bank details, earnings, responses and payouts", reply: PR.MyDataReply },

  // back-checks
  backcheckForm: { method: 'PUT', path: '/api/v1/survey/:id/backcheck-form', access: org, office: MANAGE, summary: "Publish the next version of a survey's back-check form: its own questions, numeric tolerances and the respondent's name question (the stable questions come from the settings)", params: V.SurveyIdOnlyParams, body: B.BackcheckFormBody, reply: B.BackcheckFormReply },
  surveyBackchecks: { method: 'GET', path: '/api/v1/survey/:id/backchecks', access: org, office: READ, summary: "A survey's back-checks: settings, form, discrepancy by field user, question and week, and the assignments (paged)", params: V.SurveyIdOnlyParams, querystring: B.BackcheckPageQuery, reply: B.BackcheckOverviewReply },
  backcheckExport: { method: 'GET', path: '/api/v1/survey/:id/backchecks/download', access: org, office: READ, summary: 'Every completed back-check beside its original answers, one sheet (xlsx)', params: V.SurveyIdOnlyParams },
  responseBackcheck: { method: 'GET', path: '/api/v1/responses/:id/backcheck', access: orgOrSup, office: READ, summary: "A response's back-check: each stable answer beside the original's, and the form's own answers", params: B.BackcheckResponseParams, reply: B.ResponseBackcheckReply },
  myBackchecks: { method: 'GET', path: '/api/v1/me/backchecks', access: [Role.fieldUser, Role.supervisor], summary: "The caller's open back-check assignments (respondent, location, original capture time; never the original answers) with the forms to fill", querystring: B.MyBackchecksQuery, reply: B.MyBackchecksReply },

  // webhooks
  surveyWebhooks: { method: 'GET', path: '/api/v1/survey/:id/webhooks', access: org, office: MANAGE, summary: "A survey's webhooks", params: V.SurveyIdOnlyParams, reply: W.WebhookListReply },
  createWebhook: { method: 'POST', path: '/api/v1/survey/:id/webhooks', access: org, office: MANAGE, summary: 'Add a webhook: a URL told of events by signed JSON POSTs (the secret is shown once)', params: V.SurveyIdOnlyParams, body: W.CreateWebhookBody, reply: W.CreateWebhookReply },
  deleteWebhook: { method: 'DELETE', path: '/api/v1/webhooks/:id', access: org, office: MANAGE, summary: 'Delete a webhook and its deliveries', params: W.WebhookParams, reply: MsgReply },
  webhookDeliveries: { method: 'GET', path: '/api/v1/webhooks/:id/deliveries', access: org, office: MANAGE, summary: "A webhook's deliveries, newest first, with their status codes", params: W.WebhookParams, querystring: W.DeliveryListQuery, reply: W.DeliveryListReply },
  retryDelivery: { method: 'POST', path: '/api/v1/webhooks/:id/deliveries/:deliveryId/retry', access: org, office: MANAGE, summary: 'Send a delivery again now (another 24 hours of retries)', params: W.DeliveryParams, reply: W.DeliveryReply },

  // API tokens: read-only keys for scripts and BI tools (every office role makes its own; the owner sees and revokes all)
  tokens: { method: 'GET', path: '/api/v1/tokens', access: org, office: READ, summary: "API tokens: the caller's own (the owner's list holds every office user's), newest first, with when each was last used", querystring: TK.TokenListQuery, reply: TK.TokenListReply },
  createToken: { method: 'POST', path: '/api/v1/tokens', access: org, office: READ, summary: 'Make an API token (`sb_...`, answered once, kept hashed) for the read routes marked `token`, optionally one survey, until expiresAt (at most 366 days)', body: TK.CreateTokenBody, reply: TK.CreateTokenReply },
  revokeToken: { method: 'DELETE', path: '/api/v1/tokens/:id', access: org, office: READ, summary: "Revoke an API token at once (the caller's own; the owner's, any of the organization's)", params: TK.TokenParams, reply: MsgReply },

  // OData v4 for Power BI and Excel: an API token as the HTTP Basic password
  odataService: { method: 'GET', path: '/api/v1/odata/:surveyId/', access: org, office: READ, summary: "OData v4 service document of a survey's feed (Responses and one entity set per repeat)", params: SurveyIdParams, token: 'basic' },
  odataMetadata: { method: 'GET', path: '/api/v1/odata/:surveyId/$metadata', access: org, office: READ, summary: 'OData v4 $metadata (CSDL XML): the entity types of Responses and of each repeat', params: SurveyIdParams, token: 'basic' },
  odataEntitySet: { method: 'GET', path: '/api/v1/odata/:surveyId/:entitySet', access: org, office: READ, summary: 'An OData entity set, oldest received first: $top, $skip, $count=true, $filter on ReceivedAt (eq ne gt ge lt le, and); 1,000 a page with @odata.nextLink', params: OD.EntitySetParams, querystring: OD.EntitySetQuery, token: 'basic' },
  odataCount: { method: 'GET', path: '/api/v1/odata/:surveyId/:entitySet/$count', access: org, office: READ, summary: 'The number of rows of an OData entity set (plain text), $filter applied', params: OD.EntitySetParams, querystring: OD.EntitySetQuery, token: 'basic' },

  // payouts
  createPayout: { method: 'POST', path: '/api/v1/payouts', access: org, office: PAY, summary: 'Freeze the approved, unpaid responses into a draft payout (idempotent per key)', body: P.CreatePayoutBody, reply: P.CreatePayoutReply },
  markPayoutPaid: { method: 'POST', path: '/api/v1/payouts/:id/paid', access: org, office: PAY, summary: 'Mark a payout paid with the transfer reference', params: P.PayoutIdParams, body: P.MarkPaidBody, reply: P.PayoutReply },
  cancelPayout: { method: 'POST', path: '/api/v1/payouts/:id/cancel', access: org, office: PAY, summary: 'Cancel a draft payout, releasing its responses', params: P.PayoutIdParams, reply: P.PayoutReply },
  payouts: { method: 'GET', path: '/api/v1/payouts', access: orgOrSup, office: PAY, summary: 'Payouts of a survey with totals', querystring: P.PayoutListQuery, reply: P.PayoutListReply, token: 'bearer' },
  payout: { method: 'GET', path: '/api/v1/payouts/:id', access: orgOrSup, office: PAY, summary: 'A payout with its lines', params: P.PayoutIdParams, reply: P.PayoutDetail },
  payoutHolds: { method: 'GET', path: '/api/v1/payouts/held', access: org, office: PAY, summary: "What a payout of the survey would leave out now and why (the survey's pay gate), per reason and field user", querystring: AU.PayoutHoldsQuery, reply: AU.PayoutHoldsReply },
  payoutDownload: { method: 'GET', path: '/api/v1/payouts/:id/download', access: org, office: PAY, summary: 'The bank transfer file (xlsx or csv)', params: P.PayoutIdParams, querystring: P.PayoutDownloadQuery },

  // the field user's own money
  myResponseChanges: { method: 'GET', path: '/api/v1/me/responses/changes', access: fu, summary: "Changes to the caller's responses since a cursor (status, comment, paid)", querystring: E.ChangesQuery, reply: E.ChangesReply },
  myEarnings: { method: 'GET', path: '/api/v1/me/earnings', access: fu, summary: "The caller's earnings: awaiting review, owed, paid, returned", reply: E.EarningsReply },
  myResponses: { method: 'GET', path: '/api/v1/me/responses', access: fu, summary: "The caller's own responses, newest first, paged: status, amount, submitted, reviewed and paid times", querystring: E.MyResponsesQuery, reply: E.MyResponsesReply },
  myBank: { method: 'GET', path: '/api/v1/me/bank', access: fu, summary: "The caller's bank details per survey (account number masked but for its last 4 digits) and any change awaiting the office", querystring: PageQuery, reply: T.MyBankReply },
  requestBankChange: { method: 'POST', path: '/api/v1/me/bank', access: fu, summary: "Ask the office to change the caller's bank details on a survey (replaces a request not yet decided)", body: T.BankChangeBody, reply: MsgReply },
  bankChangeRequests: { method: 'GET', path: '/api/v1/bank-change', access: org, office: MEMBER_EDIT, summary: "Field users' bank change requests awaiting a decision, oldest first", querystring: PageQuery, reply: T.BankChangeListReply },
  approveBankChange: { method: 'POST', path: '/api/v1/bank-change/:id/approve', access: org, office: MEMBER_EDIT, summary: 'Approve a bank change request: the details change (audited, the person is mailed)', params: T.BankChangeIdParams, reply: MsgReply },
  rejectBankChange: { method: 'POST', path: '/api/v1/bank-change/:id/reject', access: org, office: MEMBER_EDIT, summary: 'Reject a bank change request, with an optional reason the field user reads (and is mailed)', params: T.BankChangeIdParams, body: T.RejectBankChangeBody.optional(), reply: MsgReply },
  // field-team monitoring
  reportDevice: { method: 'POST', path: '/api/v1/me/device', access: fu, summary: "The phone's state at a sync: work waiting, failed, storage, last sync", body: D.DeviceReportBody, reply: D.DeviceReportReply },
  supervisorSettings: { method: 'GET', path: '/api/v1/me/supervisor-settings', access: sup, summary: "The supervisor's own settings (daily sync e-mail)", reply: D.SupervisorSettings },
  updateSupervisorSettings: { method: 'PATCH', path: '/api/v1/me/supervisor-settings', access: sup, summary: "Change the supervisor's own settings (turn the daily sync e-mail off or on)", body: D.SupervisorSettingsBody, reply: D.SupervisorSettings },

  // teams
  fieldUsers: { method: 'GET', path: '/api/v1/field-user/:surveyId', access: org, office: READ, summary: 'Field users of a survey with pay owed', params: SurveyIdParams, querystring: PageQuery, reply: T.FieldUserListReply },
  inviteFieldUser: { method: 'POST', path: '/api/v1/field-user', access: org, office: MANAGE, summary: 'Invite a field user to a survey', body: T.InviteFieldUserBody, reply: T.InviteFieldUserReply },
  allFieldUsers: { method: 'GET', path: '/api/v1/field-user/all', access: admin, summary: 'Field users across organizations (master admin)', querystring: PageQuery, reply: z.object({ fieldUsers: z.array(T.FieldUserAcrossRow), ...Paging }) },
  supervisors: { method: 'GET', path: '/api/v1/supervisor/:surveyId', access: org, office: READ, summary: 'Supervisors of a survey', params: SurveyIdParams, querystring: PageQuery, reply: T.SupervisorListReply },
  inviteSupervisor: { method: 'POST', path: '/api/v1/supervisor', access: org, office: MANAGE, summary: 'Invite a supervisor to a survey', body: T.InviteSupervisorBody, reply: T.InviteSupervisorReply },
  withdrawMember: { method: 'DELETE', path: '/api/v1/member/:surveyId/:memberId', access: org, office: MANAGE, summary: "Withdraw a field user's or supervisor's invitation to a survey (responses and pay stay)", params: T.MemberParams, reply: MsgReply },
  bulkInviteFieldUsers: { method: 'POST', path: '/api/v1/field-user/bulk', access: org, office: MANAGE, summary: 'Invite field users from a CSV or xlsx file (multipart: file, survey_id); ?dryRun=true previews every row and writes nothing', querystring: T.BulkInviteQuery, multipart: true, reply: T.BulkInviteReply, bodyLimit: BULK_BODY_LIMIT },
  bulkInviteSupervisors: { method: 'POST', path: '/api/v1/supervisor/bulk', access: org, office: MANAGE, summary: 'Invite supervisors from a CSV or xlsx file (multipart: file, survey_id); ?dryRun=true previews every row and writes nothing', querystring: T.BulkInviteQuery, multipart: true, reply: T.BulkInviteReply, bodyLimit: BULK_BODY_LIMIT },
  inviteToSurveys: { method: 'POST', path: '/api/v1/team/invite', access: org, office: MANAGE, summary: 'Invite one field user or supervisor to several surveys at once; per survey: invited, already on it, or the reason it was refused (mails queued)', body: T.InviteToSurveysBody, reply: T.InviteToSurveysReply },
  copyTeam: { method: 'POST', path: '/api/v1/team/copy', access: org, office: MANAGE, summary: "Invite a survey's active supervisors and field users (rates, bank details, supervisors) to another survey; dryRun answers the plan and writes nothing", body: T.CopyTeamBody, reply: T.CopyTeamReply },
  bulkTemplate: { method: 'GET', path: '/api/v1/team/bulk-template', access: org, office: MANAGE, summary: 'The CSV template for a bulk invitation of field users or supervisors', querystring: T.BulkTemplateQuery },
  updateMember: { method: 'PATCH', path: '/api/v1/member/:surveyId/:memberId', access: org, office: MEMBER_EDIT, summary: "Change a member's rate (for responses received from then on), phone, bank details (audited, the person is mailed) or supervisor", params: T.MemberParams, body: T.UpdateMemberBody, reply: T.UpdateMemberReply },
  bulkAssignSupervisor: { method: 'POST', path: '/api/v1/supervisor/assign/bulk', access: org, office: MANAGE, summary: 'Assign several field users of a survey to one supervisor', body: T.BulkAssignBody, reply: T.BulkAssignReply },
  deactivatePerson: { method: 'POST', path: '/api/v1/person/deactivate', access: org, office: MANAGE, summary: 'Deactivate a field user or supervisor on every survey of the organization (responses and pay stay)', body: T.PersonBody, reply: T.PersonReply },
  reactivatePerson: { method: 'POST', path: '/api/v1/person/reactivate', access: org, office: MANAGE, summary: 'Give a deactivated person back every survey their deactivation took', body: T.PersonBody, reply: T.PersonReply },
  deactivatedPeople: { method: 'GET', path: '/api/v1/person/deactivated', access: org, office: READ, summary: "The organization's deactivated people, newest first", querystring: PageQuery, reply: T.DeactivatedListReply },
  assignSupervisor: { method: 'POST', path: '/api/v1/supervisor/assign', access: org, office: MANAGE, summary: 'Assign a supervisor to a field user', body: T.AssignSupervisorBody, reply: T.AssignSupervisorReply },
  supervisorFieldUsers: { method: 'GET', path: '/api/v1/supervisor/field-user/:surveyId', access: sup, summary: "The supervisor's own field users", params: SurveyIdParams, querystring: PageQuery, reply: T.FieldUserListReply },
  currentSupervisorName: { method: 'GET', path: '/api/v1/supervisor/current-supervisor/name', access: sup, summary: "The signed-in supervisor's name", reply: T.CurrentSupervisorNameReply },

  // the audit log: append-only, read by the organization's office
  audit: { method: 'GET', path: '/api/v1/audit', access: org, office: MANAGE, summary: "The organization's audit log, newest first, paged (filters: action, actorId, surveyId, from, to)", querystring: A.AuditQuery, reply: A.AuditListReply },
  auditExport: { method: 'GET', path: '/api/v1/audit/download', access: org, office: MANAGE, summary: 'The filtered audit log as xlsx', querystring: A.AuditQuery },
  // maps
  surveyMap: { method: 'GET', path: '/api/v1/survey/:id/map', access: [Role.organization, Role.supervisor, Role.fieldUser], office: READ, summary: "Responses with a location as GeoJSON, clustered below the points zoom (supervisor: their field users; field user: their own)", params: V.SurveyIdOnlyParams, querystring: M.MapQuery, reply: M.MapReply },
  teamMap: { method: 'GET', path: '/api/v1/survey/:id/team-map', access: orgOrSup, office: READ, summary: "Each field user's last known position and its time (supervisor: their field users)", params: V.SurveyIdOnlyParams, querystring: M.TeamMapQuery, reply: M.TeamMapReply },
  uploadBasemap: { method: 'POST', path: '/api/v1/organization/basemap', access: org, office: MANAGE, summary: "Upload the organization's offline basemap (multipart, a PMTiles archive; replaces the previous one)", multipart: true, reply: M.BasemapReply, bodyLimit: BASEMAP_BODY_LIMIT },
  getBasemap: { method: 'GET', path: '/api/v1/basemap/:id', access: 'public', summary: 'A basemap archive (capability URL), with HTTP range requests', params: M.BasemapParams, sensitive: ['id'] },

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
