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
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / 86_400_000;
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
