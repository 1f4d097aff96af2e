/**
 * The XLSForm expression engine (XPath 1.0 as ODK uses it), the same on the phone and the server:
 * compile an expression once, evaluate it over a response's answers as JSON, no DOM.
 */
export type { Expr, BinaryOp } from './ast.js';
export { compileExpression, evaluate, type CompiledExpression, type CompileResult, type EvaluationResult } from './compile.js';
export type { EvaluationContext } from './context.js';
export type { ExpressionError } from './parse.js';
export { printExpression } from './print.js';
export { asBoolean, asNumber, asString, NodeSet, type Value } from './values.js';
