import { EvaluationError, lookup, type Frame } from './context.js';
import { dateOfDays, dateString, dateTimeString, daysToEpochMs, formatDate, parseDateParts, partsAt, type DateParts } from './dates.js';
import { asBoolean, asNumber, asString, NodeSet, nodeText, stringToNumber, type Value } from './values.js';

/** A function of the library: its arity and its body over already evaluated arguments. */
export interface LibraryFunction {
  min: number;
  max: number;
  fn: (args: Value[], frame: Frame) => Value;
}

const MANY = Infinity;
const DAY_MS = 86_400_000;

function nodeSet(v: Value, fn: string): NodeSet {
  if (v instanceof NodeSet) return v;
  throw new EvaluationError(`${fn}() needs a question or a repeat, not a ${typeof v}`);
}

/** Every text an argument holds: all nodes of a node-set (ODK's concat and join), else the value. */
function texts(v: Value): string[] {
  return v instanceof NodeSet ? v.nodes.map(nodeText) : [asString(v)];
}

function numbers(args: Value[]): number[] {
  return args.flatMap((a) => (a instanceof NodeSet ? a.nodes.map((n) => stringToNumber(nodeText(n))) : [asNumber(a)]));
}

const tokens = (list: string) => list.split(/\s+/).filter((t) => t.length > 0);

function utcOffset(frame: Frame, at: number): number {
  return frame.ctx.utcOffsetMinutes ?? -new Date(at).getTimezoneOffset();
}

function clock(frame: Frame): number {
  return frame.ctx.now ?? Date.now();
}

/** A value as date parts: a date or date-time string as written, a number as days since 1970 (UTC). */
function dateParts(v: Value): DateParts | null {
  if (typeof v === 'number' || typeof v === 'boolean') {
    const days = asNumber(v);
    return Number.isFinite(days) ? partsAt(Math.round(days * DAY_MS), 0) : null;
  }
  const s = asString(v);
  const parts = parseDateParts(s);
  if (parts) return parts;
  const days = stringToNumber(s);
  return Number.isFinite(days) ? partsAt(Math.round(days * DAY_MS), 0) : null;
}

/** round(x, digits) in decimal, so round(2.345, 2) is 2.35 (not 2.34 as 2.345 * 100 would give). */
function roundTo(x: number, digits: number): number {
  if (!Number.isFinite(x) || !Number.isFinite(digits)) return NaN;
  const d = Math.trunc(digits);
  if (d === 0) return Math.round(x);
  const shifted = Math.round(Number(`${x}e${d}`));
  return Number(`${shifted}e${-d}`);
}

const regexCache = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern);
    } catch {
      throw new EvaluationError(`Invalid regular expression '${pattern}'`);
    }
    if (regexCache.size > 500) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

function randomId(length: number, random: () => number): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

function uuid(frame: Frame): string {
  if (frame.ctx.uuid) return frame.ctx.uuid();
  if (typeof globalThis.crypto?.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const hex = Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 3) | 8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The name a jr:choice-name path names: '${q}' or the last step of '/data/group/q'. */
function pathName(path: string): string {
  const m = /^\s*\$\{([^}]+)\}\s*$/.exec(path);
  return m ? m[1]!.trim() : (path.trim().split('/').pop() ?? '');
}

function math(fn: (x: number) => number): LibraryFunction {
  return { min: 1, max: 1, fn: ([x]) => fn(asNumber(x!)) };
}

/**
 * ODK's function library over the engine's values (ODK XForms spec, "XPath functions"). if, once,
 * position and indexed-repeat read their arguments lazily or as references, so compile.ts holds them.
 */
