import { createHmac, randomBytes } from 'node:crypto';

/** The sampler's default period: a response is selected (and assigned) within this long of its arrival. */
export const BACKCHECK_SAMPLE_EVERY_MS = 5 * 60_000;

/**
 * How back-checks are drawn, written so anyone holding the survey's seed can re-derive each one:
 *
 * - every response gets a draw in [0, 1): the first 48 bits of HMAC-SHA256(seed, response id) over
 *   2^48. It is selected as a sample when draw < percent / 100 (reason `sample`);
 * - with `minPerWeek`, a field user with fewer selected responses in a week (Monday to Sunday, UTC,
 *   by the response's arrival) gets their unselected responses of that week with the lowest draws
 *   (reason `minimum`);
 * - with `includeFlagged`, every response holding an undismissed quality flag is selected
 *   (reason `flagged`) whatever its draw.
 *
 * The draw is stored with each selection, so an audit compares the stored value with the recomputed one.
 */
export function newSeed(): string {
  return randomBytes(16).toString('hex');
}

export function drawOf(seed: string, responseId: string): number {
  const mac = createHmac('sha256', seed).update(responseId).digest();
  return mac.readUIntBE(0, 6) / 2 ** 48;
}

/** A sample: the draw falls under the percentage (percent in hundredths: 10% = 1000). */
export function sampled(draw: number, percentBp: number): boolean {
  return draw * 10_000 < percentBp;
}

const DAY_MS = 86_400_000;
/** The Monday (UTC) of the week holding `ms`, as YYYY-MM-DD. */
export function weekOf(ms: number): string {
  const day = new Date(Math.floor(ms / DAY_MS) * DAY_MS);
  const back = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - back * DAY_MS).toISOString().slice(0, 10);
}
export function weekStart(ms: number): number {
  return Date.parse(`${weekOf(ms)}T00:00:00Z`);
}

/** A person who may back-check: a supervisor of the survey or a field user invited as back-checker. */
export interface Candidate {
  memberId: string;
  userId: string;
  role: 'supervisor' | 'field_user';
  /** A field user's supervisor (their team); null for a supervisor or a field user without one. */
  supervisorId: string | null;
}

/** The original's field user: their own account and their team (supervisor membership). */
export interface Original {
  /** Null for a member who has not registered yet: no candidate is them. */
  userId: string | null;
  supervisorId: string | null;
}

/**
 * Whether `c` may back-check the original: never their own work, never their own team's (a field
 * user under the same supervisor, or that supervisor). A field user without a supervisor is a team of one.
 */
export function mayCheck(c: Candidate, original: Original): boolean {
  if (c.userId === original.userId) return false;
  if (original.supervisorId === null) return true;
  if (c.role === 'supervisor') return c.memberId !== original.supervisorId;
  return c.supervisorId !== original.supervisorId;
}

/** The allowed candidate with the fewest open assignments; ties broken by a draw from the seed (reproducible). */
export function pickBackchecker(candidates: readonly Candidate[], original: Original, open: ReadonlyMap<string, number>, seed: string, responseId: string): Candidate | null {
  let best: Candidate | null = null;
  let bestKey: [number, number] = [Infinity, Infinity];
  for (const c of candidates) {
    if (!mayCheck(c, original)) continue;
    const key: [number, number] = [open.get(c.userId) ?? 0, drawOf(seed, `${responseId}:${c.memberId}`)];
    if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
      best = c;
      bestKey = key;
    }
  }
  return best;
}
