import { afterEach, describe, expect, it } from 'vitest';
import { dayLabels, localIso, selectableWeeks, weekLabel, weekOf } from './weeks';

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('selectable weeks', () => {
  const now = new Date(2026, 10, 18, 14, 30); // Wednesday 18 Nov 2026, local time

  it('offers ten weeks, newest first, each from Sunday 00:00 to the next Sunday 00:00', () => {
    const weeks = selectableWeeks(now);
    expect(weeks).toHaveLength(10);
    for (const [i, w] of weeks.entries()) {
      expect(w.start.getDay()).toBe(0);
      expect([w.start.getHours(), w.start.getMinutes(), w.start.getSeconds(), w.start.getMilliseconds()]).toEqual([0, 0, 0, 0]);
      expect(w.end).toEqual(new Date(w.start.getFullYear(), w.start.getMonth(), w.start.getDate() + 7));
      if (i > 0) expect(w.end).toEqual(weeks[i - 1]!.start);
    }
    expect(weeks[9]!.start).toEqual(new Date(2026, 8, 13));
  });

  it('starts with the week that contains now', () => {
    const [current] = selectableWeeks(now);
    expect(current!.start).toEqual(new Date(2026, 10, 15));
    expect(current!.start.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(current!.end.getTime()).toBeGreaterThan(now.getTime());
  });

  it('labels weeks like "15 Nov - 21 Nov 2026"', () => {
    expect(selectableWeeks(now).map((w) => w.label).slice(0, 3)).toEqual(['15 Nov - 21 Nov 2026', '8 Nov - 14 Nov 2026', '1 Nov - 7 Nov 2026']);
    expect(weekLabel(new Date(2026, 9, 25))).toBe('25 Oct - 31 Oct 2026');
    expect(weekLabel(new Date(2026, 10, 29))).toBe('29 Nov - 5 Dec 2026');
    expect(weekLabel(new Date(2026, 11, 27))).toBe('27 Dec 2026 - 2 Jan 2027');
  });

  it('puts Saturday 23:59:59.999 in its week and Sunday 00:00 in the next', () => {
    const saturday = new Date(2026, 10, 21, 23, 59, 59, 999);
    const sunday = new Date(2026, 10, 22, 0, 0, 0, 0);
    expect(weekOf(saturday).start).toEqual(new Date(2026, 10, 15));
    expect(weekOf(sunday).start).toEqual(sunday);
    expect(selectableWeeks(saturday)[0]!.label).toBe('15 Nov - 21 Nov 2026');
    expect(selectableWeeks(sunday)[0]!.label).toBe('22 Nov - 28 Nov 2026');
    expect(selectableWeeks(sunday)[1]!.label).toBe('15 Nov - 21 Nov 2026');
  });

  it('names each day with its date for the tooltips', () => {
    expect(dayLabels(weekOf(new Date(2026, 10, 28)))).toEqual(['Sun 22 Nov', 'Mon 23 Nov', 'Tue 24 Nov', 'Wed 25 Nov', 'Thu 26 Nov', 'Fri 27 Nov', 'Sat 28 Nov']);
  });
});

describe('the range sent to by-weeks', () => {
  it('is local midnight with the local offset (Lagos, UTC+1)', () => {
    process.env.TZ = 'Africa/Lagos';
    const week = weekOf(new Date(2026, 10, 18, 9));
    expect(localIso(week.start)).toBe('2026-11-15T00:00:00.000+01:00');
    expect(localIso(week.end)).toBe('2026-11-22T00:00:00.000+01:00');
    expect(Date.parse(localIso(week.start))).toBe(week.start.getTime());
  });

  it('keeps local midnights across a daylight-saving change (New York, 8 Mar 2026)', () => {
    process.env.TZ = 'America/New_York';
    const week = weekOf(new Date(2026, 2, 11, 12));
    expect(localIso(week.start)).toBe('2026-03-08T00:00:00.000-05:00');
    expect(localIso(week.end)).toBe('2026-03-15T00:00:00.000-04:00');
    expect(week.end.getTime() - week.start.getTime()).toBe(7 * 86_400_000 - 3_600_000);
    expect(weekOf(new Date(2026, 2, 14, 23, 59, 59, 999)).start).toEqual(week.start);
  });

  it('writes negative half-hour offsets (St. John\'s, UTC-3:30)', () => {
    process.env.TZ = 'America/St_Johns';
    expect(localIso(new Date(2026, 0, 4))).toBe('2026-01-04T00:00:00.000-03:30');
  });
});
