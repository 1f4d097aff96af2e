/**
 * The 'Covered vs Not covered' doughnut (spec section 9): covered is responses over the survey's
 * expected response count; not covered is the rest. Without an expected count the share is
 * undefined and the centre reads '0%'.
 */
export interface Coverage {
  covered: number;
  /** Never below 0: a survey past its target has nothing left to cover. */
  notCovered: number;
  /** Whole percent, floored so 100% means the target is really met; may exceed 100. */
  percent: number;
  /** The centre text: '42%', or '0%' when undefined. */
  label: string;
  /** false when the survey has no (or a zero) expected count. */
  defined: boolean;
}

export function coverage(responses: number, expected: number | null | undefined): Coverage {
  const covered = Math.max(0, responses);
  if (!expected || expected <= 0 || !Number.isFinite(expected)) {
    return { covered, notCovered: 0, percent: 0, label: '0%', defined: false };
  }
  const percent = Math.floor((covered / expected) * 100);
  return { covered, notCovered: Math.max(0, expected - covered), percent, label: `${percent}%`, defined: true };
}
