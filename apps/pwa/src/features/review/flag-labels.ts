import { msgId, t } from '../../lib/i18n';
import { FlagThresholds, QualityFlag, hammingDistance, type ResponseFlag, type ResponseMeta, type ResponseStatus } from '@survey-bird/contracts';

/** A flag's name on a chip (a catalog id): a few short words, so a row's chips stay readable on a phone. */
const FLAG_LABEL: Record<QualityFlag, string> = {
  [QualityFlag.duplicatePhoto]: msgId('office.flag.duplicatePhoto'),
  [QualityFlag.similarPhoto]: msgId('office.flag.similarPhoto'),
  [QualityFlag.tooFast]: msgId('office.flag.tooFast'),
  [QualityFlag.lowGpsAccuracy]: msgId('office.flag.lowGpsAccuracy'),
  [QualityFlag.impossibleTravel]: msgId('office.flag.impossibleTravel'),
  [QualityFlag.duplicateAnswers]: msgId('office.flag.duplicateAnswers'),
  [QualityFlag.clockSkew]: msgId('office.flag.clockSkew'),
  [QualityFlag.implausibleTime]: msgId('office.flag.implausibleTime'),
  [QualityFlag.audioUnavailable]: msgId('office.flag.audioUnavailable'),
  [QualityFlag.backcheckMismatch]: msgId('office.flag.backcheckMismatch'),
};
/** A flag's name in the app's language. */
export const flagLabel = (flag: QualityFlag): string => t(FLAG_LABEL[flag]);

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
  { value: '', label: msgId('office.flagFilter.any') },
  { value: 'true', label: msgId('office.flagFilter.flagged') },
  { value: 'false', label: msgId('office.flagFilter.notFlagged') },
];

/** The filters as the responses list and the export take them: only those set. */
export function filterQuery(status: ResponseStatus | '', flagged: FlaggedFilter): { status?: ResponseStatus; flagged?: 'true' | 'false' } {
  return { ...(status ? { status } : {}), ...(flagged ? { flagged } : {}) };
}

/** The Flagged card's caption: the share of the survey's responses, whole percent (under 1% shown as such, not as 0%). */
export function flaggedShare(flagged: number, total: number): string {
  if (total === 0 || flagged === 0) return t('office.insight.noOpenFlags');
  const pct = (flagged / total) * 100;
  return t('office.insight.flaggedShare', { pct: pct < 1 ? '<1' : Math.round(pct) });
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
