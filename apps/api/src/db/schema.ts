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

export interface Database {
  app_settings: AppSettingsTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  organizations: OrganizationsTable;
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
  payout_lines: PayoutLinesTable;
  payout_items: PayoutItemsTable;
  response_counts: ResponseCountsTable;
  files: FilesTable;
  file_blobs: FileBlobsTable;
  resumable_uploads: ResumableUploadsTable;
  resumable_upload_chunks: ResumableUploadChunksTable;
  resumable_claims: ResumableClaimsTable;
  mail_outbox: MailOutboxTable;
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
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type SurveyRow = Selectable<SurveysTable>;
export type MemberRow = Selectable<MembersTable>;
export type NewMember = Insertable<MembersTable>;
export type ResponseRow = Selectable<ResponsesTable>;
export type NewResponse = Insertable<ResponsesTable>;
export type FileRow = Selectable<FilesTable>;
export type MailRow = Selectable<MailOutboxTable>;
