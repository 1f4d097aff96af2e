import { describe, expect, it } from 'vitest';
import { createdLabel } from './format';

describe('createdLabel', () => {
  it('words the date and time', () => {
    expect(createdLabel(new Date(2026, 10, 3, 18, 5).toISOString())).toBe('Created: 03/11/2026 at 18:05');
  });
  it('is empty for a bad date', () => {
    expect(createdLabel('nope')).toBe('');
  });
});
