import { daysOf } from './dates.js';

/**
 * XPath 1.0's four types as the engine holds them: number, string, boolean and a node-set. A node
 * is an answer's text or, for a repeat, one instance's object of answers; an empty answer is the
 * empty string (ODK: an unanswered question is a node with no text).
 */
export type AnswerNode = string | Readonly<Record<string, unknown>>;
export class NodeSet {
  constructor(readonly nodes: readonly AnswerNode[]) {}
}
export type Value = number | string | boolean | NodeSet;

/** One answer as the engine reads it: a select_multiple held as an array is its space-separated form. */
export function answerText(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (Array.isArray(raw)) return raw.every((x) => typeof x !== 'object' || x === null) ? raw.map(answerText).join(' ') : raw.map(nodeText).join('');
  return nodeText(raw as Record<string, unknown>);
}

/** XPath's string-value of a node: an element's is the concatenation of its descendants' text. */
export function nodeText(node: AnswerNode): string {
  if (typeof node === 'string') return node;
  let out = '';
  for (const key in node) out += answerText(node[key]);
  return out;
}

const NUMBER_RE = /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/;

/**
 * XPath's number(string), plus ODK's rule that a date or date-time string is a number of days
 * since 1970-01-01 (fractional for a date-time), so `${d} > today()` and `today() + 7` work.
 */
export function stringToNumber(s: string): number {
  if (NUMBER_RE.test(s)) return Number(s);
  const days = daysOf(s);
  return days === null ? NaN : days;
}

/** XPath's string(number): no exponent, integers without a point, NaN and Infinity by name. */
export function numberToString(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return '0';
  const s = String(n);
  if (!s.includes('e')) return s;
  const [mantissa, exp] = Math.abs(n).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const point = 1 + Number(exp);
  const body = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (n < 0 ? '-' : '') + body;
}

export function asString(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberToString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return v.nodes.length === 0 ? '' : nodeText(v.nodes[0]!);
}

export function asNumber(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return stringToNumber(asString(v));
}

export function asBoolean(v: Value): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'string') return v.length > 0;
  return v.nodes.length > 0;
}

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

function compareAtoms(op: CompareOp, a: string | number | boolean, b: string | number | boolean): boolean {
  if (op === '=' || op === '!=') {
    let eq: boolean;
    if (typeof a === 'boolean' || typeof b === 'boolean') eq = asBoolean(a) === asBoolean(b);
    // IEEE 754 as XPath 1.0 says: NaN = x is false, so NaN != x is true.
    else if (typeof a === 'number' || typeof b === 'number') eq = asNumber(a) === asNumber(b);
    else eq = a === b;
    return op === '=' ? eq : !eq;
  }
  const x = asNumber(a);
  const y = asNumber(b);
  if (op === '<') return x < y;
  if (op === '<=') return x <= y;
  if (op === '>') return x > y;
  return x >= y;
}

/** XPath 1.0 §3.4: a node-set compares true when some node's string-value (or number) does. */
export function compare(op: CompareOp, a: Value, b: Value): boolean {
  if (a instanceof NodeSet && b instanceof NodeSet) {
    const right = b.nodes.map(nodeText);
    return a.nodes.some((n) => {
      const left = nodeText(n);
      return right.some((r) => compareAtoms(op, left, r));
    });
  }
  if (a instanceof NodeSet) {
    if (typeof b === 'boolean') return compareAtoms(op, asBoolean(a), b);
    const other = b as string | number;
    return a.nodes.some((n) => compareAtoms(op, atomFor(nodeText(n), other), other));
  }
  if (b instanceof NodeSet) {
    if (typeof a === 'boolean') return compareAtoms(op, a, asBoolean(b));
    const other = a;
    return b.nodes.some((n) => compareAtoms(op, other, atomFor(nodeText(n), other)));
  }
  return compareAtoms(op, a, b);
}

/** A node compared with a number is compared as number(string-value), with a string as its text. */
function atomFor(text: string, other: string | number): string | number {
  return typeof other === 'number' ? stringToNumber(text) : text;
}
