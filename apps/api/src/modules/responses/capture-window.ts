/**
 * When a response can have been made on the phone. Its clientId (a UUIDv7) and its `capturedAt`
 * carry the phone's clock; both are the phone's word, so both are held to the same window: not
 * before the survey was created or the field user invited, not older than the maximum offline age,
 * and not after the survey closed (or, on an open survey, after it arrived). A closed survey refuses
 * what falls outside; an open survey takes it and the flag worker marks it `implausible_time`.
 */

/**
 * How far a phone's clock may be from the server's and still have a response it made before the
 * close accepted; the same slack at the window's start (a phone a few minutes behind, at the invitation).
 */
export const CLOSE_CLOCK_SKEW_MS = 5 * 60_000;

/** How long a response may wait on a phone before it is sent (MAX_OFFLINE_AGE_DAYS, default 60). */
export const DEFAULT_MAX_OFFLINE_AGE_DAYS = 60;

/** The creation time a UUIDv7 carries (ms), or null for any other UUID (a version 4 from an old phone). */
export function uuidv7Time(id: string): number | null {
  if (id.length !== 36 || id[14] !== '7') return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : null;
}

export interface CaptureWindow {
  /** The survey's creation or the field user's invitation, whichever is later (ms). */
  opensAt: number;
  /** The close of a closed survey, else the response's arrival (ms). */
  endsAt: number;
  /** The response's arrival (ms). */
  arrivedAt: number;
  maxOfflineAgeMs: number;
}

/** Why a time the phone claims is outside the window (the words a flag's reason uses), or null when it is inside. */
export function outsideWindow(at: number, w: CaptureWindow): string | null {
  if (at < w.opensAt - CLOSE_CLOCK_SKEW_MS) return 'before the survey was created or the field user invited';
  if (at < w.arrivedAt - w.maxOfflineAgeMs) return `more than ${Math.round(w.maxOfflineAgeMs / 86_400_000)} days before it arrived`;
  if (at > w.endsAt + CLOSE_CLOCK_SKEW_MS) return w.endsAt < w.arrivedAt ? 'after the survey closed' : 'after it arrived';
  return null;
}
