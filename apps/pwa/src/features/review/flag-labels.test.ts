import { QUALITY_FLAGS, QualityFlag, type ResponseFlag } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { flagLabel, filterQuery, flagSummary, flaggedShare, matchingPhotos } from './flag-labels';

const flag = (f: QualityFlag, dismissed = false): ResponseFlag => ({
  flag: f, reason: `reason of ${f}`, otherResponseId: null,
  dismissed: dismissed ? { by: 'Ada', role: 'organization', at: '2026-11-27T10:00:00Z', note: 'checked' } : null,
});

describe('flag chips', () => {
  it('names every flag in a few short words', () => {
    for (const f of QUALITY_FLAGS) {
      expect(flagLabel(f).split(' ').length).toBeLessThanOrEqual(3);
      expect(flagLabel(f).length).toBeLessThanOrEqual(17);
    }
    expect(flagLabel(QualityFlag.duplicatePhoto)).toBe('Same photo');
  });

  it('shows "checking" until the server has set the flags, whatever the list holds', () => {
    expect(flagSummary({ checking: true, flags: [flag(QualityFlag.tooFast)] })).toEqual({ checking: true });
  });

  it('keeps only open flags on the row and counts the dismissed ones', () => {
    const s = flagSummary({ checking: false, flags: [flag(QualityFlag.tooFast), flag(QualityFlag.duplicatePhoto, true)] });
    expect(s).toEqual({ checking: false, open: [flag(QualityFlag.tooFast)], dismissed: 1 });
    expect(flagSummary({ checking: false, flags: [] })).toEqual({ checking: false, open: [], dismissed: 0 });
  });
});

describe('filters sent to the list and the export', () => {
  it.each([
    ['', '', {}],
    ['pending', '', { status: 'pending' }],
    ['', 'true', { flagged: 'true' }],
    ['approved', 'false', { status: 'approved', flagged: 'false' }],
  ] as const)('status %j, flagged %j', (status, flagged, expected) => {
    expect(filterQuery(status, flagged)).toEqual(expected);
  });
});

describe('the Flagged card caption', () => {
  it.each([
    [0, 0, 'No open flags'],
    [0, 40, 'No open flags'],
    [3, 12, '25% of responses'],
    [1, 3, '33% of responses'],
    [1, 500, '<1% of responses'],
    [7, 7, '100% of responses'],
  ])('%i of %i', (flagged, total, text) => {
    expect(flaggedShare(flagged, total)).toBe(text);
  });
});

describe('which photos a photo flag compares', () => {
  const sha = (c: string) => c.repeat(64);
  it('duplicate_photo: the pair with the same SHA-256, whatever the questions are called', () => {
    const mine = [{ question: 'Front', sha256: sha('a'), phash: null }, { question: 'Shelf', sha256: sha('b'), phash: null }];
    const other = [{ question: 'Shop front', sha256: sha('c'), phash: null }, { question: 'Shelf photo', sha256: sha('b'), phash: null }];
    expect(matchingPhotos(QualityFlag.duplicatePhoto, mine, other)).toEqual({ mine: 'Shelf', other: 'Shelf photo' });
  });

  it('similar_photo: the closest hashes within the threshold, never an identical file', () => {
    const mine = [{ question: 'Front', sha256: sha('a'), phash: '0000000000000000' }];
    const other = [
      { question: 'Same file', sha256: sha('a'), phash: '0000000000000000' },
      { question: 'Far', sha256: sha('c'), phash: 'ffffffffffffffff' },
      { question: 'Near', sha256: sha('d'), phash: '0000000000000007' },
      { question: 'Nearer', sha256: sha('e'), phash: '0000000000000001' },
    ];
    expect(matchingPhotos(QualityFlag.similarPhoto, mine, other)).toEqual({ mine: 'Front', other: 'Nearer' });
  });

  it('null when no pair matches (a response checked before its photo was)', () => {
    const mine = [{ question: 'Front', sha256: null, phash: null }];
    expect(matchingPhotos(QualityFlag.duplicatePhoto, mine, [{ question: 'Front', sha256: null, phash: null }])).toBeNull();
    expect(matchingPhotos(QualityFlag.similarPhoto, mine, [])).toBeNull();
  });
});
