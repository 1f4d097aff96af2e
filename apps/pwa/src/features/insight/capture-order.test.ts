import { describe, expect, it } from 'vitest';
import { orderByCaptureWithinBatches } from './capture-order';

const row = (id: string, createdAt: string, capturedAt: string | null) => ({ id, createdAt, capturedAt });

describe('responses in capture order within one sync batch', () => {
  it('puts the newest capture first among rows received together, and keeps the receipt order between batches', () => {
    const batch = '2026-11-25T12:55:00.000Z';
    const rows = [
      row('later batch', '2026-11-25T13:10:00.000Z', '2026-11-25T13:09:00.000Z'),
      row('12:50', batch, '2026-11-25T12:50:00.000Z'),
      row('12:49', batch, '2026-11-25T12:49:00.000Z'),
      row('12:50:17', batch, '2026-11-25T12:50:17.000Z'),
      row('old phone', '2026-11-25T12:40:00.000Z', null),
    ];
    expect(orderByCaptureWithinBatches(rows).map((r) => r.id)).toEqual(['later batch', '12:50:17', '12:50', '12:49', 'old phone']);
  });
});
