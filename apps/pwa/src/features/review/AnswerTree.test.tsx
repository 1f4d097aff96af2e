import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, it } from 'vitest';
import { QuestionType, type Survey } from '@survey-bird/contracts';
import { AnswerTree } from './AnswerTree';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let host: HTMLElement;
afterEach(() => host?.remove());

const survey = {
  questions: [
    { id: 'r', text: 'Rank them', type: QuestionType.rank, compulsory: true, options: ['Water', 'Roads'], choices: [{ name: 'water', label: 'Water' }, { name: 'roads', label: 'Roads' }] },
    { id: 't', text: 'Road', type: QuestionType.geotrace, compulsory: true, options: [] },
    { id: 's', text: 'Plot', type: QuestionType.geoshape, compulsory: true, options: [] },
    { id: 'a', text: 'Voice', type: QuestionType.audio, compulsory: true, options: [] },
    { id: 'f', text: 'Consent', type: QuestionType.file, compulsory: true, options: [] },
    { id: 'x', text: 'Broken line', type: QuestionType.geotrace, compulsory: false, options: [] },
  ],
} as unknown as Survey;

it('shows a ranking as its labels in order, a line and an area by their measures, a recording in a player and a document as a download', async () => {
  host = document.createElement('div');
  document.body.append(host);
  const file = (id: string) => `http://localhost/api/v1/files/image/${id}`;
  // A 100 m square near the equator (0.000898° of latitude and of longitude), closed as ODK stores it.
  const square = '0 0 0 0;0.000898 0 0 0;0.000898 0.000898 0 0;0 0.000898 0 0;0 0 0 0';
  await act(async () => createRoot(host).render(
    <AnswerTree survey={survey} answers={{ 'Rank them': ['roads', 'water'], Road: '9 7 0 0;9.001 7 0 0', Plot: square, Voice: file('v1'), Consent: file('c1'), 'Broken line': 'not a line' }} />,
  ));
  const dd = (n: number) => host.querySelectorAll('dd')[n]!;
  expect([...dd(0).querySelectorAll('li')].map((li) => li.textContent)).toEqual(['Roads', 'Water']);
  expect(dd(1).querySelector('.answer-geo__summary')!.textContent).toBe('2 points, length 111 m');
  expect(dd(2).querySelector('.answer-geo__summary')!.textContent).toBe('4 points, area 9,993 m², perimeter 400 m');
  expect(dd(3).querySelector('audio')!.getAttribute('src')).toBe(file('v1'));
  expect(dd(4).querySelector('button')!.textContent).toBe('Download file');
  // Text that is no line stays as it was stored: nothing is hidden from the reader.
  expect(dd(5).textContent).toBe('not a line');
  // The map library is not loaded until a map is asked for.
  expect(host.querySelector('.leaflet-container')).toBeNull();
});
