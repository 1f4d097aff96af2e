import { PRECEDENCE, type BinaryOp, type Expr } from './ast.js';

/** Where and why an expression does not parse; `column` is 1-based, for the builder's live check. */
export interface ExpressionError {
  message: string;
  column: number;
}

export class ExpressionSyntaxError extends Error {
  constructor(
    readonly detail: string,
    readonly column: number,
    source: string,
  ) {
    super(`${detail} at column ${column} in ${source}`);
  }
}

type Token =
  | { kind: 'number'; value: number; at: number; text: string }
  | { kind: 'string'; value: string; at: number; text: string }
  | { kind: 'ref'; name: string; at: number; text: string }
  | { kind: 'name'; name: string; at: number; text: string }
  | { kind: 'op'; op: string; at: number; text: string }
  | { kind: 'end'; at: number; text: string };

/** XPath NCName characters, ASCII plus any letter (question names in other scripts). */
const NAME_START = /[A-Za-z_\u00C0-\uFFFF]/;
const NAME_CHAR = /[A-Za-z0-9_.\-\u00B7\u00C0-\uFFFF]/;
const OPERATOR_NAMES = new Set(['and', 'or', 'div', 'mod']);
const SYMBOLS = ['!=', '<=', '>=', '..', '(', ')', '[', ']', ',', '=', '<', '>', '+', '-', '*', '|', '.', '/', '@'];
/** Deeper nesting than any form needs; it bounds the parser's recursion on hostile input. */
const MAX_DEPTH = 100;
const MAX_LENGTH = 10_000;

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (detail: string, at: number): never => {
    throw new ExpressionSyntaxError(detail, at + 1, src);
  };
  // XPath 1.0 §3.7: after an operand, a name is an operator and `*` is multiplication.
  const afterOperand = () => {
    const prev = tokens[tokens.length - 1];
    return prev !== undefined && (prev.kind !== 'op' || prev.op === ')' || prev.op === '.' || prev.op === '..' || prev.op === ']');
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    if (c === '$' && src[i + 1] === '{') {
      const close = src.indexOf('}', i + 2);
      if (close < 0) fail("Unterminated '${'", start);
      const name = src.slice(i + 2, close).trim();
      if (!/^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_.\-\u00B7\u00C0-\uFFFF]*$/.test(name)) fail(`Invalid question name '${name}' in '${src.slice(start, close + 1)}'`, start);
      i = close + 1;
      tokens.push({ kind: 'ref', name, at: start, text: src.slice(start, i) });
      continue;
    }
    if (c === "'" || c === '"') {
      const close = src.indexOf(c, i + 1);
      if (close < 0) fail('Unterminated string', start);
      i = close + 1;
      tokens.push({ kind: 'string', value: src.slice(start + 1, close), at: start, text: src.slice(start, i) });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      while (i < src.length && /[0-9]/.test(src[i]!)) i++;
      if (src[i] === '.') {
        i++;
        while (i < src.length && /[0-9]/.test(src[i]!)) i++;
      }
      const text = src.slice(start, i);
      tokens.push({ kind: 'number', value: Number(text), at: start, text });
      continue;
    }
    if (NAME_START.test(c)) {
      while (i < src.length && NAME_CHAR.test(src[i]!)) i++;
      // A prefixed name such as jr:choice-name.
      if (src[i] === ':' && NAME_START.test(src[i + 1] ?? '')) {
        i++;
        while (i < src.length && NAME_CHAR.test(src[i]!)) i++;
      }
      const text = src.slice(start, i);
      if (OPERATOR_NAMES.has(text) && afterOperand()) tokens.push({ kind: 'op', op: text, at: start, text });
      else tokens.push({ kind: 'name', name: text, at: start, text });
      continue;
    }
    const symbol = SYMBOLS.find((s) => src.startsWith(s, i));
    if (symbol === undefined) fail(`Unexpected '${c}'`, start);
    i += symbol!.length;
    tokens.push({ kind: 'op', op: symbol!, at: start, text: symbol! });
  }
  tokens.push({ kind: 'end', at: src.length, text: '' });
  return tokens;
}

