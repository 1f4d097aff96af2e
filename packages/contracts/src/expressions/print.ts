import { NEGATE_PRECEDENCE, PRECEDENCE, type Expr } from './ast.js';
import { numberToString } from './values.js';

function precedenceOf(e: Expr): number {
  if (e.type === 'binary') return PRECEDENCE[e.op];
  return e.type === 'negate' ? NEGATE_PRECEDENCE : 9;
}

function quote(s: string): string {
  return s.includes("'") ? `"${s}"` : `'${s}'`;
}

/** The expression as text, with the fewest parentheses that parse back to the same tree. */
export function printExpression(e: Expr): string {
  switch (e.type) {
    case 'number':
      return numberToString(e.value);
    case 'string':
      return quote(e.value);
    case 'ref':
      return `\${${e.name}}`;
    case 'self':
      return '.';
    case 'parent':
      return '..';
    case 'name':
      return e.name;
    case 'call':
      return `${e.name}(${e.args.map(printExpression).join(', ')})`;
    case 'negate': {
      const inner = printExpression(e.operand);
      return precedenceOf(e.operand) < NEGATE_PRECEDENCE ? `-(${inner})` : `-${inner}`;
    }
    case 'binary': {
      const p = PRECEDENCE[e.op];
      const left = printExpression(e.left);
      const right = printExpression(e.right);
      // Left-associative: an equal-strength operator on the right needs parentheses.
      return `${precedenceOf(e.left) < p ? `(${left})` : left} ${e.op} ${precedenceOf(e.right) <= p ? `(${right})` : right}`;
    }
  }
}
