import { describe, expect, it } from 'vitest';
import { serialNumber, showingRange, showingText } from './paging';

describe('showingText', () => {
  it('words the first page', () => {
    expect(showingText(1, 20, 45)).toBe('Showing 1 - 20 of 45');
  });
  it('counts from the page start on later pages', () => {
    expect(showingText(3, 5, 45)).toBe('Showing 41 - 45 of 45');
  });
  it('takes the Manage Survey label', () => {
    expect(showingText(1, 3, 3, true)).toBe('Showing: 1 - 3 of 3');
  });
  it('shows 0 - 0 for an empty page', () => {
    expect(showingText(1, 0, 0)).toBe('Showing 0 - 0 of 0');
    expect(showingRange(2, 0)).toEqual({ first: 0, last: 0 });
  });
  it('honours another page size', () => {
    expect(showingText(2, 10, 25, false, 10)).toBe('Showing 11 - 20 of 25');
  });
});

describe('serialNumber', () => {
  it('continues across pages', () => {
    expect(serialNumber(1, 0)).toBe(1);
    expect(serialNumber(2, 0)).toBe(21);
    expect(serialNumber(2, 4)).toBe(25);
  });
});
