import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps are epoch milliseconds (bigint) and flags 0/1 integers, so one schema fits SQLite and PostgreSQL. */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: string;
  verified: number;
  full_name: string | null;
  created_at: number;
  /** The app's language (AppLanguages): what the phone shows and mails are written in. */
  language: Generated<string>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  user_agent: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Single-use links (verify e-mail, reset password); only the SHA-256 of the token is stored. */
export interface AuthTokensTable {
  id: string;
  user_id: string;
  kind: 'verify' | 'reset';
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  email: string;
  created_at: number;
  /** Days without a sync before a field user holding work is flagged. */
  stale_sync_days: Generated<number>;
}

/** An organization's office login: its office role and, when limited, its surveys (JSON array; null: all). */
export interface OfficeUsersTable {
  id: string;
  organization_id: string;
  email: string;
  role: string;
  survey_ids: string | null;
  /** The user id of the owner who invited them; null for the first owner. */
  invited_by: string | null;
  created_at: number;
}

export interface SurveysTable {
  id: string;
  organization_id: string;
  title: string;
  description: string;
  expected_response_count: number | null;
  /** JSON of StoredQuestion[] */
  questions: string;
  /** 1: responses arrive `pending` and are paid once approved; 0: `approved` on receipt. */
  pay_after_review: Generated<number>;
  created_at: number;
  /** The latest published version (1 at creation); every version is kept in survey_versions. */
  version: Generated<number>;
  /** When the survey was closed to new responses; null while open. */
  closed_at: Generated<number | null>;
  /** too_fast threshold in seconds; null: a third of the median duration. */
  min_duration_s: Generated<number | null>;
  /** low_gps_accuracy threshold in metres; null: FlagThresholds.maxAccuracyMeters. */
  max_accuracy_m: Generated<number | null>;
  /** How the phone shrinks photos: 'standard' or 'high' (PhotoQuality). */
  photo_quality: Generated<string>;
  /** JSON of SurveyFormSettings (languages, XLSForm form_id and instance_name); null: none. */
  form_settings?: string | null;
  /** Days after closing before photos, files and personal answers are deleted; null: kept. */
  retention_days?: ColumnType<number | null, number | null | undefined, number | null>;
  /** When the owner was mailed that retention is a week away; when retention ran. */
  retention_warned_at?: ColumnType<number | null, number | null | undefined, number | null>;
  retention_done_at?: ColumnType<number | null, number | null | undefined, number | null>;
  /** JSON of the audio audit (SurveyAudioAudit); null: off. */
  audio_audit?: string | null;
  /** JSON of PayGate; null: nothing beyond approved. */
  pay_gate?: string | null;
  /** End-to-end encryption: the organization's RSA-OAEP public key (SPKI, base64); null: answers in clear. */
  encryption_key?: string | null;
}

/** One published version of a survey's questions; version 1 is the survey as created. */
export interface SurveyVersionsTable {
  survey_id: string;
  version: number;
  title: string;
  description: string;
  /** JSON of StoredQuestion[] */
  questions: string;
  created_at: number;
  /** JSON of SurveyFormSettings as this version was published; null: none. */
  form_settings?: string | null;
}

