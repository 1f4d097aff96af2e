import { describe, expect, it } from 'vitest';
import { QuestionType } from '../question-types.js';
import { CreateSurveyBody, StoredQuestion, Survey } from './survey.js';

const issues = (questions: unknown[], extra: Record<string, unknown> = {}) => {
  const r = CreateSurveyBody.safeParse({ title: 'Household', questions, ...extra });
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

/** A household roster: a group, a repeat counted by an integer, a calculation, a cascade. */
const household = [
  { id: 'hh', text: 'Household', type: 'group', appearance: 'field-list' },
  { id: 'head', text: 'Name of the head', type: 'text answer', parent: 'hh', hint: 'As on the ID card', translations: { ha: { text: 'Sunan maigida' } } },
  { id: 'n', text: 'How many members?', type: 'number', parent: 'hh', constraintExpr: '. >= 1 and . <= 30', constraintMessage: 'Between 1 and 30' },
  { id: 'members', text: 'Member', type: 'repeat', repeatCount: '${n}', repeat: { max: 30 } },
  { id: 'name', text: 'Name', type: 'text answer', parent: 'members' },
  { id: 'age', text: 'Age', type: 'number', parent: 'members', constraintExpr: '. < 120' },
  { id: 'child', text: 'Is a child', type: 'calculate', parent: 'members', calculation: 'if(${age} < 18, 1, 0)' },
  { id: 'children', text: 'Children', type: 'calculate', calculation: 'sum(${child})', compulsory: true },
  { id: 'state', text: 'State', type: 'select', options: ['Kano', 'Lagos'], choices: [{ name: 'kn', label: 'Kano' }, { name: 'la', label: 'Lagos' }] },
  { id: 'lga', text: 'LGA', type: 'select', choiceFilter: 'state = ${state}', choices: [{ name: 'nassarawa', label: 'Nassarawa', columns: { state: 'kn' } }, { name: 'ikeja', label: 'Ikeja', columns: { state: 'la' } }] },
];

describe('the form model (groups, repeats, expressions, choices, languages)', () => {
  it('accepts a household form with a group, a repeat, a calculation and a cascade', () => {
    const r = CreateSurveyBody.safeParse({ title: 'Household', questions: household, languages: [{ code: 'ha', label: 'Hausa' }], defaultLanguage: 'ha' });
    expect(r.success ? [] : r.error.issues).toEqual([]);
    const qs = r.data!.questions;
    // Containers and calculations are never compulsory; choices give the options.
    expect(qs.find((q) => q.id === 'children')!.compulsory).toBe(false);
    expect(qs.find((q) => q.id === 'members')!.compulsory).toBe(false);
    expect(qs.find((q) => q.id === 'lga')!.options).toEqual(['Nassarawa', 'Ikeja']);
  });

  it('still parses a question stored before the model (no new fields)', () => {
    const old = { id: 'q1', text: 'Name', type: 'text answer', compulsory: true, options: [] };
    expect(StoredQuestion.parse(old)).toEqual(old);
    const survey = { _id: 's', title: 'T', description: '', organization_id: 'o', expectedResponseCount: null, questions: [old], createdAt: '2026-01-01T00:00:00.000Z' };
    expect(Survey.parse(survey).questions).toEqual([old]);
  });

  it('refuses a member whose parent is not an earlier group or repeat', () => {
    expect(issues([{ id: 'a', text: 'A', type: 'text answer', parent: 'g' }, { id: 'g', text: 'G', type: 'group' }])).toContain('"A": Its group or repeat "g" must be an earlier group or repeat of this form');
    expect(issues([{ id: 'a', text: 'A', type: 'text answer' }, { id: 'b', text: 'B', type: 'text answer', parent: 'a' }])).toContain('"B": "a" is not a group or repeat');
  });

  it('refuses members that do not follow their container contiguously', () => {
    const qs = [
      { id: 'g', text: 'G', type: 'group' },
      { id: 'a', text: 'A', type: 'text answer', parent: 'g' },
      { id: 'b', text: 'B', type: 'text answer' },
      { id: 'c', text: 'C', type: 'text answer', parent: 'g' },
    ];
    expect(issues(qs)).toContain('"C": Must follow the other questions of "G" (a group\'s or repeat\'s questions come together)');
    // Nested containers close in order: back to the outer group after the inner one is fine.
    const nested = [
      { id: 'g', text: 'G', type: 'group' },
      { id: 'r', text: 'R', type: 'repeat', parent: 'g' },
      { id: 'a', text: 'A', type: 'text answer', parent: 'r' },
      { id: 'b', text: 'B', type: 'text answer', parent: 'g' },
    ];
    expect(issues(nested)).toEqual([]);
  });

  it('refuses an expression that does not compile or names no question', () => {
    expect(issues([{ id: 'a', text: 'A', type: 'number', constraintExpr: '. >' }])[0]).toMatch(/^"A": The constraint expression is not valid: /);
    expect(issues([{ id: 'a', text: 'A', type: 'number', relevantExpr: '${nope} = 1' }])).toContain('"A": The relevant expression names ${nope}, which is not a question of this form');
    expect(issues([{ id: 'a', text: 'A', type: 'calculate', calculation: '${b} + 1' }, { id: 'b', text: 'B', type: 'calculate', calculation: '${a} + 1' }])).toContain('"A": Its calculation depends on itself');
  });

  it('fits the fields to their type', () => {
    expect(issues([{ id: 'a', text: 'A', type: 'calculate' }])).toContain('"A": A calculate question needs a calculation');
    expect(issues([{ id: 'a', text: 'A', type: 'range' }])).toContain('"A": A range question needs its start, end and step');
    expect(issues([{ id: 'a', text: 'A', type: 'number', repeatCount: 3 }])).toContain('"A": Only a repeat takes a repeat count, a minimum or a maximum');
    expect(issues([{ id: 'r', text: 'R', type: 'repeat', repeat: { min: 3, max: 2 } }])).toContain('"R": The repeat minimum is above its maximum');
    expect(issues([{ id: 's', text: 'S', type: 'select', choices: [{ name: 'a', label: 'A' }, { name: 'a', label: 'B' }] }])).toContain('"S": Two choices share the name "a"');
    expect(issues([{ id: 'a', text: 'A', type: 'text answer', translations: { yo: { text: 'B' } } }], { languages: [{ code: 'ha', label: 'Hausa' }] })).toContain('"A": A translation is in "yo", which is not one of the survey\'s languages');
    expect(issues([{ id: 'a', text: 'A', type: 'text answer' }], { defaultLanguage: 'ha' })).toContain('The default language "ha" is not one of the survey\'s languages');
  });

  it('keys texts per answer scope: the same text may be asked in the response and in a repeat', () => {
    const qs = [
      { id: 'name', text: 'Name', type: 'text answer' },
      { id: 'r', text: 'Member', type: 'repeat' },
      { id: 'mname', text: 'Name', type: 'text answer', parent: 'r' },
    ];
    expect(issues(qs)).toEqual([]);
    expect(issues([...qs, { id: 'again', text: 'name', type: 'text answer' }]).length).toBe(1);
  });

  it('takes the new types', () => {
    for (const type of [QuestionType.acknowledge, QuestionType.datetime, QuestionType.start, QuestionType.end, QuestionType.today, QuestionType.deviceid, QuestionType.username, QuestionType.userEmail]) {
      expect(issues([{ id: 'a', text: 'A', type }])).toEqual([]);
    }
    expect(issues([{ id: 'a', text: 'A', type: 'range', range: { start: 0, end: 10, step: 1 } }])).toEqual([]);
  });
});
