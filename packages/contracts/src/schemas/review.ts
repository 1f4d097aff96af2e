import { z } from 'zod';
import { Limits } from '../constants.js';
import { RETENTION_MAX_DAYS } from './privacy.js';
import { Id } from './common.js';
import { AudioAuditSettings, PayGate, PayGateSettings, ResponseAudioAudit, SurveyAudioAudit } from './audio.js';
import { HOLD_REASONS } from '../audio-audit.js';
import { PHOTO_QUALITIES, PhotoQualityInput } from './survey.js';
import { FlagState, ResponseMeta } from './flags.js';
import { BackcheckSettings, BackcheckSettingsBody } from './backcheck.js';
import { EncryptedAnswers, EncryptionPublicKey } from './encrypted.js';
import type { Answer } from './response.js';

/** Stored answers as replies carry them: texts, lists, and a repeat's instances (nested objects). */
const StoredAnswers = z.record(z.string(), z.custom<Answer>(() => true));

export { RESPONSE_STATUSES, ResponseStatus } from '../review-constants.js';
import { RESPONSE_STATUSES, ResponseStatus } from '../review-constants.js';

/** A reviewer moves a response to one of these; `pending` is where responses arrive, not a verdict. */
export const ReviewVerdict = z.enum([ResponseStatus.approved, ResponseStatus.returned, ResponseStatus.rejected], { error: 'status must be approved, returned or rejected' });

export const ReviewBody = z
  .object({
    /** The selected rows. */
    responseIds: z.array(Id).min(1, 'Select at least one response').max(Limits.maxReviewBatch, `At most ${Limits.maxReviewBatch} responses per review`).optional(),
    /** Instead of responseIds: every pending response of this survey matching searchQuery (server side). */
    survey_id: Id.optional(),
    searchQuery: z.string().trim().max(Limits.maxSearchQuery).optional(),
    status: ReviewVerdict,
    comment: z.string().trim().max(Limits.maxReviewComment, `The comment is too long (max ${Limits.maxReviewComment})`).optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.responseIds === undefined) === (body.survey_id === undefined)) ctx.addIssue({ code: 'custom', message: 'Send responseIds, or survey_id to review every pending response matching searchQuery', path: ['responseIds'] });
    if (body.status === ResponseStatus.returned && !body.comment) ctx.addIssue({ code: 'custom', message: 'Say what needs fixing: a comment is required to return a response', path: ['comment'] });
    if (body.status === ResponseStatus.rejected && !body.comment) ctx.addIssue({ code: 'custom', message: 'Give the reason: a comment is required to reject a response', path: ['comment'] });
  });
export type ReviewBody = z.input<typeof ReviewBody>;

/** One response's answer: 200 reviewed (or already so), 404 not yours or missing, 409 paid, in a payout or rejected. */
export const ReviewResult = z.object({ _id: z.string(), status: z.number().int(), msg: z.string(), reviewStatus: z.enum(RESPONSE_STATUSES).optional() });
export type ReviewResult = z.infer<typeof ReviewResult>;
export const ReviewReply = z.object({ results: z.array(ReviewResult) });
export type ReviewReply = z.infer<typeof ReviewReply>;

export const ReviewAudit = z.object({
  by: z.string(),
  role: z.string(),
  at: z.string(),
  from: z.enum(RESPONSE_STATUSES),
  to: z.enum(RESPONSE_STATUSES),
  comment: z.string().nullable(),
});
export type ReviewAudit = z.infer<typeof ReviewAudit>;

export const ResponseIdParams = z.object({ id: Id });
export type ResponseIdParams = z.infer<typeof ResponseIdParams>;

export const ResponseRevision = z.object({
  revision: z.number().int(),
  answers: StoredAnswers,
  submittedAt: z.string(),
  status: z.enum(RESPONSE_STATUSES),
});
export type ResponseRevision = z.infer<typeof ResponseRevision>;

