import { describe, expect, it } from 'vitest';
import { QuestionType, type Answers, type StoredQuestion } from '@survey-bird/contracts';
import { answersHashOf } from './rules.js';

// The duplicate-answers flag hashes a response's answers: a roster (an array of instance objects)
// is compared whole, never crashes the hash, and a copied roster is a duplicate.
const questions: StoredQuestion[] = [
  { id: 'head', text: 'Head', type: QuestionType.text, compulsory: true, options: [] },
  { id: 'members', text: 'Member', type: QuestionType.repeat, compulsory: false, options: [] },
  { id: 'name', text: 'Name', type: QuestionType.text, compulsory: true, options: [], parent: 'members' },
  { id: 'crops', text: 'Crops', type: QuestionType.checkbox, compulsory: false, options: ['Rice', 'Maize'] },
];

describe('the duplicate-answers hash with repeats', () => {
  it('hashes a roster whole: the same roster in another case is a duplicate, another roster is not', () => {
    const a: Answers = { Head: 'Musa', Member: [{ Name: 'Aisha' }, { Name: 'Musa' }], Crops: ['Maize', 'Rice'] };
    const b: Answers = { Head: 'musa ', Member: [{ Name: 'AISHA' }, { Name: 'Musa' }], Crops: ['Rice', 'Maize'] };
    const c: Answers = { Head: 'Musa', Member: [{ Name: 'Aisha' }], Crops: ['Rice', 'Maize'] };
    expect(answersHashOf(questions, a)).toBe(answersHashOf(questions, b));
    expect(answersHashOf(questions, a)).not.toBe(answersHashOf(questions, c));
  });
});
