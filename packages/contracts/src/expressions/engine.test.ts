import { describe, expect, it } from 'vitest';
import { asBoolean, asNumber, asString, compileExpression, evaluate, type EvaluationContext } from './index.js';

function run(src: string, ctx: Partial<EvaluationContext> = {}) {
  const compiled = compileExpression(src);
  if (!compiled.ok) throw new Error(compiled.error.message);
  const result = evaluate(compiled.expr, { answers: {}, ...ctx });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('parse errors name the column', () => {
  it.each([
    ['${age} > )', "Unexpected ')' at column 10 in ${age} > )", 10],
    ['${age} >', 'Unexpected end of expression at column 9 in ${age} >', 9],
    ["concat('a", 'Unterminated string at column 8 in concat(\'a', 8],
    ['${age > 3', "Unterminated '${' at column 1 in ${age > 3", 1],
    ['foo(1)', "Unknown function 'foo' at column 1 in foo(1)", 1],
    ['1 + substr("a")', 'substr() takes 2 to 3 arguments, not 1 at column 5 in 1 + substr("a")', 5],
    ['/data/age > 3', "Unexpected '/' (paths are not supported: write ${name}) at column 1 in /data/age > 3", 1],
    ['${a}[1]', "Unexpected '[' (predicates are not supported) at column 5 in ${a}[1]", 5],
    ['1 # 2', "Unexpected '#' at column 3 in 1 # 2", 3],
  ])('%s', (src, message, column) => {
    expect(compileExpression(src)).toEqual({ ok: false, error: { message, column } });
  });

  it('bounds nesting instead of overflowing the stack', () => {
    const deep = '('.repeat(5000) + '1' + ')'.repeat(5000);
    const result = compileExpression(deep);
    expect(result.ok).toBe(false);
  });
});

describe('references', () => {
  it('lists each ${name} once, in order', () => {
    const c = compileExpression('if(${a} > 1, sum(${b}) + ${a}, indexed-repeat(${c}, ${rep}, 1))');
    expect(c.ok && c.expr.references).toEqual(['a', 'b', 'c', 'rep']);
  });
});

describe('repeats', () => {
  const answers = { hh: 'x', members: [{ age: '30', name: 'A' }, { age: '12', name: 'B' }, { name: 'C' }] };
  it('inside a repeat ${q} is the same instance; outside, every instance', () => {
    expect(asNumber(run('${age} + 1', { answers, at: [{ repeat: 'members', index: 1 }] }))).toBe(13);
    expect(asNumber(run('count(${age})', { answers }))).toBe(3);
    expect(asBoolean(run("${age} = ''", { answers, at: [{ repeat: 'members', index: 2 }] }))).toBe(true);
    expect(asNumber(run('count(${members})', { answers, at: [{ repeat: 'members', index: 0 }] }))).toBe(3);
  });
  it('repeatsOf places a question the answers do not show yet', () => {
    expect(asNumber(run('count(${age})', { answers: { members: [{}, {}] }, repeatsOf: { age: ['members'] } }))).toBe(2);
    expect(asString(run('${age}', { answers: { members: [{}, { age: '4' }] }, at: [{ repeat: 'members', index: 1 }], repeatsOf: { age: ['members'] } }))).toBe('4');
  });
});

describe('evaluation failures are results', () => {
  it('a bad regex', () => {
    const c = compileExpression("regex(${a}, '[')");
    expect(c.ok && evaluate(c.expr, { answers: { a: 'x' } })).toEqual({ ok: false, error: "Invalid regular expression '[' in regex(${a}, '[')" });
  });
  it('a position outside the answers', () => {
    const c = compileExpression('${a}');
    expect(c.ok && evaluate(c.expr, { answers: {}, at: [{ repeat: 'r', index: 0 }] })).toEqual({ ok: false, error: "No instance 1 of repeat 'r' in ${a}" });
  });
});
