import { Limits } from '@survey-bird/contracts';
import { t } from '../../lib/i18n';

/**
 * The weeks of the weekly charts (spec section 9): a week runs from Sunday 00:00 to the next
 * Sunday 00:00 in the viewer's local zone; the selector offers the current week and 9 earlier ones.
 * Dates are built from calendar fields, never by adding 7 x 24 h, so a daylight-saving change
 * inside a week still lands on local midnight.
 */
export interface Week {
  /** Local Sunday 00:00 (inclusive). */
  start: Date;
  /** The next local Sunday 00:00 (exclusive). */
  end: Date;
  /** '16 Nov - 22 Nov 2026'. */
  label: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
const WEEK_DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/**
 * Short month and weekday names from the catalogs (ICU selects), not Intl: Chromium has no Pidgin
 * date names and many browsers none in Hausa, Yoruba or Igbo (formatLocale falls back to en-NG's).
 */
const monthName = (d: Date) => t('office.date.month', { month: MONTHS[d.getMonth()]! });
/** Sunday first (spec section 9). */
export function weekDays(): string[] {
  return WEEK_DAYS.map((day) => t('office.date.weekday', { day }));
}

const dayMonth = (d: Date) => `${d.getDate()} ${monthName(d)}`;

/** '16 Nov - 22 Nov 2026'; a week across New Year names both years: '27 Dec 2026 - 2 Jan 2027'. */
export function weekLabel(start: Date): string {
  const saturday = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 6);
  const from = saturday.getFullYear() === start.getFullYear() ? dayMonth(start) : `${dayMonth(start)} ${start.getFullYear()}`;
  return `${from} - ${dayMonth(saturday)} ${saturday.getFullYear()}`;
}

/** The week holding `date`. */
export function weekOf(date: Date): Week {
  const start = new Date(date.getFullYear(), date.getMonth(), date.getDate() - date.getDay());
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 7);
  return { start, end, label: weekLabel(start) };
}

/** The current week first, then the earlier ones, newest to oldest. */
export function selectableWeeks(now: Date = new Date(), count: number = Limits.weeksSelectable): Week[] {
  const current = weekOf(now).start;
  return Array.from({ length: count }, (_, i) => weekOf(new Date(current.getFullYear(), current.getMonth(), current.getDate() - 7 * i)));
}

/** Each day of the week with its date, for tooltips: 'Sun 15 Nov', 'Mon 16 Nov', ... */
export function dayLabels(week: Week): string[] {
  return weekDays().map((name, i) => `${name} ${dayMonth(new Date(week.start.getFullYear(), week.start.getMonth(), week.start.getDate() + i))}`);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** An ISO instant with the local offset ('2026-11-15T00:00:00.000+01:00'), as by-weeks expects. */
export function localIso(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}` +
    `${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  );
}