export const LIBRARY: Record<string, LibraryFunction> = {
  true: { min: 0, max: 0, fn: () => true },
  false: { min: 0, max: 0, fn: () => false },
  not: { min: 1, max: 1, fn: ([x]) => !asBoolean(x!) },
  boolean: { min: 1, max: 1, fn: ([x]) => asBoolean(x!) },
  'boolean-from-string': { min: 1, max: 1, fn: ([x]) => ['true', '1'].includes(asString(x!).trim().toLowerCase()) },
  number: { min: 0, max: 1, fn: (args, frame) => asNumber(args[0] ?? lookupSelf(frame)) },
  string: { min: 0, max: 1, fn: (args, frame) => asString(args[0] ?? lookupSelf(frame)) },
  coalesce: { min: 2, max: MANY, fn: (args) => args.map(asString).find((s) => s !== '') ?? '' },
  concat: { min: 0, max: MANY, fn: (args) => args.flatMap(texts).join('') },
  join: { min: 1, max: MANY, fn: ([sep, ...rest]) => rest.flatMap(texts).join(asString(sep!)) },
  selected: { min: 2, max: 2, fn: ([list, value]) => tokens(asString(list!)).includes(asString(value!).trim()) },
  'count-selected': { min: 1, max: 1, fn: ([list]) => tokens(asString(list!)).length },
  'selected-at': { min: 2, max: 2, fn: ([list, n]) => tokens(asString(list!))[asNumber(n!)] ?? '' },
  'jr:choice-name': { min: 2, max: 2, fn: ([value, path], frame) => frame.ctx.choiceLabel?.(pathName(asString(path!)), asString(value!)) ?? '' },
  'string-length': { min: 0, max: 1, fn: (args, frame) => [...asString(args[0] ?? lookupSelf(frame))].length },
  'normalize-space': { min: 0, max: 1, fn: (args, frame) => asString(args[0] ?? lookupSelf(frame)).replace(/[ \t\r\n]+/g, ' ').trim() },
  substr: {
    min: 2,
    max: 3,
    fn: ([s, start, end]) => {
      const chars = [...asString(s!)];
      const from = Math.max(0, Math.trunc(asNumber(start!)) || 0);
      const to = end === undefined ? chars.length : Math.min(chars.length, Math.trunc(asNumber(end)) || 0);
      return chars.slice(from, Math.max(from, to)).join('');
    },
  },
  substring: {
    min: 2,
    max: 3,
    fn: ([s, start, length]) => {
      // XPath 1.0: 1-based, rounded positions; characters p with round(start) <= p < round(start) + round(length).
      const chars = [...asString(s!)];
      const first = Math.round(asNumber(start!));
      const last = length === undefined ? Infinity : first + Math.round(asNumber(length));
      return chars.filter((_, i) => i + 1 >= first && i + 1 < last).join('');
    },
  },
  'substring-before': { min: 2, max: 2, fn: ([s, t]) => { const a = asString(s!); const i = a.indexOf(asString(t!)); return i < 0 ? '' : a.slice(0, i); } },
  'substring-after': { min: 2, max: 2, fn: ([s, t]) => { const a = asString(s!); const b = asString(t!); const i = a.indexOf(b); return i < 0 ? '' : a.slice(i + b.length); } },
  contains: { min: 2, max: 2, fn: ([s, t]) => asString(s!).includes(asString(t!)) },
  'starts-with': { min: 2, max: 2, fn: ([s, t]) => asString(s!).startsWith(asString(t!)) },
  'ends-with': { min: 2, max: 2, fn: ([s, t]) => asString(s!).endsWith(asString(t!)) },
  translate: {
    min: 3,
    max: 3,
    fn: ([s, from, to]) => {
      const f = [...asString(from!)];
      const t = [...asString(to!)];
      return [...asString(s!)].map((c) => { const i = f.indexOf(c); return i < 0 ? c : (t[i] ?? ''); }).join('');
    },
  },
  regex: { min: 2, max: 2, fn: ([s, p]) => regex(asString(p!)).test(asString(s!)) },
  round: { min: 1, max: 2, fn: ([x, d]) => (d === undefined ? Math.round(asNumber(x!)) : roundTo(asNumber(x!), asNumber(d))) },
  int: math(Math.trunc),
  floor: math(Math.floor),
  ceiling: math(Math.ceil),
  abs: math(Math.abs),
  sqrt: math(Math.sqrt),
  exp: math(Math.exp),
  exp10: math((x) => 10 ** x),
  log: math(Math.log),
  log10: math(Math.log10),
  sin: math(Math.sin),
  cos: math(Math.cos),
  tan: math(Math.tan),
  asin: math(Math.asin),
  acos: math(Math.acos),
  atan: math(Math.atan),
  atan2: { min: 2, max: 2, fn: ([y, x]) => Math.atan2(asNumber(y!), asNumber(x!)) },
  pi: { min: 0, max: 0, fn: () => Math.PI },
  pow: { min: 2, max: 2, fn: ([x, y]) => asNumber(x!) ** asNumber(y!) },
  random: { min: 0, max: 0, fn: (_, frame) => (frame.ctx.random ?? Math.random)() },
  uuid: { min: 0, max: 1, fn: (args, frame) => (args[0] === undefined ? uuid(frame) : randomId(Math.max(0, Math.trunc(asNumber(args[0])) || 0), frame.ctx.random ?? Math.random)) },
  sum: { min: 1, max: 1, fn: ([ns]) => nodeSet(ns!, 'sum').nodes.reduce((acc, n) => acc + stringToNumber(nodeText(n)), 0) },
  count: { min: 1, max: 1, fn: ([ns]) => nodeSet(ns!, 'count').nodes.length },
  'count-non-empty': { min: 1, max: 1, fn: ([ns]) => nodeSet(ns!, 'count-non-empty').nodes.filter((n) => nodeText(n) !== '').length },
  // ODK: NaN when there is no value or any value is not a number.
  max: { min: 1, max: MANY, fn: (args) => { const xs = numbers(args); return xs.length === 0 ? NaN : xs.reduce((a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b))); } },
  min: { min: 1, max: MANY, fn: (args) => { const xs = numbers(args); return xs.length === 0 ? NaN : xs.reduce((a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b))); } },
  today: { min: 0, max: 0, fn: (_, frame) => { const now = clock(frame); return dateString(partsAt(now, utcOffset(frame, now))); } },
  now: { min: 0, max: 0, fn: (_, frame) => { const now = clock(frame); return dateTimeString(now, utcOffset(frame, now)); } },
  date: {
    min: 1,
    max: 1,
    fn: ([x]) => {
      if (typeof x === 'number') return dateOfDays(x);
      const p = dateParts(x!);
      return p === null ? '' : dateString(p);
    },
  },
  'date-time': {
    min: 1,
    max: 1,
    fn: ([x], frame) => {
      const s = typeof x === 'number' ? null : asString(x!);
      const written = s === null ? null : parseDateParts(s);
      if (written && s!.trim().length > 10) return s!.trim();
      const days = written ? written.epochMs / DAY_MS : asNumber(x!);
      if (!Number.isFinite(days)) return '';
      const ms = daysToEpochMs(days);
      return dateTimeString(ms, utcOffset(frame, ms));
    },
  },
  'decimal-date-time': { min: 1, max: 1, fn: ([x]) => asNumber(x!) },
  'format-date': { min: 2, max: 2, fn: ([x, f]) => { const p = dateParts(x!); return p === null ? '' : formatDate(p, asString(f!)); } },
  'format-date-time': { min: 2, max: 2, fn: ([x, f]) => { const p = dateParts(x!); return p === null ? '' : formatDate(p, asString(f!)); } },
  pulldata: {
    min: 4,
    max: 4,
    fn: ([file, column, keyColumn, key], frame) => {
      const name = asString(file!);
      const rows = frame.ctx.attachments?.[name] ?? frame.ctx.attachments?.[name.replace(/\.csv$/, '')] ?? frame.ctx.attachments?.[`${name}.csv`] ?? [];
      const k = asString(key!);
      const kc = asString(keyColumn!);
      return rows.find((r) => r[kc] === k)?.[asString(column!)] ?? '';
    },
  },
};
LIBRARY['choice-name'] = LIBRARY['jr:choice-name']!;

/** `.`: the current question's node (empty when the context names none). */
export function lookupSelf(frame: Frame): NodeSet {
  return frame.ctx.question === undefined ? new NodeSet(['']) : lookup(frame.ctx.question, frame);
}
