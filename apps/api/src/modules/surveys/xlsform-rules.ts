import type { Condition, Constraint, ShowIf } from '@survey-bird/contracts';

/**
 * The XLSForm expressions that have an exact structured twin the builder edits (`showIf`,
 * `constraint`), both ways: import turns `. >= 1 and . <= 30` into { min: 1, max: 30 }, export
 * writes it back the same way, so a builder-made survey round-trips through its XLSForm. Anything
 * else stays an expression (relevantExpr, constraintExpr) for the engine.
 */

const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;
const QUOTED = String.raw`(?:'([^']*)'|"([^"]*)")`;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;

/**
 * `. >= n`, `. <= n`, `. > n and . < m`, `string-length(.) <= n`, `. <= today()`, and for dates and
 * times `. >= date('2026-01-01')` / `. >= '08:00'`; null when the expression is anything else.
 */
export function parseConstraint(expression: string, type: string): Constraint | null {
  const out: Constraint = {};
  const numeric = type === 'number' || type === 'decimal';
  for (const part of splitTop(expression, 'and')) {
    let m: RegExpMatchArray | null;
    if ((m = part.match(new RegExp(String.raw`^\.\s*(>=|<=|>|<)\s*${NUMBER}$`))) && numeric) {
      let n = Number(m[2]);
      if (m[1] === '>' || m[1] === '<') {
        // A whole number's strict bound is the next one in; a decimal's has no structured twin.
        if (type === 'number' && Number.isInteger(n)) n += m[1] === '>' ? 1 : -1;
        else return null;
      }
      if (m[1]!.startsWith('>')) out.min = n;
      else out.max = n;
    } else if ((m = part.match(/^string-length\(\s*\.\s*\)\s*(>=|<=|>|<)\s*(\d+)$/)) && !numeric && type !== 'date' && type !== 'time') {
      const n = Number(m[2]) + (m[1] === '>' ? 1 : m[1] === '<' ? -1 : 0);
      if (m[1]!.startsWith('>')) out.minLength = n;
      else if (n < 1) return null;
      else out.maxLength = n;
    } else if (/^\.\s*<=\s*today\(\)$/.test(part) && type === 'date') {
      out.notInFuture = true;
    } else if ((m = part.match(new RegExp(String.raw`^\.\s*(>=|<=)\s*(?:date\(\s*${QUOTED}\s*\)|${QUOTED})$`))) && (type === 'date' || type === 'time')) {
      const value = m[2] ?? m[3] ?? m[4] ?? m[5] ?? '';
      if (!(type === 'date' ? DATE : TIME).test(value)) return null;
      if (m[1] === '>=') out.min = value;
      else out.max = value;
    } else {
      return null;
    }
  }
  return Object.keys(out).length === 0 ? null : out;
}

/** The structured constraint as the XLSForm expression parseConstraint reads back. */
export function constraintExpression(c: Constraint, type: string): string {
  const parts: string[] = [];
  const limit = (v: number | string) => (typeof v === 'number' ? String(v) : type === 'date' ? `date('${v}')` : `'${v}'`);
  if (c.min !== undefined) parts.push(`. >= ${limit(c.min)}`);
  if (c.max !== undefined) parts.push(`. <= ${limit(c.max)}`);
  if (c.minLength !== undefined) parts.push(`string-length(.) >= ${c.minLength}`);
  if (c.maxLength !== undefined) parts.push(`string-length(.) <= ${c.maxLength}`);
  if (c.notInFuture) parts.push('. <= today()');
  return parts.join(' and ');
}

/** What a structured condition needs of the question it names. */
export interface ConditionSource {
  id: string;
  /** Choice name -> label, when the answer is the label (a list whose names are its labels). */
  labels?: Map<string, string>;
  /** Answers are choice names (the question keeps `choices`), or the source sits in a repeat: no structured twin. */
  structured: boolean;
}

/**
 * `${q} = 'x'`, `${q} != 'x'`, `selected(${q}, 'x')`, `${q} > n`, `${q} < n`, `${q} != ''`, joined
 * by `and` or by `or` (one kind per expression), over earlier questions outside repeats whose answer
 * is what the condition compares; null for anything else (it stays an expression).
 */
