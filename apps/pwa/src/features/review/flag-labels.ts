import { FlagThresholds, QualityFlag, hammingDistance, type ResponseFlag, type ResponseMeta, type ResponseStatus } from '@survey-bird/contracts';

/** A flag's name on a chip: a few short words, so a row's chips stay readable on a phone. */
export const FLAG_LABEL: Record<QualityFlag, string> = {
  [QualityFlag.duplicatePhoto]: 'Same photo',
  [QualityFlag.similarPhoto]: 'Similar photo',
  [QualityFlag.tooFast]: 'Too fast',
  [QualityFlag.lowGpsAccuracy]: 'Weak GPS',
  [QualityFlag.impossibleTravel]: 'Impossible travel',
  [QualityFlag.duplicateAnswers]: 'Same answers',
  [QualityFlag.clockSkew]: 'Phone clock off',
  [QualityFlag.implausibleTime]: 'Unlikely time',
  [QualityFlag.audioUnavailable]: 'No audio',
  [QualityFlag.backcheckMismatch]: 'Revisit differs',
};

/** What a table row shows: "Checking" until the server has set the flags, then the open ones and how many were dismissed. */
export type FlagSummary = { checking: true } | { checking: false; open: ResponseFlag[]; dismissed: number };

export function flagSummary(row: { checking: boolean; flags: ResponseFlag[] }): FlagSummary {
  if (row.checking) return { checking: true };
  const open = row.flags.filter((f) => !f.dismissed);
  return { checking: false, open, dismissed: row.flags.length - open.length };
}

/** The table's flag filter: the select's value as the list's `flagged` query (absent = every response). */
export type FlaggedFilter = '' | 'true' | 'false';
export const FLAGGED_FILTERS: { value: FlaggedFilter; label: string }[] = [
  { value: '', label: 'Any flags' },
  { value: 'true', label: 'Flagged' },
  { value: 'false', label: 'Not flagged' },
];

/** The filters as the responses list and the export take them: only those set. */
export function filterQuery(status: ResponseStatus | '', flagged: FlaggedFilter): { status?: ResponseStatus; flagged?: 'true' | 'false' } {
  return { ...(status ? { status } : {}), ...(flagged ? { flagged } : {}) };
}

/** The Flagged card's caption: the share of the survey's responses, whole percent (under 1% shown as such, not as 0%). */
export function flaggedShare(flagged: number, total: number): string {
  if (total === 0 || flagged === 0) return 'No open flags';
  const pct = (flagged / total) * 100;
  return `${pct < 1 ? '<1' : Math.round(pct)}% of responses`;
}

const PHOTO_FLAGS: readonly QualityFlag[] = [QualityFlag.duplicatePhoto, QualityFlag.similarPhoto];
export const isPhotoFlag = (flag: QualityFlag) => PHOTO_FLAGS.includes(flag);

/**
 * Which photo of each response a photo flag is about (question texts): the pair with the same
 * SHA-256 for `duplicate_photo`, the closest hashes within the threshold for `similar_photo`;
 * null when the server's records do not show one (an old response, a photo not yet checked).
 */
export function matchingPhotos(flag: QualityFlag, mine: ResponseMeta['photos'], other: ResponseMeta['photos']): { mine: string; other: string } | null {
  let best: { mine: string; other: string; bits: number } | null = null;
  for (const a of mine) {
    for (const b of other) {
      const bits = flag === QualityFlag.duplicatePhoto
        ? (a.sha256 && a.sha256 === b.sha256 ? 0 : Infinity)
        : a.phash && b.phash && a.sha256 !== b.sha256 ? hammingDistance(a.phash, b.phash) : Infinity;
      if (bits <= FlagThresholds.similarPhotoBits && (!best || bits < best.bits)) best = { mine: a.question, other: b.question, bits };
    }
  }
  return best && { mine: best.mine, other: best.other };
}
