// Typed answers: how the text a phone keeps for a number, a date or a phone number is read. Free
// of zod so the form's route can carry it cheaply; the server uses the same functions.

const WHOLE = /^-?\d+$/;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(:([0-5]\d))?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A whole number, or null when the text is not one. */
export function parseWhole(text: string): number | null {
  const t = text.trim();
  if (!WHOLE.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** A decimal number written with a dot, or null. */
export function parseDecimal(text: string): number | null {
  const t = text.trim();
  if (!DECIMAL.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** A calendar date `YYYY-MM-DD` (what `<input type="date">` gives) as days since 1970, or null. */
export function parseDate(text: string): number | null {
  const m = DATE.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return daysFromCivil(y, mo, d);
}

const daysInMonth = (y: number, m: number): number => (m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);

/** Days since 1970-01-01 of a proleptic Gregorian date, by arithmetic (a Date costs microseconds on the ingest path). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** A time of day `HH:MM` or `HH:MM:SS` as seconds since midnight, or null. */
export function parseTime(text: string): number | null {
  const m = TIME.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + (m[4] ? Number(m[4]) : 0);
}

/**
 * A Nigerian phone number in its stored form `+234XXXXXXXXXX`, from the ways people write it:
 * 11 digits starting 0 (08031234567), or +234 / 234 and the 10 digits after the 0. Spaces, dashes
 * and brackets are ignored. Null when it is none of these.
 */
export function normalisePhone(text: string): string | null {
  const digits = text.trim().replace(/[\s\-().]/g, '');
  let national: string | null = null;
  if (/^0\d{10}$/.test(digits)) national = digits.slice(1);
  else if (/^\+234\d{10}$/.test(digits)) national = digits.slice(4);
  else if (/^234\d{10}$/.test(digits)) national = digits.slice(3);
  if (national === null || national.startsWith('0')) return null;
  return `+234${national}`;
}

export function isEmail(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text.trim());
}

/** Today's date on the phone's calendar as `YYYY-MM-DD`, for "not in the future". */
export function localDate(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

let lastNow = Number.NaN;
let lastToday = 0;
/** `parseDate(localDate(now))`, remembered for the last `now`: a response's questions share one. */
export function localDay(now: Date): number {
  const ms = now.getTime();
  if (ms !== lastNow) {
    lastToday = daysFromCivil(now.getFullYear(), now.getMonth() + 1, now.getDate());
    lastNow = ms;
  }
  return lastToday;
}