export function parseRelevant(expression: string, sources: Map<string, ConditionSource>): ShowIf | null {
  const ands = splitTop(expression, 'and');
  const ors = splitTop(expression, 'or');
  if (ands.length > 1 && ors.length > 1) return null;
  const parts = ands.length > 1 ? ands : ors;
  if (parts.length > 20) return null;
  const conditions: Condition[] = [];
  for (const part of parts) {
    let m: RegExpMatchArray | null;
    let name: string;
    let condition: Omit<Condition, 'question'>;
    if ((m = part.match(new RegExp(String.raw`^selected\(\s*\$\{([\w.-]+)\}\s*,\s*${QUOTED}\s*\)$`)))) {
      name = m[1]!;
      condition = { op: 'includes', value: m[2] ?? m[3] ?? '' };
    } else if ((m = part.match(new RegExp(String.raw`^\$\{([\w.-]+)\}\s*(=|!=|>|<)\s*${QUOTED}$`)))) {
      name = m[1]!;
      const value = m[3] ?? m[4] ?? '';
      if (value === '') {
        if (m[2] !== '!=') return null;
        condition = { op: 'answered' };
      } else {
        condition = { op: ({ '=': 'equals', '!=': 'notEquals', '>': 'greaterThan', '<': 'lessThan' } as const)[m[2] as '=' | '!=' | '>' | '<'], value };
      }
    } else if ((m = part.match(new RegExp(String.raw`^\$\{([\w.-]+)\}\s*(>|<|=|!=)\s*${NUMBER}$`)))) {
      name = m[1]!;
      const op = ({ '>': 'greaterThan', '<': 'lessThan', '=': 'equals', '!=': 'notEquals' } as const)[m[2] as '>' | '<' | '=' | '!='];
      condition = op === 'equals' || op === 'notEquals' ? { op, value: m[3]! } : { op, value: Number(m[3]) };
    } else {
      return null;
    }
    const source = sources.get(name);
    if (!source || !source.structured) return null;
    if (typeof condition.value === 'string' && source.labels && condition.op !== 'greaterThan' && condition.op !== 'lessThan') {
      const label = source.labels.get(condition.value);
      if (label === undefined) return null;
      condition.value = label;
    }
    conditions.push({ question: source.id, ...condition });
  }
  return { combine: ors.length > 1 ? 'any' : 'all', conditions };
}

const quote = (v: string) => (v.includes("'") ? `"${v}"` : `'${v}'`);

/** The structured condition as the XLSForm expression parseRelevant reads back. */
export function showIfExpression(showIf: ShowIf): string {
  const parts = showIf.conditions.map((c) => {
    const ref = `\${${c.question}}`;
    const v = c.value ?? '';
    switch (c.op) {
      case 'includes':
        return `selected(${ref}, ${quote(String(v))})`;
      case 'answered':
        return `${ref} != ''`;
      case 'equals':
        return `${ref} = ${quote(String(v))}`;
      case 'notEquals':
        return `${ref} != ${quote(String(v))}`;
      case 'greaterThan':
        return `${ref} > ${typeof v === 'number' ? v : quote(v)}`;
      case 'lessThan':
        return `${ref} < ${typeof v === 'number' ? v : quote(v)}`;
    }
  });
  return parts.join(showIf.combine === 'any' ? ' or ' : ' and ');
}

/** `a and b` split at top level (outside quotes and parentheses), outer parentheses dropped. */
export function splitTop(expression: string, word: 'and' | 'or'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  const text = stripParens(expression.trim());
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && /\s/.test(ch) && text.slice(i + 1, i + 2 + word.length).toLowerCase() === `${word} ` && i + 1 > start) {
      parts.push(text.slice(start, i).trim());
      start = i + 1 + word.length;
      i = start;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.map(stripParens);
}

function stripParens(text: string): string {
  let t = text.trim();
  while (t.startsWith('(') && t.endsWith(')')) {
    let depth = 0;
    let wraps = true;
    for (let i = 0; i < t.length - 1; i++) {
      if (t[i] === '(') depth++;
      else if (t[i] === ')') depth--;
      if (depth === 0) {
        wraps = false;
        break;
      }
    }
    if (!wraps) break;
    t = t.slice(1, -1).trim();
  }
  return t;
}
