import type { Survey } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { settingsBody, settingsForm } from './survey-settings';

const survey = (extra: Partial<Survey> = {}): Survey => ({
  _id: 's1', title: 'Retail audit', description: '', organization_id: 'o1', expectedResponseCount: null, questions: [], createdAt: '2026-11-01T00:00:00.000Z',
  payAfterReview: false, photoQuality: 'standard', minDurationSeconds: null, maxAccuracyMeters: null, version: 1, closed: false, closedAt: null, ...extra,
});

describe('survey settings form', () => {
  it('reads the stored settings, blank for a default threshold', () => {
    expect(settingsForm(survey({ payAfterReview: true, minDurationSeconds: 90, photoQuality: 'high' }))).toEqual({ payAfterReview: true, minDurationSeconds: '90', maxAccuracyMeters: '', photoQuality: 'high' });
  });

  it('sends only what changed; a blank threshold is null (back to the default)', () => {
    const s = survey({ minDurationSeconds: 90 });
    expect(settingsBody({ ...settingsForm(s), payAfterReview: true, maxAccuracyMeters: ' 50 ' }, s)).toEqual({ body: { payAfterReview: true, maxAccuracyMeters: 50 } });
    expect(settingsBody({ ...settingsForm(s), minDurationSeconds: '' }, s)).toEqual({ body: { minDurationSeconds: null } });
    expect(settingsBody(settingsForm(s), s)).toEqual({ body: null });
  });

  it('refuses a threshold that is not a whole number of at least 1', () => {
    const s = survey();
    expect(settingsBody({ ...settingsForm(s), minDurationSeconds: '1.5' }, s)).toEqual({ msg: 'Minimum time must be a whole number of at least 1, or left blank' });
    expect(settingsBody({ ...settingsForm(s), maxAccuracyMeters: '0' }, s)).toEqual({ msg: 'GPS accuracy limit must be a whole number of at least 1, or left blank' });
  });
});
