import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerProblem, normaliseAnswer, responseProblems, ruleProblems, visibleQuestions, type RuleAnswer, type RuleQuestion } from './evaluate.js';
import { Msg } from '../messages.js';
import { RuleMsg } from './messages.js';
import { answerIssues, checkFormOf } from './response-check.js';

const NOW = new Date(2026, 10, 25, 12, 0, 0);
const q = (id: string, type: string, extra: Partial<RuleQuestion> = {}): RuleQuestion => ({ id, text: `Question ${id}`, type, compulsory: true, ...extra });
const lookup = (answers: Record<string, RuleAnswer>) => (x: RuleQuestion) => (Object.hasOwn(answers, x.id) ? answers[x.id] : undefined);

describe('answerProblem', () => {
  const cases: [string, RuleQuestion, string, string | null][] = [
    ['a whole number in range', q('c', 'number', { constraint: { min: 0, max: 120 } }), '42', null],
    ['the upper limit itself', q('c', 'number', { constraint: { min: 0, max: 120 } }), '120', null],
    ['above the range, naming it', q('c', 'number', { constraint: { min: 0, max: 120 } }), '150', 'Must be between 0 and 120'],
    ['a fraction for a whole number', q('c', 'number'), '4.5', RuleMsg.whole],
    ['text for a number', q('c', 'number'), 'forty', RuleMsg.whole],
    ['hex is not a number', q('c', 'number'), '0x10', RuleMsg.whole],
    ['a custom message', q('c', 'number', { constraint: { max: 10, message: 'Ten at most, please' } }), '11', 'Ten at most, please'],
    ['only a minimum', q('c', 'decimal', { constraint: { min: 1.5 } }), '1.2', 'Must be at least 1.5'],
    ['a decimal', q('c', 'decimal'), '3.25', null],
    ['a comma decimal', q('c', 'decimal'), '3,25', RuleMsg.decimal],
    ['a date', q('d', 'date'), '2026-02-28', null],
    ['an impossible date', q('d', 'date'), '2026-02-30', RuleMsg.date],
    ['a date in the future', q('d', 'date', { constraint: { notInFuture: true } }), '2026-11-26', RuleMsg.notInFuture],
    ['today is not the future', q('d', 'date', { constraint: { notInFuture: true } }), '2026-11-25', null],
    ['a date before its minimum', q('d', 'date', { constraint: { min: '2026-01-01' } }), '2025-12-31', 'Must be at least 2026-01-01'],
    ['a time', q('t', 'time'), '07:30', null],
    ['25 o\'clock', q('t', 'time'), '25:00', RuleMsg.time],
    ['a phone with 0', q('p', 'phone'), '0803 123 4567', null],
    ['a phone with +234', q('p', 'phone'), '+2348031234567', null],
    ['a short phone', q('p', 'phone'), '080312345', RuleMsg.phone],
    ['+234 then 0', q('p', 'phone'), '+23408031234567', RuleMsg.phone],
    ['an e-mail', q('e', 'email'), 'ada@example.ng', null],
    ['not an e-mail', q('e', 'email'), 'not-an-email', RuleMsg.email],
    ['text within its length', q('x', 'text answer', { constraint: { minLength: 2, maxLength: 5 } }), 'abc', null],
    ['text too long', q('x', 'text answer', { constraint: { maxLength: 5 } }), 'abcdef', 'Must be at most 5 characters'],
    ['text too short of a range', q('x', 'text answer', { constraint: { minLength: 2, maxLength: 5 } }), 'a', 'Must be between 2 and 5 characters'],
  ];
  it.each(cases)('%s', (_, question, answer, expected) => {
    expect(answerProblem(question, answer, NOW)).toBe(expected);
  });
});

