/** The parsed form of an XLSForm expression; `at` is the 0-based offset of the node's first character. */
export type BinaryOp = 'or' | 'and' | '=' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | 'div' | 'mod' | '|';

export type Expr =
  | { type: 'number'; value: number; at: number }
  | { type: 'string'; value: string; at: number }
  /** `${name}`: a question or a repeat, by name. */
  | { type: 'ref'; name: string; at: number }
  /** `.`: the current question. */
  | { type: 'self'; at: number }
  /** `..`: the current question's parent (only `position(..)` uses it). */
  | { type: 'parent'; at: number }
  /** A bare name: a column of the choice a choice_filter is testing. */
  | { type: 'name'; name: string; at: number }
  | { type: 'negate'; operand: Expr; at: number }
  | { type: 'binary'; op: BinaryOp; left: Expr; right: Expr; at: number }
  | { type: 'call'; name: string; args: Expr[]; at: number };

/** Binding strength, XPath 1.0's grammar from loosest to tightest (unary minus sits between 6 and 8). */
export const PRECEDENCE: Record<BinaryOp, number> = { or: 1, and: 2, '=': 3, '!=': 3, '<': 4, '<=': 4, '>': 4, '>=': 4, '+': 5, '-': 5, '*': 6, div: 6, mod: 6, '|': 8 };
export const NEGATE_PRECEDENCE = 7;
