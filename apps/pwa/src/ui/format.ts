/** Display helpers shared by every screen: greetings, response dates and naira amounts, in the app's language (lib/i18n.ts). */
import { formatLocale, msgId, t } from '../lib/i18n';

export type DayPart = 'morning' | 'afternoon' | 'evening' | 'night';

/** Spec section 2: morning 5-11, afternoon 12-16, evening 17-20, otherwise night (local hours). */
export function dayPart(date: Date): DayPart {
  const h = date.getHours();
  if (h >= 5 && h <= 11) return 'morning';
  if (h >= 12 && h <= 16) return 'afternoon';
  if (h >= 17 && h <= 20) return 'evening';
  return 'night';
}

/** 'Good morning' etc.; callers add the name: `${greeting(now)}, ${name}!`. */
const GREETING: Record<DayPart, string> = {
  morning: msgId('greeting.morning'),
  afternoon: msgId('greeting.afternoon'),
  evening: msgId('greeting.evening'),
  night: msgId('greeting.night'),
};

export function greeting(date: Date = new Date()): string {
  return t(GREETING[dayPart(date)]);
}

const pad = (n: number) => String(n).padStart(2, '0');

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** 'Today at 14:05', 'Yesterday at 09:30', '03/11/2026 at 18:00', or 'N/A' for a missing or bad date. */
export function formatResponseDate(iso: string | null | undefined, now: Date = new Date(), seconds = false): string {
  if (!iso) return t('common.na');
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return t('common.na');
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}${seconds ? `:${pad(date.getSeconds())}` : ''}`;
  if (sameDay(date, now)) return t('date.todayAt', { time });
  if (sameDay(date, yesterday)) return t('date.yesterdayAt', { time });
  return t('date.dayAt', { date: `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`, time });
}

/** Whole naira with thousands separators: 12500 -> '₦12,500' (NGN has no decimals here). */
export function formatNaira(amount: number): string {
  const whole = Math.round(Math.abs(amount));
  const grouped = whole.toLocaleString(formatLocale(), { maximumFractionDigits: 0 });
  return `${amount < 0 && whole !== 0 ? '-' : ''}₦${grouped}`;
}

/** How long ago, in the largest whole unit: 'just now', '5 min ago', '3 h ago', '4 days ago'; 'N/A' without a date. */
export function formatAgo(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return t('common.na');
  const ms = now.getTime() - new Date(iso).getTime();
  if (Number.isNaN(ms)) return t('common.na');
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return t('ago.now');
  if (minutes < 60) return t('ago.minutes', { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('ago.hours', { n: hours });
  return t('ago.days', { count: Math.floor(hours / 24) });
}

/** A whole number with the language's digit grouping: 1200 -> '1,200'. */
export function formatNumber(n: number): string {
  return n.toLocaleString(formatLocale());
}

/** "1 field user", "2 field users", "1,200 responses": a count with its noun in the number it takes. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString(formatLocale())} ${n === 1 ? one : many}`;
}