describe('visibleQuestions', () => {
  const a = q('a', 'select');
  const b = q('b', 'text answer', { showIf: { combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } });
  const c = q('c', 'text answer', { showIf: { combine: 'all', conditions: [{ question: 'b', op: 'answered' }] } });
  const age = q('age', 'number');
  const adult = q('adult', 'select', { showIf: { combine: 'any', conditions: [{ question: 'age', op: 'greaterThan', value: 17 }, { question: 'a', op: 'equals', value: 'Override' }] } });
  const crops = q('crops', 'checkbox');
  const maize = q('maize', 'number', { showIf: { combine: 'all', conditions: [{ question: 'crops', op: 'includes', value: 'Maize' }] } });

  it('shows B only when A is Yes, and hiding cascades to what depends on B', () => {
    expect([...visibleQuestions([a, b, c], lookup({ a: 'Yes', b: 'x' }))]).toEqual(['a', 'b', 'c']);
    expect([...visibleQuestions([a, b, c], lookup({ a: 'No', b: 'x' }))]).toEqual(['a']);
  });

  it('compares numbers as numbers and combines with any', () => {
    expect(visibleQuestions([a, age, adult], lookup({ age: '9' })).has('adult')).toBe(false);
    expect(visibleQuestions([a, age, adult], lookup({ age: '18' })).has('adult')).toBe(true);
    expect(visibleQuestions([a, age, adult], lookup({ age: '9', a: 'Override' })).has('adult')).toBe(true);
  });

  it('reads includes over a checkbox list', () => {
    expect(visibleQuestions([crops, maize], lookup({ crops: ['Rice', 'Maize'] })).has('maize')).toBe(true);
    expect(visibleQuestions([crops, maize], lookup({ crops: ['Rice'] })).has('maize')).toBe(false);
  });

  it('treats a condition on a later or unknown question as not met', () => {
    const early = q('early', 'text answer', { showIf: { combine: 'all', conditions: [{ question: 'late', op: 'answered' }] } });
    expect(visibleQuestions([early, q('late', 'text answer')], lookup({ late: 'x' })).has('early')).toBe(false);
  });
});

describe('responseProblems', () => {
  const a = q('a', 'select');
  const b = q('b', 'text answer', { showIf: { combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } });
  const c = q('c', 'number', { constraint: { min: 0, max: 120 } });

  it('never requires a hidden compulsory question, and refuses an answer to one, naming it', () => {
    expect(responseProblems([a, b, c], lookup({ a: 'No', c: '30' }), NOW)).toEqual([]);
    expect(responseProblems([a, b, c], lookup({ a: 'No', b: 'sneaked', c: '30' }), NOW)).toEqual([{ question: 'b', text: 'Question b', message: RuleMsg.hidden }]);
  });

  it('lists the missing and the out-of-range in form order', () => {
    expect(responseProblems([a, b, c], lookup({ a: 'Yes', c: '150' }), NOW).map((p) => [p.question, p.message])).toEqual([
      ['b', RuleMsg.required],
      ['c', 'Must be between 0 and 120'],
    ]);
  });
});

describe('ruleProblems', () => {
  it('refuses conditions on later questions and limits the wrong way round', () => {
    const problems = ruleProblems([
      q('a', 'text answer', { showIf: { combine: 'all', conditions: [{ question: 'b', op: 'answered' }] } }),
      q('b', 'number', { constraint: { min: 10, max: 1 } }),
      q('c', 'text answer', { showIf: { combine: 'all', conditions: [{ question: 'b', op: 'equals' }] } }),
    ]);
    expect(problems.map((p) => p.question)).toEqual(['a', 'b', 'c']);
  });
});

describe('normaliseAnswer', () => {
  it('stores phone numbers one way', () => {
    for (const written of ['08031234567', '+2348031234567', '234 803 123 4567', '(0803) 123-4567']) expect(normaliseAnswer('phone', written)).toBe('+2348031234567');
  });
});

