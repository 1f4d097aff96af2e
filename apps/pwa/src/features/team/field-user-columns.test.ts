import type { FieldUser } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { fieldUserColumns, syncOverdue } from './field-user-columns';

const now = Date.parse('2026-11-25T12:00:00Z');
const device = (over: Partial<{ lastSyncAt: string | null; waiting: number; failed: number; photosWaiting: number }>) => ({
  lastSyncAt: '2026-11-25T11:00:00Z', reportedAt: '2026-11-25T11:00:00Z', waiting: 0, failed: 0, photosWaiting: 0, appVersion: '1', devices: 1, ...over,
});

describe("syncOverdue: work on the phone and no sync for the organization's number of days", () => {
  it.each([
    ['nothing waiting, long silent', device({ lastSyncAt: '2026-11-01T00:00:00Z' }), false],
    ['work waiting, synced an hour ago', device({ waiting: 4 }), false],
    ['work waiting, 2 days 23 h silent', device({ waiting: 1, lastSyncAt: '2026-11-22T13:00:00Z' }), false],
    ['work waiting, 3 days silent', device({ waiting: 1, lastSyncAt: '2026-11-22T12:00:00Z' }), true],
    ['only photos waiting, a week silent', device({ photosWaiting: 2, lastSyncAt: '2026-11-18T12:00:00Z' }), true],
    ['failed responses, never synced', device({ failed: 1, lastSyncAt: null }), true],
    ['no report at all', null, false],
  ])('%s (3 days)', (_, d, expected) => {
    expect(syncOverdue(d, 3, now)).toBe(expected);
  });

  it.each([
    ['3 days silent, threshold 5', device({ waiting: 1, lastSyncAt: '2026-11-22T12:00:00Z' }), 5, false],
    ['5 days silent, threshold 5', device({ waiting: 1, lastSyncAt: '2026-11-20T12:00:00Z' }), 5, true],
    ['1 day silent, threshold 1', device({ failed: 1, lastSyncAt: '2026-11-24T12:00:00Z' }), 1, true],
  ])('follows the setting: %s', (_, d, days, expected) => {
    expect(syncOverdue(d, days, now)).toBe(expected);
  });
});

describe('fieldUserColumns', () => {
  const awaiting = fieldUserColumns(1, 3).find((c) => c.header === 'Awaiting review')!;
  const user = (awaitingReview: number) => ({ awaitingReview }) as FieldUser;

  it('Awaiting review is money: ₦0 when nothing is pending, never N/A', () => {
    expect(awaiting.cell(user(0), 0)).toBe('₦0');
    expect(awaiting.cell(user(1500), 0)).toBe('₦1,500');
  });
});
