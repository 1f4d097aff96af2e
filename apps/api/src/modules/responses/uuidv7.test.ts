import { uuidv7 } from '@survey-bird/contracts/ids';
import { describe, expect, it } from 'vitest';

// The generator lives in contracts (the phone's clientIds and the server's response ids); the
// contracts project has no test setup of its own, so it is checked here.
describe('uuidv7', () => {
  it('is a version 7 UUID carrying the millisecond clock', () => {
    const at = Date.UTC(2026, 10, 22, 9, 30);
    for (let i = 0; i < 300; i++) {
      const id = uuidv7(at);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    }
    expect(uuidv7(0).startsWith('00000000-0000-7')).toBe(true);
    expect(uuidv7(2 ** 48 - 1).startsWith('ffffffff-ffff-7')).toBe(true);
  });

  it('sorts by time and stays unique within one millisecond, across refills of its random pool', () => {
    const ids = [uuidv7(1_000), uuidv7(2_000), uuidv7(70_000_000_000_000)];
    expect([...ids].sort()).toEqual(ids);
    const same = Array.from({ length: 5000 }, () => uuidv7(5_000));
    expect(new Set(same).size).toBe(5000);
    // The random part is not stuck: every hex digit shows up in the last group.
    expect(new Set(same.map((id) => id.slice(-12)).join('')).size).toBe(16);
  });
});
