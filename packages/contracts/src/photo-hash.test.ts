import { describe, expect, it } from 'vitest';
import { differenceHash, hammingDistance } from './photo-hash.js';

/** RGBA pixels of a horizontal ramp, bright on the left (`falling`) or on the right. */
function ramp(width: number, height: number, falling: boolean): Uint8ClampedArray {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = Math.round((255 * (falling ? width - 1 - x : x)) / (width - 1));
      data.set([v, v, v, 255], (y * width + x) * 4);
    }
  }
  return data;
}

describe('photo hash (issue 18)', () => {
  it('sets a bit where a cell is brighter than its right-hand neighbour', () => {
    expect(differenceHash(ramp(90, 80, true), 90, 80)).toBe('ffffffffffffffff');
    expect(differenceHash(ramp(90, 80, false), 90, 80)).toBe('0000000000000000');
    expect(differenceHash(new Uint8ClampedArray(50 * 40 * 4).fill(128), 50, 40)).toBe('0000000000000000');
  });

  it('barely depends on the size the picture was scaled to', () => {
    expect(differenceHash(ramp(2000, 1500, true), 2000, 1500)).toBe(differenceHash(ramp(72, 64, true), 72, 64));
  });

  it('counts differing bits', () => {
    expect(hammingDistance('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hammingDistance('0123456789abcdef', '0123456789abcdef')).toBe(0);
    expect(hammingDistance('0000000000000001', '0000000000000000')).toBe(1);
    expect(hammingDistance('8000000000000000', '0000000000000000')).toBe(1);
  });
});