// The phone clears what the rules hide, then checks what is shown; the server checks everything.
// Whatever the survey and the answers, the two must agree.
describe('the phone and the server agree', () => {
  const types = ['text answer', 'select', 'checkbox', 'number', 'decimal', 'date'];
  const values = ['Yes', 'No', '5', '150', '2026-01-01', '', 'x'];
  const survey = fc.array(
    fc.record({
      type: fc.constantFrom(...types),
      compulsory: fc.boolean(),
      ref: fc.nat(10),
      op: fc.constantFrom('equals', 'notEquals', 'includes', 'greaterThan', 'lessThan', 'answered'),
      value: fc.constantFrom(...values),
      gated: fc.boolean(),
      max: fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 8 },
  ).map((specs) =>
    specs.map((s, i): RuleQuestion => ({
      id: `q${i}`,
      text: `Q${i}`,
      type: s.type,
      compulsory: s.compulsory,
      showIf: s.gated && i > 0 ? { combine: 'all', conditions: [{ question: `q${s.ref % i}`, op: s.op, value: s.value }] } : undefined,
      constraint: s.max !== undefined && (s.type === 'number' || s.type === 'decimal') ? { max: s.max } : undefined,
    })),
  );
  const answers = fc.dictionary(fc.constantFrom('q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7'), fc.oneof(fc.constantFrom(...values), fc.array(fc.constantFrom(...values), { maxLength: 3 })));

  it('a response the phone accepts is accepted by the server', () => {
    fc.assert(
      fc.property(survey, answers, (questions, raw) => {
        const visible = visibleQuestions(questions, lookup(raw));
        const cleared = Object.fromEntries(Object.entries(raw).filter(([id]) => visible.has(id)));
        const phoneOk = questions.every((x) => !visible.has(x.id) || (cleared[x.id] === undefined || (typeof cleared[x.id] === 'string' ? (cleared[x.id] as string).trim() === '' : (cleared[x.id] as string[]).length === 0) ? !x.compulsory : answerProblem(x, cleared[x.id]!, NOW) === null));
        const server = responseProblems(questions, lookup(cleared), NOW);
        expect(server.length === 0).toBe(phoneOk);
        expect(server.some((p) => p.message === RuleMsg.hidden)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('clearing hidden answers does not change what is shown', () => {
    fc.assert(
      fc.property(survey, answers, (questions, raw) => {
        const visible = visibleQuestions(questions, lookup(raw));
        const cleared = Object.fromEntries(Object.entries(raw).filter(([id]) => visible.has(id)));
        expect([...visibleQuestions(questions, lookup(cleared))]).toEqual([...visible]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('answerIssues (the check the API refuses by and the phone shows)', () => {
  const qs: RuleQuestion[] = [
    { id: 'a', text: 'A', type: 'select', compulsory: true },
    { id: 'b', text: 'B', type: 'text', compulsory: true, showIf: { combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } },
    { id: 'c', text: 'C', type: 'number', compulsory: true, constraint: { min: 0, max: 120 } },
    { id: 'd', text: 'D', type: 'checkbox', compulsory: false },
  ];
  const form = checkFormOf(qs);

  it('finds every issue, missing compulsory first, each with what the form shows and what the API answers', () => {
    const all = [...answerIssues(form, { A: 'Yes', C: '150', D: 'red', X: 'y' }, NOW)];
    expect(all.map((i) => [i.question, i.message, i.refusal, i.missing])).toEqual([
      ['B', Msg.answerRequired, Msg.fillCompulsory, true],
      ['D', 'Must be a list of choices', 'The answer to "D" must be a list of choices', false],
      ['X', 'Not a question of this survey', '"X" is not a question of this survey', false],
      ['C', 'Must be between 0 and 120', '"C": Must be between 0 and 120', false],
    ]);
  });

  it('never needs a hidden compulsory question, and refuses an answer to one', () => {
    expect([...answerIssues(form, { A: 'No', C: '34' }, NOW)]).toEqual([]);
    expect([...answerIssues(form, { A: 'No', B: 'sneaked', C: '34' }, NOW)].map((i) => i.refusal)).toEqual([`"B": ${RuleMsg.hidden}`]);
  });
});
