import type { FieldUser } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { fieldUserColumns, syncOverdue } from './field-user-columns';

const now = Date.parse('2026-11-25T12:00:00Z');
const device = (over: Partial<{ lastSyncAt: string | null; waiting: number; failed: number; photosWaiting: number }>) => ({
  lastSyncAt: '2026-11-25T11:00:00Z', reportedAt: '2026-11-25T11:00:00Z', waiting: 0, failed: 0, photosWaiting: 0, appVersion: '1', devices: 1, ...over,
});

describe('syncOverdue: work on the phone and no sync for three days', () => {
  it.each([
    ['nothing waiting, long silent', device({ lastSyncAt: '2026-11-01T00:00:00Z' }), false],
    ['work waiting, synced an hour ago', device({ waiting: 4 }), false],
    ['work waiting, 2 days 23 h silent', device({ waiting: 1, lastSyncAt: '2026-11-22T13:00:00Z' }), false],
    ['work waiting, 3 days silent', device({ waiting: 1, lastSyncAt: '2026-11-22T12:00:00Z' }), true],
    ['only photos waiting, a week silent', device({ photosWaiting: 2, lastSyncAt: '2026-11-18T12:00:00Z' }), true],
    ['failed responses, never synced', device({ failed: 1, lastSyncAt: null }), true],
    ['no report at all', null, false],
  ])('%s', (_, d, expected) => {
    expect(syncOverdue(d, now)).toBe(expected);
  });
});

describe('fieldUserColumns', () => {
  const awaiting = fieldUserColumns(1).find((c) => c.header === 'Awaiting review')!;
  const user = (awaitingReview: number) => ({ awaitingReview }) as FieldUser;

  it('Awaiting review is money: ₦0 when nothing is pending, never N/A', () => {
    expect(awaiting.cell(user(0), 0)).toBe('₦0');
    expect(awaiting.cell(user(1500), 0)).toBe('₦1,500');
  });
});
