import type { FieldUser } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { withAssigned } from './assigned';

const row = (id: string, extra: Partial<FieldUser> = {}): FieldUser => ({
  _id: id, fullName: `User ${id}`, phoneNumber: '08030000000', email: `${id}@example.com`, bank: 'GTBank', accountNumber: '0123456789', accountName: 'A', rate: 100,
  responses: 4, outstanding: 400, awaitingReview: 0, supervisorId: null, supervisorName: null, ...extra,
});

describe('withAssigned', () => {
  it('changes only the supervisor of the assigned row; its phone report and flag count stay', () => {
    const device = { lastSyncAt: '2026-11-20T10:00:00.000Z', reportedAt: '2026-11-20T10:00:00.000Z', waiting: 2, failed: 0, photosWaiting: 1 } as unknown as FieldUser['device'];
    const rows = [row('a', { device, flags: 3 }), row('b')];
    // The assign reply: the member's row without the list's device and flags.
    const reply = row('a', { supervisorId: 's1', supervisorName: 'Sade Supervisor' });
    const next = withAssigned(rows, reply);
    expect(next[0]).toEqual({ ...rows[0], supervisorId: 's1', supervisorName: 'Sade Supervisor' });
    expect(next[0]!.device).toBe(device);
    expect(next[0]!.flags).toBe(3);
    expect(next[1]).toBe(rows[1]);
  });
});
