import { z } from 'zod';
import { AUDIO_STATUSES, AUDIO_VERDICTS, AudioLimits, HOLD_REASONS } from '../audio-audit.js';
import { Id, Naira } from './common.js';

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/, 'audio.sha256 must be 64 lower-case hex digits');

/**
 * `audio` on a response body: what became of the interview's audio audit. A recorded clip is named
 * by its size and SHA-256 (the resumable upload after the response must match them), as a photo
 * placeholder is.
 */
export const ResponseAudio = z.object({
  status: z.enum(AUDIO_STATUSES, { error: `audio.status must be one of ${AUDIO_STATUSES.join(', ')}` }),
  /** The respondent's answer to the consent text (true only with `recorded`). */
  consent: z.boolean({ error: 'audio.consent must be true or false' }).optional(),
  /** Why the phone could not record (unavailable), in its words. */
  reason: z.string().trim().max(200, 'audio.reason is too long (max 200)').optional(),
  size: z.number().int('audio.size must be a whole number').min(1).max(AudioLimits.maxBytes, `audio.size is over ${AudioLimits.maxBytes} bytes`).optional(),
  sha256: SHA256.optional(),
  durationMs: z.number().int('audio.durationMs must be a whole number').min(0).max(AudioLimits.maxDurationMs + 60_000).optional(),
  mime: z.string().trim().max(60).regex(/^audio\/[\w.+-]+(;\s*codecs=[\w.+-]+)?$/i, 'audio.mime must be an audio type').optional(),
}).refine((a) => a.status !== 'recorded' || (a.size !== undefined && a.sha256 !== undefined && a.consent === true), { message: 'A recorded audio audit needs consent, size and sha256', path: ['status'] });
export type ResponseAudio = z.infer<typeof ResponseAudio>;

/** `audioAudit` in the survey settings: null turns it off. Percent 0 still records the field users listed. */
export const AudioAuditSettings = z.object({
  percent: z.number({ error: 'audioAudit.percent must be a whole number from 0 to 100' }).int('audioAudit.percent must be a whole number from 0 to 100').min(0, 'audioAudit.percent must be a whole number from 0 to 100').max(100, 'audioAudit.percent must be a whole number from 0 to 100'),
  consentText: z.string({ error: 'audioAudit.consentText is required' }).trim().min(1, 'audioAudit.consentText is required').max(AudioLimits.maxConsentText, `audioAudit.consentText is too long (max ${AudioLimits.maxConsentText})`),
  /** Field users (their `_id` on this survey) recorded in every interview. */
  alwaysFieldUserIds: z.array(Id).max(AudioLimits.maxAlwaysFieldUsers, `At most ${AudioLimits.maxAlwaysFieldUsers} field users`).optional(),
});
export type AudioAuditSettings = z.infer<typeof AudioAuditSettings>;

/**
 * The survey's audio audit as replies carry it. `seed` makes the selection reproducible. A field
 * user's own survey list names only themselves in `alwaysFieldUserIds` (or nobody): the phone
 * records every interview when it is not empty.
 */
export const SurveyAudioAudit = z.object({
  percent: z.number().int(),
  consentText: z.string(),
  seed: z.string(),
  alwaysFieldUserIds: z.array(z.string()),
});
export type SurveyAudioAudit = z.infer<typeof SurveyAudioAudit>;

/** `payGate` in the survey settings: what a response needs, besides being approved and unpaid, to go into a payout. */
export const PayGateSettings = z.object({
  /** A reviewer approved it (one that arrived approved, with pay after review off, is held until reviewed). */
  approved: z.boolean({ error: 'payGate.approved must be true or false' }).optional(),
  /** Its audio audit, if it has one, was reviewed. */
  audioReviewed: z.boolean({ error: 'payGate.audioReviewed must be true or false' }).optional(),
  /** Its field user's back-check discrepancy is under the survey's threshold. */
  backcheck: z.boolean({ error: 'payGate.backcheck must be true or false' }).optional(),
});
export const PayGate = z.object({ approved: z.boolean(), audioReviewed: z.boolean(), backcheck: z.boolean() });
export type PayGate = z.infer<typeof PayGate>;

/** Responses held out of payouts for one reason: how many and how much. */
export const HeldBucket = z.object({ reason: z.enum(HOLD_REASONS), count: z.number().int(), amount: Naira });
export type HeldBucket = z.infer<typeof HeldBucket>;

export const PayoutHoldsQuery = z.object({ survey_id: Id });
/** What a payout of the survey would leave out now, per reason and per field user. */
export const PayoutHoldsReply = z.object({
  held: z.array(HeldBucket),
  fieldUsers: z.array(z.object({ fieldUserId: z.string(), fullName: z.string(), held: z.array(HeldBucket) })),
});
export type PayoutHoldsReply = z.infer<typeof PayoutHoldsReply>;

/** A response's audio audit in its detail. */
export const ResponseAudioAudit = z.object({
  status: z.string(),
  consent: z.boolean().nullable(),
  reason: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  size: z.number().int().nullable(),
  /** The clip is on the server and can be played (GET /api/v1/responses/:id/audio). */
  uploaded: z.boolean(),
  verdict: z.enum(AUDIO_VERDICTS).nullable(),
  note: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type ResponseAudioAudit = z.infer<typeof ResponseAudioAudit>;

export const AudioReviewBody = z.object({
  verdict: z.enum(AUDIO_VERDICTS, { error: 'verdict must be "matches" or "does_not_match"' }),
  /** With does_not_match: what becomes of the response. */
  status: z.enum(['returned', 'rejected'], { error: 'status must be "returned" or "rejected"' }).optional(),
  /** With does_not_match: the reason, sent to the field user as the review comment. */
  reason: z.string().trim().max(1000, 'The reason is too long (max 1000)').optional(),
}).refine((b) => b.verdict === 'matches' || (b.status !== undefined && (b.reason ?? '').length > 0), { message: 'Say what becomes of the response (returned or rejected) and why', path: ['reason'] });
export type AudioReviewBody = z.infer<typeof AudioReviewBody>;
export const AudioReviewReply = z.object({ msg: z.string(), audioAudit: ResponseAudioAudit });
export type AudioReviewReply = z.infer<typeof AudioReviewReply>;