/** A response's detail view: its answers, status and every status change, oldest first. */
export const ResponseDetailReply = z.object({
  _id: z.string(),
  survey_id: z.string(),
  answers: StoredAnswers,
  fieldUser: z.object({ fullName: z.string(), email: z.string() }),
  status: z.enum(RESPONSE_STATUSES),
  comment: z.string().nullable(),
  paid: z.boolean(),
  createdAt: z.string(),
  audit: z.array(ReviewAudit),
  /** The revision shown in `answers` (1 = as first submitted); set once revisions exist. */
  revision: z.number().int().optional(),
  /** Every revision, oldest first. */
  revisions: z.array(ResponseRevision).optional(),
  /** What the phone recorded with it; null fields were not sent. */
  meta: ResponseMeta,
  /** When its personal answers, photos and files were erased; null: never. */
  erasedAt: z.string().nullable().optional(),
  /** End-to-end encrypted: the answers (photo placeholders aside) are in this envelope, opened in the office's browser. */
  encrypted: EncryptedAnswers.nullable().optional(),
  /** The answers shown as PERSONAL_MASK to this reader (personal data hidden from analysts). */
  hiddenPersonal: z.boolean().optional(),
  /** The interview's audio audit; null when it had none. */
  audioAudit: ResponseAudioAudit.nullable(),
  /** Why it is held out of payouts now (empty: payable, or not approved). */
  held: z.array(z.enum(HOLD_REASONS)),
  ...FlagState,
});
export type ResponseDetailReply = z.infer<typeof ResponseDetailReply>;

const wholeOrNull = (name: string, max: number) =>
  z.number({ error: `${name} must be a whole number or null` }).int(`${name} must be a whole number or null`).min(1, `${name} must be at least 1`).max(max, `${name} is too large (max ${max})`).nullable();

/** Any of the settings; `closed` closes the survey to new responses or reopens it. */
export const SurveySettingsBody = z
  .object({
    payAfterReview: z.boolean({ error: 'payAfterReview must be true or false' }).optional(),
    closed: z.boolean({ error: 'closed must be true or false' }).optional(),
    /** too_fast below this many seconds in the form; null: a third of the survey's median. */
    minDurationSeconds: wholeOrNull('minDurationSeconds', 86_400).optional(),
    /** low_gps_accuracy above this many metres; null: 100 m. */
    maxAccuracyMeters: wholeOrNull('maxAccuracyMeters', 1_000_000).optional(),
    /** How the phone shrinks photos from its next survey refresh on. */
    photoQuality: PhotoQualityInput.optional(),
    /** Every personal question's id: the others become not personal (photos and locations included). */
    personalQuestionIds: z.array(z.string({ error: 'personalQuestionIds must be question ids' }).min(1).max(64), { error: 'personalQuestionIds must be a list of question ids' }).max(Limits.maxQuestions, `personalQuestionIds: at most ${Limits.maxQuestions}`).optional(),
    /** Days after the survey closes before its photos, files and personal answers are deleted; null: kept. */
    retentionDays: wholeOrNull('retentionDays', RETENTION_MAX_DAYS).optional(),
    /** Record a random share of interviews (null: off). */
    audioAudit: AudioAuditSettings.nullable().optional(),
    /** What a response needs before it goes into a payout. */
    payGate: PayGateSettings.optional(),
    /** Back-check sampling and comparison (schemas/backcheck.ts). */
    backcheck: BackcheckSettingsBody.optional(),
    /** End-to-end encryption: the organization's public key (SPKI, base64) phones seal answers to; null: answers in clear. */
    encryptionKey: EncryptionPublicKey.nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Send payAfterReview, closed, minDurationSeconds, maxAccuracyMeters, photoQuality, personalQuestionIds, retentionDays, audioAudit, payGate, backcheck or encryptionKey', path: ['payAfterReview'] });
export type SurveySettingsBody = z.infer<typeof SurveySettingsBody>;
export const SurveyIdOnlyParams = z.object({ id: Id });
export const SurveySettingsReply = z.object({ msg: z.string(), payAfterReview: z.boolean(), closed: z.boolean(), minDurationSeconds: z.number().int().nullable(), maxAccuracyMeters: z.number().int().nullable(), photoQuality: z.enum(PHOTO_QUALITIES), personalQuestionIds: z.array(z.string()), retentionDays: z.number().int().nullable(), audioAudit: SurveyAudioAudit.nullable(), payGate: PayGate, backcheck: BackcheckSettings, encryptionKey: z.string().nullable() });
export type SurveySettingsReply = z.infer<typeof SurveySettingsReply>;
