/**
 * Audio audits and pay holds, the plain values (no zod): the form's chunk decides a recording with
 * `audioAuditSelected` and needs nothing else from here.
 */

/** What became of an interview's audio audit, as the phone reports it (`audio.status`). */
export const AudioStatus = {
  /** Consent given and a clip recorded; it follows the response through the resumable path. */
  recorded: 'recorded',
  /** The respondent said no: nothing is recorded. */
  declined: 'declined',
  /** Selected, but this browser could not record (no permission, no MediaRecorder, iOS limits). */
  unavailable: 'unavailable',
} as const;
export type AudioStatus = (typeof AudioStatus)[keyof typeof AudioStatus];
export const AUDIO_STATUSES = Object.values(AudioStatus) as [AudioStatus, ...AudioStatus[]];

/** `responses.audio` when the server's rule selected the interview and the phone reported nothing. */
export const AUDIO_NOT_REPORTED = 'not_reported';

/** The reviewer's verdict on a clip. */
export const AudioVerdict = { matches: 'matches', doesNotMatch: 'does_not_match' } as const;
export type AudioVerdict = (typeof AudioVerdict)[keyof typeof AudioVerdict];
export const AUDIO_VERDICTS = Object.values(AudioVerdict) as [AudioVerdict, ...AudioVerdict[]];

/** `Upload-Metadata` `kind` of a resumable upload carrying an audit clip (absent: a photo). */
export const AUDIO_AUDIT_KIND = 'audio_audit';

export const AudioLimits = {
  /**
   * Opus at 24 kbit/s is 180 KB a minute (docs/benchmarks.md has the measured figure); two hours
   * of interview is 21 MB. A clip over this is refused at creation (413), before any byte.
   */
  maxBytes: 24 * 1024 * 1024,
  /** The recorder stops on its own after this long (a form left open overnight records nothing more). */
  maxDurationMs: 2 * 3_600_000,
  /** The recorder's target bitrate: speech stays intelligible, a minute is about 180 KB. */
  bitsPerSecond: 24_000,
  /** How much the organization's consent text may say. */
  maxConsentText: 2000,
  /** Field users always recorded, per survey. */
  maxAlwaysFieldUsers: 500,
} as const;

/** The bytes the selection hashes: the survey's seed and the response's clientId. */
export const audioAuditKey = (seed: string, clientId: string): string => `${seed}:${clientId}`;

/**
 * The selection rule, one definition for phone and server: the interview is recorded when the
 * first 32 bits of SHA-256(`seed:clientId`) (hex) modulo 100 fall under `percent`. Anyone holding the
 * seed re-derives every decision; the phone decides at the interview's start, the server checks it.
 */
export function audioAuditSelected(sha256Hex: string, percent: number): boolean {
  return Number.parseInt(sha256Hex.slice(0, 8), 16) % 100 < percent;
}

/**
 * Why an approved, unpaid response is kept out of payouts, in the order a response is counted
 * under (one reason each, so the per-reason sums add up to what is held).
 */
export const HoldReason = {
  /** The survey requires a reviewer's approval; this one arrived approved and nobody reviewed it. */
  notReviewed: 'not_reviewed',
  /** Its audio audit has not been marked "matches" or "does not match" yet. */
  audioNotReviewed: 'audio_not_reviewed',
  /** Its field user's back-check discrepancy is over the survey's threshold. */
  backcheck: 'backcheck',
} as const;
export type HoldReason = (typeof HoldReason)[keyof typeof HoldReason];
export const HOLD_REASONS = Object.values(HoldReason) as [HoldReason, ...HoldReason[]];

/** What the screens say for each reason ("held for verification: ..."). */
export const HoldReasonText: Record<HoldReason, string> = {
  not_reviewed: 'not yet approved by a reviewer',
  audio_not_reviewed: 'audio audit not yet reviewed',
  backcheck: 'back-check discrepancy over the threshold',
};
