import type { Survey } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSENT, settingsBody, settingsForm } from './survey-settings';

const survey = (extra: Partial<Survey> = {}): Survey => ({
  _id: 's1', title: 'Retail audit', description: '', organization_id: 'o1', expectedResponseCount: null, questions: [], createdAt: '2026-11-01T00:00:00.000Z',
  payAfterReview: false, photoQuality: 'standard', minDurationSeconds: null, maxAccuracyMeters: null, version: 1, closed: false, closedAt: null, ...extra,
});

describe('survey settings form', () => {
  it('reads the stored settings, blank for a default threshold', () => {
    expect(settingsForm(survey({ payAfterReview: true, minDurationSeconds: 90, photoQuality: 'high' }))).toEqual({
      payAfterReview: true, minDurationSeconds: '90', maxAccuracyMeters: '', photoQuality: 'high', retentionDays: '', audioOn: false, audioPercent: '10', consentText: DEFAULT_CONSENT, alwaysIds: [], gateApproved: false, gateAudio: false, gateBackcheck: false,
    });
  });

  it('sends a retention in days, blank for none, and refuses one past the limit', () => {
    const s = survey({ retentionDays: 30 });
    expect(settingsForm(s).retentionDays).toBe('30');
    expect(settingsBody({ ...settingsForm(s), retentionDays: ' 365 ' }, s)).toEqual({ body: { retentionDays: 365 } });
    expect(settingsBody({ ...settingsForm(s), retentionDays: '' }, s)).toEqual({ body: { retentionDays: null } });
    expect(settingsBody({ ...settingsForm(s), retentionDays: '99999' }, s)).toEqual({ msg: 'Retention is at most 3650 days' });
  });

  it('turns audio audits on and off and sets the pay gate; a share outside 0-100 or no consent text is refused', () => {
    const s = survey();
    expect(settingsBody({ ...settingsForm(s), audioOn: true, audioPercent: ' 15 ', consentText: ' May we record? ' }, s)).toEqual({ body: { audioAudit: { percent: 15, consentText: 'May we record?', alwaysFieldUserIds: [] } } });
    expect(settingsBody({ ...settingsForm(s), audioOn: true, audioPercent: '101' }, s)).toEqual({ msg: 'Recorded share must be a whole number from 0 to 100' });
    expect(settingsBody({ ...settingsForm(s), audioOn: true, consentText: ' ' }, s)).toEqual({ msg: 'Write the consent text the phone reads out' });
    const on = survey({ audioAudit: { percent: 20, consentText: 'May we record?', seed: 'abc', alwaysFieldUserIds: ['m1'] } });
    // Unchanged: nothing sent, and the always-recorded list survives a change of share.
    expect(settingsBody(settingsForm(on), on)).toEqual({ body: null });
    expect(settingsBody({ ...settingsForm(on), audioPercent: '30' }, on)).toEqual({ body: { audioAudit: { percent: 30, consentText: 'May we record?', alwaysFieldUserIds: ['m1'] } } });
    expect(settingsBody({ ...settingsForm(on), audioOn: false }, on)).toEqual({ body: { audioAudit: null } });
    // The always-recorded field users: a change alone is sent, the same set in another order is not.
    expect(settingsBody({ ...settingsForm(on), alwaysIds: ['m1', 'm2', 'm2'] }, on)).toEqual({ body: { audioAudit: { percent: 20, consentText: 'May we record?', alwaysFieldUserIds: ['m1', 'm2'] } } });
    expect(settingsBody({ ...settingsForm(on), alwaysIds: [] }, on)).toEqual({ body: { audioAudit: { percent: 20, consentText: 'May we record?', alwaysFieldUserIds: [] } } });
    const two = survey({ audioAudit: { percent: 0, consentText: 'May we record?', seed: 'abc', alwaysFieldUserIds: ['m1', 'm2'] } });
    expect(settingsBody({ ...settingsForm(two), alwaysIds: ['m2', 'm1'] }, two)).toEqual({ body: null });
    expect(settingsBody({ ...settingsForm(s), gateAudio: true }, s)).toEqual({ body: { payGate: { approved: false, audioReviewed: true, backcheck: false } } });
    expect(settingsBody({ ...settingsForm(s), gateBackcheck: true }, s)).toEqual({ body: { payGate: { approved: false, audioReviewed: false, backcheck: true } } });
    const gated = survey({ payGate: { approved: true, audioReviewed: false, backcheck: true } });
    expect(settingsForm(gated).gateBackcheck).toBe(true);
    expect(settingsBody(settingsForm(gated), gated)).toEqual({ body: null });
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