/** Parses an XLSForm expression by precedence climbing; throws ExpressionSyntaxError with the column. */
export function parseExpression(src: string): Expr {
  if (src.length > MAX_LENGTH) throw new ExpressionSyntaxError(`Expression longer than ${MAX_LENGTH.toLocaleString('en')} characters`, 1, src.slice(0, 40) + '…');
  const tokens = tokenize(src);
  let pos = 0;
  let depth = 0;
  const peek = () => tokens[pos]!;
  const unexpected = (t: Token): never => {
    if (t.kind === 'end') throw new ExpressionSyntaxError('Unexpected end of expression', t.at + 1, src);
    if (t.kind === 'op' && t.op === '/') throw new ExpressionSyntaxError("Unexpected '/' (paths are not supported: write ${name})", t.at + 1, src);
    if (t.kind === 'op' && t.op === '[') throw new ExpressionSyntaxError("Unexpected '[' (predicates are not supported)", t.at + 1, src);
    throw new ExpressionSyntaxError(`Unexpected '${t.text}'`, t.at + 1, src);
  };
  const expectOp = (op: string) => {
    const t = peek();
    if (t.kind !== 'op' || t.op !== op) unexpected(t);
    pos++;
  };
  const binaryOp = (t: Token): BinaryOp | null => (t.kind === 'op' && t.op in PRECEDENCE ? (t.op as BinaryOp) : null);

  function expression(minPrecedence: number): Expr {
    if (++depth > MAX_DEPTH) throw new ExpressionSyntaxError(`Nested deeper than ${MAX_DEPTH} levels`, peek().at + 1, src);
    let left = unary();
    for (;;) {
      const op = binaryOp(peek());
      // '|' binds tighter than unary minus, so it is taken in union(), never here.
      if (op === null || op === '|' || PRECEDENCE[op] < minPrecedence) break;
      const at = peek().at;
      pos++;
      const right = expression(PRECEDENCE[op] + 1);
      left = { type: 'binary', op, left, right, at };
    }
    depth--;
    return left;
  }

  function unary(): Expr {
    const t = peek();
    if (t.kind === 'op' && t.op === '-') {
      pos++;
      if (++depth > MAX_DEPTH) throw new ExpressionSyntaxError(`Nested deeper than ${MAX_DEPTH} levels`, t.at + 1, src);
      const operand = unary();
      depth--;
      return { type: 'negate', operand, at: t.at };
    }
    return union();
  }

  function union(): Expr {
    let left = primary();
    while (peek().kind === 'op' && (peek() as { op: string }).op === '|') {
      const at = peek().at;
      pos++;
      left = { type: 'binary', op: '|', left, right: primary(), at };
    }
    return left;
  }

  function primary(): Expr {
    const t = peek();
    pos++;
    switch (t.kind) {
      case 'number':
        return { type: 'number', value: t.value, at: t.at };
      case 'string':
        return { type: 'string', value: t.value, at: t.at };
      case 'ref':
        return { type: 'ref', name: t.name, at: t.at };
      case 'name': {
        const next = peek();
        if (next.kind === 'op' && next.op === '(') {
          pos++;
          const args: Expr[] = [];
          if (!(peek().kind === 'op' && (peek() as { op: string }).op === ')')) {
            args.push(expression(1));
            while (peek().kind === 'op' && (peek() as { op: string }).op === ',') {
              pos++;
              args.push(expression(1));
            }
          }
          expectOp(')');
          return { type: 'call', name: t.name, args, at: t.at };
        }
        return { type: 'name', name: t.name, at: t.at };
      }
      case 'op':
        if (t.op === '(') {
          const inner = expression(1);
          expectOp(')');
          return inner;
        }
        if (t.op === '.') return { type: 'self', at: t.at };
        if (t.op === '..') return { type: 'parent', at: t.at };
        return unexpected(t);
      default:
        return unexpected(t);
    }
  }

  const tree = expression(1);
  if (peek().kind !== 'end') unexpected(peek());
  return tree;
}
