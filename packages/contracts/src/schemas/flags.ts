import { z } from 'zod';
import { Limits } from '../constants.js';
import { PHOTO_HASH_PATTERN } from '../photo-hash.js';
import { Id, IsoDate } from './common.js';

export { FlagThresholds, QUALITY_FLAGS, QualityFlag } from '../review-constants.js';
import { QUALITY_FLAGS } from '../review-constants.js';

export const PhotoHash = z.string().regex(PHOTO_HASH_PATTERN, 'A photo hash must be 16 hex digits');

/**
 * What the phone records with a response, all optional: a phone from before sends none.
 * Sent beside `capturedAt` in the single and the batch bodies.
 */
export const ResponseMetaFields = {
  /** When the field user started this response, on the phone's clock. */
  openedAt: IsoDate.optional(),
  /** Time spent in the form, in milliseconds (not wall time from open to submit: a form left open overnight is not counted). */
  durationMs: z.number({ error: 'durationMs must be a whole number' }).int('durationMs must be a whole number').min(0, 'durationMs must be a whole number').max(30 * 86_400_000).optional(),
  /** The location question's accuracy in metres, as the phone's GPS reported it. */
  locationAccuracy: z.number({ error: 'locationAccuracy must be a number of metres' }).min(0, 'locationAccuracy must be a number of metres').max(1e7).optional(),
  /** When the phone got that location fix. */
  locationFixedAt: IsoDate.optional(),
  /** The id the app keeps per install (session/device-id.ts). */
  deviceId: z.string().trim().max(100, 'deviceId is too long (max 100)').optional(),
  appVersion: z.string().trim().max(40, 'appVersion is too long (max 40)').optional(),
  /** Per photo question (its text), the photo's difference hash (photo-hash.ts). */
  photoHashes: z.record(z.string().max(Limits.maxQuestionText), PhotoHash).refine((r) => Object.keys(r).length <= Limits.maxQuestions, 'Too many photo hashes').optional(),
  /** The phone's clock when it sent this request: the server compares it with its own (clock_skew). */
  sentAt: IsoDate.optional(),
};

export const ResponsePhoto = z.object({ question: z.string(), sha256: z.string().nullable(), phash: z.string().nullable() });
export type ResponsePhoto = z.infer<typeof ResponsePhoto>;

/** The stored metadata, in the detail reply; a field the phone did not send is null. */
export const ResponseMeta = z.object({
  openedAt: z.string().nullable(),
  capturedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  locationAccuracy: z.number().nullable(),
  locationFixedAt: z.string().nullable(),
  deviceId: z.string().nullable(),
  appVersion: z.string().nullable(),
  /** The phone's clock minus the server's at the sync that brought it (ms); null when not sent. */
  clockSkewMs: z.number().int().nullable(),
  /** Each photo answer: the server's SHA-256 of the stored file and the phone's hash. */
  photos: z.array(ResponsePhoto),
});
export type ResponseMeta = z.infer<typeof ResponseMeta>;

export const FlagDismissal = z.object({ by: z.string(), role: z.string(), at: z.string(), note: z.string() });

/** One flag on a response: why, which other response it points at (if any), and its dismissal. */
export const ResponseFlag = z.object({
  flag: z.enum(QUALITY_FLAGS),
  reason: z.string(),
  otherResponseId: z.string().nullable(),
  dismissed: FlagDismissal.nullable(),
});
export type ResponseFlag = z.infer<typeof ResponseFlag>;

/**
 * On list rows and the detail: `checking` while the flags are still being computed (a response is
 * shown as soon as it is stored), then its flags, dismissed ones included.
 */
export const FlagState = {
  checking: z.boolean(),
  flags: z.array(ResponseFlag),
};

export const DismissFlagParams = z.object({ id: Id, flag: z.enum(QUALITY_FLAGS, { error: `flag must be one of ${QUALITY_FLAGS.join(', ')}` }) });
export const DismissFlagBody = z.object({
  note: z.string({ error: 'Say why: a note is required to dismiss a flag' }).trim().min(1, 'Say why: a note is required to dismiss a flag').max(Limits.maxReviewComment, `The note is too long (max ${Limits.maxReviewComment})`),
});
export type DismissFlagBody = z.infer<typeof DismissFlagBody>;
export const DismissFlagReply = z.object({ msg: z.string(), flag: ResponseFlag });
export type DismissFlagReply = z.infer<typeof DismissFlagReply>;

/** `?flagged=true`: only responses with a flag not dismissed; `false`: only those without. */
export const FlaggedQuery = z.enum(['true', 'false'], { error: 'flagged must be true or false' }).transform((v) => v === 'true');
