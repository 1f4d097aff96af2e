import type { Survey } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { formatCell } from '../insight/cells';
import { answerLines, answerTree } from './answer-lines';

// Version 2 of a survey: "Name of outlet" (q1) renamed "Outlet name", "Fridge count" removed.
const v2: Survey['questions'] = [
  { id: 'q1', text: 'Outlet name', type: 'text answer', compulsory: true, options: [] },
  { id: 'q2', text: 'Kind of outlet', type: 'select', compulsory: false, options: ['Kiosk', 'Shop'] },
];

describe('answerLines', () => {
  it('a version 1 response, keyed by the API under the latest texts, fills the renamed questions: no N/A, no orphan line; a removed question follows', () => {
    // The responses list and detail replies for a version 1 response (apps/api versions.test.ts).
    const reply = { 'Outlet name': 'Mama Put', 'Kind of outlet': 'Kiosk', 'Fridge count': '2' };
    const lines = answerLines(v2, reply);
    expect(lines.map((l) => [l.question, formatCell(l.answer, 'http://localhost', l.type).text])).toEqual([
      ['Outlet name', 'Mama Put'],
      ['Kind of outlet', 'Kiosk'],
      ['Fridge count', '2'],
    ]);
  });

  it('an unanswered question is N/A; an answer named constructor is not inherited', () => {
    const lines = answerLines([...v2, { id: 'q3', text: 'constructor', type: 'text answer', compulsory: false, options: [] }], { 'Outlet name': 'New Shop' });
    expect(lines.map((l) => formatCell(l.answer, 'http://localhost', l.type).text)).toEqual(['New Shop', 'N/A', 'N/A']);
  });
});

describe('answerTree', () => {
  const roster: Survey['questions'] = [
    { id: 'village', text: 'Village', type: 'text answer', compulsory: true, options: [] },
    { id: 'hh', text: 'Household', type: 'group', compulsory: false, options: [] },
    { id: 'head', text: 'Head', type: 'text answer', compulsory: true, options: [], parent: 'hh' },
    { id: 'members', text: 'Member', type: 'repeat', compulsory: false, options: [] },
    { id: 'name', text: 'Name', type: 'text answer', compulsory: true, options: [], parent: 'members' },
    { id: 'photo', text: 'Photo', type: 'image', compulsory: false, options: [], parent: 'members' },
  ];

  it('puts a group\'s answers under its title and each repeat instance\'s under its number, photos included', () => {
    const tree = answerTree(roster, { Village: 'Kura', Head: 'Amina', Member: [{ Name: 'Amina' }, { Name: 'Bala', Photo: '/api/v1/files/image/abcdefghijkl' }], Old: 'x' });
    const show = (nodes: ReturnType<typeof answerTree>): unknown[] => nodes.map((n) => (n.kind === 'line' ? `${n.question}: ${formatCell(n.answer, 'http://localhost', n.type).text}` : n.kind === 'group' ? { [n.title]: show(n.children) } : { [n.title]: n.instances.map(show) }));
    expect(show(tree)).toEqual([
      'Village: Kura',
      { Household: ['Head: Amina'] },
      { Member: [['Name: Amina', 'Photo: N/A'], ['Name: Bala', 'Photo: View photo']] },
      'Old: x',
    ]);
  });
});
