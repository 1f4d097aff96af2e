import { QuestionType, uuidv7 } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { deviceId } from '../../session/device-id';
import { captureMeta } from './capture-meta';
import { formatLocation, locationFixes } from './form-logic';

const questions = [
  { id: 'q1', text: 'Name', type: QuestionType.text, compulsory: true, options: [] },
  { id: 'q2', text: 'Where', type: QuestionType.liveLocation, compulsory: false, options: [] },
];

describe('captureMeta (issue 18)', () => {
  it('dates the start from the draft clientId, measures the time to submit, names the device and the GPS fix', async () => {
    const now = Date.parse('2026-11-12T09:05:00.000Z');
    const clientId = uuidv7(now - 90_000);
    const where = formatLocation({ latitude: 6.5244, longitude: 3.3792, accuracy: 14.2 });
    locationFixes.set(where, { accuracy: 14.2, at: now - 30_000 });
    const meta = await captureMeta(clientId, questions, { Name: 'Ada', Where: where }, {}, now);
    expect(meta).toEqual({
      deviceId: deviceId(),
      appVersion: expect.any(String),
      openedAt: '2026-11-12T09:03:30.000Z',
      durationMs: 90_000,
      locationAccuracy: 14.2,
      locationFixedAt: '2026-11-12T09:04:30.000Z',
    });
  });

  it('says nothing it does not know: no v7 clientId, a location typed elsewhere, no photos', async () => {
    const meta = await captureMeta('3b241101-e2bb-4255-8caf-4136c566a962', questions, { Name: 'Ada', Where: '6.1, 3.1 (±5 m)' }, {});
    expect(Object.keys(meta).sort()).toEqual(['appVersion', 'deviceId']);
  });
});
