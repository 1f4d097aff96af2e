/**
 * The plain values of review and quality flags, apart from their zod schemas (schemas/review.ts,
 * schemas/flags.ts re-export them): a screen that only needs a status or a flag name does not
 * pull a schema module, and zod with it, into its chunk.
 */
/** approved: counts towards pay; pending: awaiting review; returned: sent back to fix; rejected: final. */
export const ResponseStatus = { approved: 'approved', pending: 'pending', returned: 'returned', rejected: 'rejected' } as const;
export type ResponseStatus = (typeof ResponseStatus)[keyof typeof ResponseStatus];
export const RESPONSE_STATUSES = Object.values(ResponseStatus) as [ResponseStatus, ...ResponseStatus[]];

/** The quality flags the server sets on a response after it is stored. */
export const QualityFlag = {
  duplicatePhoto: 'duplicate_photo',
  similarPhoto: 'similar_photo',
  tooFast: 'too_fast',
  lowGpsAccuracy: 'low_gps_accuracy',
  impossibleTravel: 'impossible_travel',
  duplicateAnswers: 'duplicate_answers',
  clockSkew: 'clock_skew',
  /** The phone's time for the response (its clientId or capturedAt) is before the survey or the invitation, too old, or after arrival. */
  implausibleTime: 'implausible_time',
  /** The interview was selected for an audio audit and the phone could not record it (or did not say). */
  audioUnavailable: 'audio_unavailable',
  /** A back-check's stable answers differ from the original's above the survey's threshold (set by the back-check, not the flag worker). */
  backcheckMismatch: 'backcheck_mismatch',
} as const;
export type QualityFlag = (typeof QualityFlag)[keyof typeof QualityFlag];
export const QUALITY_FLAGS = Object.values(QualityFlag) as [QualityFlag, ...QualityFlag[]];

/** The thresholds behind the flags; the survey settings override the two marked per survey. */
export const FlagThresholds = {
  /** similar_photo: at most this many of the 64 hash bits differ (copies measured 0-9 bits apart, different pictures 16-40: docs/decisions.md, "The perceptual hash"). */
  similarPhotoBits: 10,
  /** similar_photo compares with the field user's last this many photos, and the survey's. */
  recentPhotos: 500,
  /** low_gps_accuracy, per survey (`maxAccuracyMeters`): accuracy worse than this many metres. */
  maxAccuracyMeters: 100,
  /** impossible_travel: faster than this between two consecutive responses of one field user. */
  maxSpeedKmh: 150,
  /** too_fast default (per survey `minDurationSeconds`): this share of the survey's median duration... */
  tooFastMedianShare: 1 / 3,
  /** ...once the survey has this many responses with a duration. */
  tooFastMinResponses: 20,
  /** clock_skew: the phone's clock this far from the server's at a sync. */
  clockSkewMs: 10 * 60_000,
} as const;
