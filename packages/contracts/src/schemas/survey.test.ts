import { describe, expect, it } from 'vitest';
import { QuestionType } from '../question-types.js';
import { CreateSurveyBody, Question, StoredQuestion } from './survey.js';

const body = (questions: unknown[]) => ({ title: 'Household', questions });
const firstIssue = (input: unknown) => {
  const r = CreateSurveyBody.safeParse(input);
  return r.success ? null : r.error.issues[0]!.message;
};

describe('Question (issue 17)', () => {
  it('stores the spec\'s "short answer" as "text answer"', () => {
    expect(Question.parse({ text: 'Name', type: 'short answer' }).type).toBe(QuestionType.text);
  });

  it('accepts every new type', () => {
    for (const type of ['number', 'decimal', 'date', 'time', 'phone', 'email', 'note', 'signature', 'barcode']) {
      expect(Question.parse({ text: 'Q', type }).type).toBe(type);
    }
  });

  it('makes a note never compulsory', () => {
    expect(Question.parse({ text: 'Read this', type: 'note', compulsory: true }).compulsory).toBe(false);
  });

  it('checks the id pattern', () => {
    expect(Question.safeParse({ id: 'age_1', text: 'Age', type: 'number' }).success).toBe(true);
    expect(Question.safeParse({ id: 'has space', text: 'Age', type: 'number' }).success).toBe(false);
    expect(Question.safeParse({ id: 'x'.repeat(65), text: 'Age', type: 'number' }).success).toBe(false);
  });

  it('keeps showIf and constraint', () => {
    const q = Question.parse({ id: 'c', text: 'Age', type: 'number', constraint: { min: 0, max: 120 }, showIf: { conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } });
    expect(q.constraint).toEqual({ min: 0, max: 120 });
    expect(q.showIf).toEqual({ combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] });
  });
});

describe('CreateSurveyBody rules', () => {
  const a = { id: 'a', text: 'Married?', type: 'select', options: ['Yes', 'No'] };

  it('accepts a condition on an earlier question', () => {
    expect(firstIssue(body([a, { id: 'b', text: 'Spouse', type: 'text answer', showIf: { conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } }]))).toBeNull();
  });

  it('refuses a condition on a later or unknown question, naming the question', () => {
    expect(firstIssue(body([{ id: 'b', text: 'Spouse', type: 'text answer', showIf: { conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } }, a]))).toBe('"Spouse": A condition can only use an earlier question');
    expect(firstIssue(body([a, { id: 'b', text: 'Spouse', type: 'text answer', showIf: { conditions: [{ question: 'zz', op: 'answered' }] } }]))).toBe('"Spouse": A condition can only use an earlier question');
  });

  it('refuses a condition on a note', () => {
    expect(firstIssue(body([{ id: 'n', text: 'Read', type: 'note' }, { id: 'b', text: 'Spouse', type: 'text answer', showIf: { conditions: [{ question: 'n', op: 'answered' }] } }]))).toBe('"Spouse": A condition cannot use a note, which has no answer');
  });

  it('refuses duplicate ids', () => {
    expect(firstIssue(body([a, { ...a, text: 'Other' }]))).toBe('Two questions share the id "a"');
  });

  it('refuses constraints that do not fit the type', () => {
    expect(firstIssue(body([{ text: 'Name', type: 'text answer', constraint: { min: 1 } }]))).toBe('Min and max apply to number, decimal, date and time questions, not "text answer"');
    expect(firstIssue(body([{ text: 'Age', type: 'number', constraint: { maxLength: 3 } }]))).toBe('Min and max length apply to text answer and barcode questions, not "number"');
    expect(firstIssue(body([{ text: 'Age', type: 'number', constraint: { notInFuture: true } }]))).toBe('"Not in the future" applies to date questions only');
    expect(firstIssue(body([{ text: 'Age', type: 'number', constraint: { min: 1.5 } }]))).toBe('Min and max of a whole-number question must be whole numbers');
    expect(firstIssue(body([{ text: 'Born', type: 'date', constraint: { min: 5 } }]))).toBe('Min and max of a date question must be dates (YYYY-MM-DD)');
    expect(firstIssue(body([{ text: 'Age', type: 'number', constraint: { min: 10, max: 1 } }]))).toBe('"Age": The minimum is above the maximum');
    expect(firstIssue(body([{ text: 'Born', type: 'date', constraint: { min: '2000-01-01', notInFuture: true } }]))).toBeNull();
  });
});

describe('StoredQuestion', () => {
  it('requires an id', () => {
    expect(StoredQuestion.safeParse({ text: 'Q', type: 'text answer', compulsory: true, options: [] }).success).toBe(false);
    expect(StoredQuestion.safeParse({ id: 'q1', text: 'Q', type: 'text answer', compulsory: true, options: [] }).success).toBe(true);
  });
});
