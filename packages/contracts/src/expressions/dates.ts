/**
 * ODK's dates without a Date object's time zone: a date is 'YYYY-MM-DD', a date-time ISO 8601 with
 * an offset, and either one used as a number is days since 1970-01-01 (a date a whole number, a
 * date-time counted from its instant). Phone and server agree because nothing here reads the
 * machine's zone: `today()` and `now()` take the offset from the evaluation's context.
 */
const DAY_MS = 86_400_000;
const DATE_RE = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/;
const DATE_TIME_RE = /^\s*(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?\s*$/;

/** The wall-clock fields of a date or date-time as written, and its instant in ms. */
export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  /** Milliseconds since 1970-01-01T00:00Z (a date alone: its midnight UTC). */
  epochMs: number;
}

function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
}

function validDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function parseDateParts(s: string): DateParts | null {
  let m = DATE_RE.exec(s);
  if (m) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (!validDay(year, month, day)) return null;
    return { year, month, day, hour: 0, minute: 0, second: 0, ms: 0, epochMs: Date.UTC(year, month - 1, day) };
  }
  m = DATE_TIME_RE.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
  const second = Number(m[6] ?? '0');
  const ms = Math.floor(Number(`0${m[7] ?? ''}`) * 1000);
  if (!validDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const epochMs = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes(m[8]) * 60_000;
  return { year, month, day, hour, minute, second, ms, epochMs };
}

/** Days since 1970-01-01 of a date or date-time string, or null when it is neither. */
export function daysOf(s: string): number | null {
  if (s.length < 10 || s.length > 40) return null;
  const p = parseDateParts(s);
  return p === null ? null : p.epochMs / DAY_MS;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The wall-clock fields of an instant seen at a UTC offset. */
export function partsAt(epochMs: number, utcOffsetMinutes: number): DateParts {
  const d = new Date(epochMs + utcOffsetMinutes * 60_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), ms: d.getUTCMilliseconds(), epochMs };
}

export function dateString(p: Pick<DateParts, 'year' | 'month' | 'day'>): string {
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

function zoneString(utcOffsetMinutes: number): string {
  const sign = utcOffsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(utcOffsetMinutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** ODK's date-time text: 2024-03-01T14:05:09.000+01:00. */
export function dateTimeString(epochMs: number, utcOffsetMinutes: number): string {
  const p = partsAt(epochMs, utcOffsetMinutes);
  return `${dateString(p)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}.${pad(p.ms, 3)}${zoneString(utcOffsetMinutes)}`;
}

/** The date a number of days since 1970 falls on (a fraction of a day is the time, dropped). */
export function dateOfDays(days: number): string {
  return Number.isFinite(days) ? dateString(partsAt(Math.floor(days) * DAY_MS, 0)) : '';
}

export function daysToEpochMs(days: number): number {
  return days * DAY_MS;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** ODK's format-date: %Y %y %m %n %b %d %e %H %h %M %S %3 %a; any other %x is kept as written. */
export function formatDate(p: DateParts, format: string): string {
  return format.replace(/%(.)/g, (whole, code: string) => {
    switch (code) {
      case 'Y':
        return pad(p.year, 4);
      case 'y':
        return pad(p.year % 100);
      case 'm':
        return pad(p.month);
      case 'n':
        return String(p.month);
      case 'b':
        return MONTHS[p.month - 1]!;
      case 'd':
        return pad(p.day);
      case 'e':
        return String(p.day);
      case 'H':
        return pad(p.hour);
      case 'h':
        return String(p.hour);
      case 'M':
        return pad(p.minute);
      case 'S':
        return pad(p.second);
      case '3':
        return pad(p.ms, 3);
      case 'a':
        return WEEKDAYS[new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay()]!;
      default:
        return whole;
    }
  });
}