/** A person invited to one survey as field user or supervisor; user_id is set once they have an account. */
export interface MembersTable {
  id: string;
  survey_id: string;
  organization_id: string;
  role: string;
  email: string;
  user_id: string | null;
  full_name: string;
  phone_number: string;
  bank: string;
  account_number: string;
  account_name: string;
  rate: number;
  supervisor_id: string | null;
  created_at: number;
  /** Set when the organization withdrew the invitation: no access to the survey, responses kept. */
  withdrawn_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The supervisor a withdrawal set aside, put back by the re-invitation (teams/repository.ts). */
  dormant_supervisor_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the bank details last changed; null since the invitation. */
  bank_changed_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Set on the rows a deactivation of the person withdrew; reactivation reinstates exactly those. */
  deactivated_at: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface DatasetOptionsTable {
  survey_id: string;
  question: string;
  position: number;
  value: string;
  value_lower: string;
}

/** A large select's option list as an earlier version used it: versions up to `until_version`. */
export interface DatasetOptionHistoryTable {
  survey_id: string;
  question: string;
  until_version: number;
  position: number;
  value: string;
}

export interface ResponsesTable {
  id: string;
  client_id: string;
  survey_id: string;
  organization_id: string;
  member_id: string;
  user_id: string;
  /** JSON of Answers */
  answers: string;
  /** SHA-256 of the canonical body, to tell an identical replay from a conflicting one. */
  body_hash: string;
  /** Lower-cased field user name, e-mail and answers, for search. */
  search_text: string;
  /** Naira due for this response, fixed when it was received. */
  rate: number;
  paid_at: number | null;
  captured_at: number | null;
  created_at: number;
  /** ResponseStatus; defaults to approved. */
  status: Generated<string>;
  review_comment: string | null;
  reviewed_by: string | null;
  reviewed_at: number | null;
  /** Last review or payment change, the field user's changes feed cursor; null until the first. */
  changed_at: number | null;
  /** The survey version the response was filled against (1 before versions existed). */
  version: Generated<number>;
  /** Which revision `answers` holds: 1 for an original, +1 per fix and resubmit. */
  revision: Generated<number>;
  /** JSON of StoredMeta (modules/flags/meta.ts): what the phone recorded; null from older phones. */
  meta: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON `{ [question]: PhotoPlaceholder }` of photos not yet attached; null when none. */
  pending_photos: string | null;
  /** Its place in the survey's changes feed, set by triggers (migration response_change_seq); bigint, a string on PostgreSQL. */
  change_seq: Generated<number | string>;
  /** When its personal answers, photos and files were erased (by request or retention); null: never. */
  erased_at?: ColumnType<number | null, number | null | undefined, number | null>;
  /** What became of a selected interview's audio (AudioStatus or not_reported); null when not selected. */
  audio?: string | null;
  /** JSON of EncryptedAnswers when the survey is end-to-end encrypted (answers then hold only photo placeholders). */
  encrypted?: string | null;
}

/** Every submitted revision of a fixed response (revision 1 copied in when the first fix arrives). */
export interface ResponseRevisionsTable {
  id: string;
  response_id: string;
  survey_id: string;
  /** The revision's own clientId: a replayed resubmit finds its row by it. */
  client_id: string;
  user_id: string;
  revision: number;
  answers: string;
  body_hash: string;
  captured_at: number | null;
  submitted_at: number;
}

/** The claim of one field user's "responses need a fix" mail for one UTC day. */
export interface ReturnDigestsTable {
  user_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  returned: number;
  created_at: number;
  mailed_at: number | null;
}

/** One status change of a response: who, in which role, when, from, to, why. */
export interface ResponseReviewsTable {
  id: string;
  response_id: string;
  actor_user_id: string;
  actor_role: string;
  actor_name: string;
  from_status: string;
  to_status: string;
  comment: string | null;
  created_at: number;
}

export interface PayoutsTable {
  id: string;
  organization_id: string;
  survey_id: string;
  idempotency_key: string;
  /** SHA-256 of the create request (survey, field users); null for payouts made before it was kept. */
  request_hash: string | null;
  /** PayoutStatus */
  status: string;
  total: number;
  response_count: number;
  reference: string | null;
  created_by: string;
  created_at: number;
  paid_by: string | null;
  paid_at: number | null;
  cancelled_at: number | null;
}

/** What one field user is paid by a payout, with the bank details frozen at its creation. */
export interface PayoutLinesTable {
  payout_id: string;
  member_id: string;
  full_name: string;
  email: string;
  bank: string;
  account_number: string;
  account_name: string;
  amount: number;
  response_count: number;
  /** The member's bank_changed_at when the payout froze these details. */
  bank_changed_at?: number | null;
}

/** A response held by a draft or paid payout; the primary key keeps it in one at most. */
export interface PayoutItemsTable {
  response_id: string;
  payout_id: string;
  member_id: string;
  /** The response's rate, frozen with it. */
  rate: number;
}

/**
 * Responses per member of a survey and the newest one's created_at, kept by triggers
 * (migrations/20261125000000_response_counts.ts). A member's figures are the sum / max over its shards.
 */
export interface ResponseCountsTable {
  survey_id: string;
  member_id: string;
  shard: number;
  responses: number;
  last_created_at: number | null;
}

export interface FilesTable {
  id: string;
  user_id: string;
  client_id: string;
  question: string;
  survey_id: string;
  path: string;
  mime: string;
  size: number;
  sha256: string;
  created_at: number;
  /** Which file store holds the bytes (modules/files/store). */
  store: string;
}

/** The database file store's bytes, one row per photo, written in the transaction of its files row. */
export interface FileBlobsTable {
  file_id: string;
  bytes: Buffer;
}

/** A resumable upload not yet finished (modules/files/resumable-store.ts); `metadata` is tus's, as JSON. */
export interface ResumableUploadsTable {
  id: string;
  metadata: string;
  size: number | null;
  upload_offset: Generated<number>;
  created_at: number;
}

/** The bytes of a resumable upload, in the order received: `chunk_offset` is the first byte's offset. */
export interface ResumableUploadChunksTable {
  upload_id: string;
  chunk_offset: number;
  bytes: Buffer;
}

/** The unfinished resumable upload holding a photo placeholder, and the length it declared (modules/files/resumable-claims.ts). */
export interface ResumableClaimsTable {
  upload_id: string;
  user_id: string;
  survey_id: string;
  client_id: string;
  question: string;
  size: number;
  created_at: number;
}

export interface MailOutboxTable {
  id: string;
  to_email: string;
  subject: string;
  text: string;
  link: string | null;
  created_at: number;
  sent_at: number | null;
  error: string | null;
}

/** A fixed-window counter (sign-in failures, registrations); see counters/db-counter-store.ts. */
export interface RateCountersTable {
  key: string;
  window_start: number;
  hits: number;
}

/** A lease held by one API process until released or expired; see counters/db-lease-store.ts. */
export interface LeasesTable {
  key: string;
  holder: string;
  expires_at: number;
}

/** A phone's latest report at a sync (modules/devices). */
export interface DeviceStatusTable {
  user_id: string;
  device_id: string;
  app_version: string;
  waiting: number;
  failed: number;
  photos_waiting: number;
  storage_used: number | null;
  storage_quota: number | null;
  last_sync_at: number | null;
  reported_at: number;
}

/** A supervisor's own settings, once changed (modules/devices); no row: the defaults. */
export interface SupervisorSettingsTable {
  user_id: string;
  sync_digest: number;
  updated_at: number;
}

/** One supervisor's daily "field users to check" e-mail: the claim for one UTC day (modules/devices/sync-digest.ts). */
export interface SyncDigestsTable {
  user_id: string;
  day: string;
  field_users: number;
  text: string;
  created_at: number;
  mailed_at: number | null;
}

/** A response whose flags are still to be computed: written by trigger with the response. */
export interface FlagJobsTable {
  response_id: string;
  queued_at: number;
}

/** The facts of a checked response the flag rules compare across responses. */
export interface ResponseChecksTable {
  response_id: string;
  survey_id: string;
  user_id: string;
  captured_at: number | null;
  lat: number | null;
  lng: number | null;
  answers_hash: string;
  duration_ms: number | null;
}

/** An organization's uploaded basemap (a PMTiles archive); the newest is the one in use. */
export interface BasemapsTable {
  id: string;
  organization_id: string;
  name: string;
  size: number;
  /** Which file store holds the bytes ('disk', 'postgres', 's3'). */
  store: string;
  /** The bytes' relative path (disk) or object key (s3). */
  path: string;
  created_at: number;
}

/** The database store's basemap bytes, in numbered chunks. */
export interface BasemapChunksTable {
  basemap_id: string;
  seq: number;
  bytes: Buffer;
}

export interface ResponsePhotosTable {
  response_id: string;
  question: string;
  organization_id: string;
  survey_id: string;
  user_id: string;
  sha256: string | null;
  phash: string | null;
  created_at: number;
}

export interface ResponseFlagsTable {
  response_id: string;
  flag: string;
  survey_id: string;
  member_id: string;
  reason: string;
  other_response_id: string | null;
  created_at: number;
  dismissed_at: number | null;
  dismissed_by: string | null;
  dismissed_role: string | null;
  dismiss_note: string | null;
}

export interface FlagDismissalsTable {
  id: string;
  response_id: string;
  flag: string;
  reason: string;
  note: string;
  actor_user_id: string;
  actor_role: string;
  actor_name: string;
  created_at: number;
}

export interface AppSettingsTable {
  name: string;
  value: string;
  created_at: number;
}

/** A survey's webhook (migration webhooks). */
export interface WebhooksTable {
  id: string;
  organization_id: string;
  survey_id: string;
  url: string;
  /** Each event between commas: ",response.created,payout.paid,". */
  events: string;
  secret: string;
  created_by: string;
  created_at: number;
  /** When its deliveries began failing without a success since; null while they succeed. */
  failing_since: number | null;
  disabled_at: number | null;
  /** 1: its payloads carry personal answers as PERSONAL_MASK. */
  without_personal: Generated<number>;
}

/** One event for one webhook, queued by triggers (migration webhooks), retried until delivered or expired. */
export interface WebhookDeliveriesTable {
  id: Generated<number | string>;
  webhook_id: string;
  event_id: string;
  event_type: string;
  survey_id: string;
  response_id: string | null;
  payout_id: string | null;
  /** pending, delivered or failed */
  status: string;
  attempts: number;
  next_attempt_at: number;
  expires_at: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  created_at: number;
}

/** One office action or sign-in; append-only (migrations/20261130200000_audit_events.ts). */
export interface AuditEventsTable {
  id: string;
  organization_id: string;
  /** AuditAction */
  action: string;
  /** null: done by the system (no signed-in caller). */
  actor_user_id: string | null;
  actor_email: string;
  actor_name: string;
  actor_role: string;
  actor_office_role: string | null;
  survey_id: string | null;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  /** JSON of the changed fields before and after; null when nothing was there before (or after). */
  before: string | null;
  after: string | null;
  ip: string | null;
  created_at: number;
}

/** A field user's requested bank details for one membership, until the office decides. */
export interface BankChangeRequestsTable {
  id: string;
  organization_id: string;
  survey_id: string;
  member_id: string;
  bank: string;
  account_number: string;
  account_name: string;
  /** BankChangeStatus */
  status: string;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
  /** Why the office rejected it (shown to the field user); null otherwise. */
  reason?: string | null;
}

/** A mail waiting to be sent (mail/mail-queue.ts): what renders it, never its body. */
export interface MailQueueTable {
  id: string;
  /** MailKind */
  kind: string;
  /** JSON of the kind's fields. */
  payload: string;
  created_at: number;
  next_attempt_at: number;
  attempts: number;
  last_error: string | null;
}

/** An API token (migration api_tokens): only its SHA-256 is kept. */
export interface ApiTokensTable {
  id: string;
  organization_id: string;
  user_id: string;
  name: string;
  token_hash: string;
  hint: string;
  survey_id: string | null;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  /** Days since 1970 (UTC) of the last use written to the audit log. */
  used_day: number | null;
  revoked_at: number | null;
}

/** An audio audit clip that arrived (file_id) and its review. */
export interface AudioAuditsTable {
  response_id: string;
  survey_id: string;
  file_id: string | null;
  uploaded_at: number | null;
  verdict: string | null;
  note: string | null;
  reviewed_by: string | null;
  reviewed_at: number | null;
}

/** A survey's back-check settings and the seed and cursor of its selection (modules/backchecks). */
export interface BackcheckSettingsTable {
  survey_id: string;
  organization_id: string;
  /** Percent in hundredths (10% = 1000): whole numbers on both engines. */
  percent_bp: number;
  min_per_week: number;
  include_flagged: number;
  threshold_bp: number;
  auto_return: number;
  /** JSON string[] */
  stable_question_ids: string;
  /** 32 hex digits: every draw is HMAC-SHA256(seed, response id). */
  seed: string;
  /** The sampler's cursor: responses up to (created_at, id) were drawn. */
  sampled_until: number;
  sampled_until_id: string;
  created_at: number;
  updated_at: number;
}

/** One published version of a survey's back-check form. */
export interface BackcheckFormsTable {
  survey_id: string;
  version: number;
  /** JSON of StoredQuestion[]: the stable questions as the survey had them, then the form's own. */
  questions: string;
  stable_question_ids: string;
  own_question_ids: string;
  /** JSON { [questionId]: number } */
  tolerances: string;
  respondent_question_id: string | null;
  created_at: number;
}

/** A field-user membership invited as back-checker on its survey. */
export interface BackcheckersTable {
  member_id: string;
  survey_id: string;
  created_at: number;
}

/** A response selected for a back-check, who revisits it, and the comparison once done. */
export interface BackcheckAssignmentsTable {
  id: string;
  survey_id: string;
  organization_id: string;
  response_id: string;
  /** The original's field-user membership. */
  member_id: string;
  response_created_at: number;
  /** BackcheckReason */
  reason: string;
  /** The draw in [0, 1) from the seed; a sample is selected when draw < percent / 100. */
  draw: number;
  selected_at: number;
  backchecker_member_id: string | null;
  backchecker_user_id: string | null;
  assigned_at: number | null;
  completed_at: number | null;
  compared: number | null;
  mismatched: number | null;
  mismatch: Generated<number>;
  returned: Generated<number>;
}

export interface BackcheckResponsesTable {
  id: string;
  assignment_id: string;
  survey_id: string;
  client_id: string;
  user_id: string;
  form_version: number;
  answers: string;
  body_hash: string;
  captured_at: number | null;
  created_at: number;
}

/** One compared stable question of a back-check: the two answers (JSON) and whether they match. */
export interface BackcheckDiffsTable {
  assignment_id: string;
  question_id: string;
  survey_id: string;
  matched: number;
  original: string | null;
  backcheck: string | null;
}

export interface Database {
  api_tokens: ApiTokensTable;
  audio_audits: AudioAuditsTable;
  backcheck_settings: BackcheckSettingsTable;
  backcheck_forms: BackcheckFormsTable;
  backcheckers: BackcheckersTable;
  backcheck_assignments: BackcheckAssignmentsTable;
  backcheck_responses: BackcheckResponsesTable;
  backcheck_diffs: BackcheckDiffsTable;
  bank_change_requests: BankChangeRequestsTable;
  audit_events: AuditEventsTable;
  app_settings: AppSettingsTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  organizations: OrganizationsTable;
  office_users: OfficeUsersTable;
  surveys: SurveysTable;
  survey_versions: SurveyVersionsTable;
  members: MembersTable;
  dataset_options: DatasetOptionsTable;
  dataset_option_history: DatasetOptionHistoryTable;
  responses: ResponsesTable;
  response_reviews: ResponseReviewsTable;
  response_revisions: ResponseRevisionsTable;
  return_digests: ReturnDigestsTable;
  payouts: PayoutsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  payout_lines: PayoutLinesTable;
  payout_items: PayoutItemsTable;
  response_counts: ResponseCountsTable;
  files: FilesTable;
  file_blobs: FileBlobsTable;
  resumable_uploads: ResumableUploadsTable;
  resumable_upload_chunks: ResumableUploadChunksTable;
  resumable_claims: ResumableClaimsTable;
  mail_outbox: MailOutboxTable;
  mail_queue: MailQueueTable;
  rate_counters: RateCountersTable;
  leases: LeasesTable;
  device_status: DeviceStatusTable;
  supervisor_settings: SupervisorSettingsTable;
  sync_digests: SyncDigestsTable;
  flag_jobs: FlagJobsTable;
  response_checks: ResponseChecksTable;
  response_photos: ResponsePhotosTable;
  response_flags: ResponseFlagsTable;
  flag_dismissals: FlagDismissalsTable;
  basemaps: BasemapsTable;
  basemap_chunks: BasemapChunksTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type OfficeUserRow = Selectable<OfficeUsersTable>;
export type SurveyRow = Selectable<SurveysTable>;
export type MemberRow = Selectable<MembersTable>;
export type NewMember = Insertable<MembersTable>;
export type ResponseRow = Selectable<ResponsesTable>;
export type NewResponse = Insertable<ResponsesTable>;
export type FileRow = Selectable<FilesTable>;
export type MailRow = Selectable<MailOutboxTable>;
