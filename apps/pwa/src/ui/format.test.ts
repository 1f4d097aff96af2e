import { describe, expect, it } from 'vitest';
import { countOf, dayPart, formatAgo, formatNaira, formatResponseDate, greeting } from './format';

const at = (h: number, m = 0) => new Date(2026, 10, 22, h, m);

describe('greeting', () => {
  it.each([
    [4, 'night'], [5, 'morning'], [11, 'morning'], [12, 'afternoon'], [16, 'afternoon'],
    [17, 'evening'], [20, 'evening'], [21, 'night'], [0, 'night'],
  ] as const)('%i:00 is %s', (hour, part) => {
    expect(dayPart(at(hour))).toBe(part);
    expect(greeting(at(hour, 59))).toBe(`Good ${part}`);
  });
});

describe('formatResponseDate', () => {
  const now = new Date(2026, 10, 22, 10, 0);
  it('says Today and Yesterday by calendar day', () => {
    expect(formatResponseDate(new Date(2026, 10, 22, 0, 5).toISOString(), now)).toBe('Today at 00:05');
    expect(formatResponseDate(new Date(2026, 10, 21, 23, 59).toISOString(), now)).toBe('Yesterday at 23:59');
  });
  it('uses dd/MM/yyyy otherwise, across month and year ends', () => {
    expect(formatResponseDate(new Date(2026, 10, 20, 8, 7).toISOString(), now)).toBe('20/11/2026 at 08:07');
    const jan1 = new Date(2027, 0, 1, 12, 0);
    expect(formatResponseDate(new Date(2026, 11, 31, 18, 30).toISOString(), jan1)).toBe('Yesterday at 18:30');
    expect(formatResponseDate(new Date(2026, 11, 30, 18, 30).toISOString(), jan1)).toBe('30/12/2026 at 18:30');
  });
  it('adds the seconds when asked (capture times a few seconds apart)', () => {
    expect(formatResponseDate(new Date(2026, 10, 22, 9, 50, 17).toISOString(), now, true)).toBe('Today at 09:50:17');
  });
  it('shows N/A for a missing or invalid date', () => {
    expect(formatResponseDate(undefined, now)).toBe('N/A');
    expect(formatResponseDate(null, now)).toBe('N/A');
    expect(formatResponseDate('', now)).toBe('N/A');
    expect(formatResponseDate('not a date', now)).toBe('N/A');
  });
});

describe('formatNaira', () => {
  it('groups thousands without decimals', () => {
    expect(formatNaira(12500)).toBe('₦12,500');
    expect(formatNaira(0)).toBe('₦0');
    expect(formatNaira(999)).toBe('₦999');
    expect(formatNaira(1000)).toBe('₦1,000');
    expect(formatNaira(100000000)).toBe('₦100,000,000');
    expect(formatNaira(-2500)).toBe('-₦2,500');
  });
});

describe('formatAgo', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  it.each([
    ['2026-11-25T11:59:30Z', 'just now'],
    ['2026-11-25T11:55:00Z', '5 min ago'],
    ['2026-11-25T09:00:00Z', '3 h ago'],
    ['2026-11-24T11:00:00Z', '1 day ago'],
    ['2026-11-21T11:00:00Z', '4 days ago'],
    ['2026-11-25T12:05:00Z', 'just now'],
    [null, 'N/A'],
    ['not a date', 'N/A'],
  ])('%s -> %s', (iso, expected) => {
    expect(formatAgo(iso, now)).toBe(expected);
  });
});

describe('countOf', () => {
  it('takes the singular for exactly one, the plural otherwise, with thousands separated', () => {
    expect(countOf(1, 'field user')).toBe('1 field user');
    expect(countOf(0, 'field user')).toBe('0 field users');
    expect(countOf(2, 'response')).toBe('2 responses');
    expect(countOf(1200, 'survey')).toBe('1,200 surveys');
    expect(countOf(1, 'older version')).toBe('1 older version');
  });
});
