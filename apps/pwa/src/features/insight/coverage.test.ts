import { describe, expect, it } from 'vitest';
import { coverage } from './coverage';

describe('Covered vs Not covered', () => {
  it('covers responses over the expected count, the rest not covered', () => {
    expect(coverage(210, 600)).toEqual({ covered: 210, notCovered: 390, percent: 35, label: '35%', defined: true });
    expect(coverage(1, 3).label).toBe('33%');
    expect(coverage(600, 600)).toMatchObject({ notCovered: 0, label: '100%' });
  });

  it('never shows 100% before the target is met', () => {
    expect(coverage(599, 600).label).toBe('99%');
  });

  it('leaves nothing to cover past the target', () => {
    expect(coverage(700, 600)).toMatchObject({ covered: 700, notCovered: 0, percent: 116, label: '116%' });
  });

  it('shows 0% when the share is undefined (no expected count, or 0)', () => {
    for (const expected of [null, undefined, 0]) {
      expect(coverage(42, expected)).toEqual({ covered: 42, notCovered: 0, percent: 0, label: '0%', defined: false });
    }
    expect(coverage(0, 600)).toMatchObject({ label: '0%', notCovered: 600, defined: true });
  });
});
