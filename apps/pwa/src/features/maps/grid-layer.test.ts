import { describe, expect, it } from 'vitest';
import { coordLabel, gridStep } from './grid-layer';

describe('the plain grid', () => {
  it('draws about two to four lines a tile at every zoom', () => {
    for (let z = 0; z <= 20; z++) {
      const lines = 360 / 2 ** z / gridStep(z);
      expect(lines, `zoom ${z}`).toBeGreaterThanOrEqual(2);
      if (z <= 18) expect(lines, `zoom ${z}`).toBeLessThanOrEqual(8);
    }
  });

  it('labels a line with its hemisphere and as many decimals as the step has', () => {
    expect(coordLabel(6.4375, 'lat', 0.0025)).toBe('6.4375°N');
    expect(coordLabel(-3.5, 'lng', 0.5)).toBe('3.5°W');
    expect(coordLabel(10, 'lng', 10)).toBe('10°E');
  });
});
