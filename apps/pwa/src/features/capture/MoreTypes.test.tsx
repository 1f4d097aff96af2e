import { act, createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, it, vi } from 'vitest';
import { QuestionType, UploadAccept } from '@survey-bird/contracts';
import { GeoQuestion } from './GeoQuestion';
import { MediaQuestion } from './MediaQuestion';
import { RankQuestion } from './RankQuestion';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let host: HTMLElement;
afterEach(() => host?.remove());

async function mount(node: React.ReactElement) {
  host = document.createElement('div');
  document.body.append(host);
  await act(async () => createRoot(host).render(node));
  return host;
}

/** A question holding its own answer, as the editor does, reporting each change. */
function Held({ shape, seen }: { shape: boolean; seen: string[] }) {
  const [value, setValue] = useState('');
  return createElement(GeoQuestion, { id: 'g', shape, value, readOnly: false, onAnswer: (v: string) => { seen.push(v); setValue(v); } });
}

const type = async (input: HTMLInputElement, text: string) => {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
};
const click = (el: Element | null | undefined) => act(async () => (el as HTMLElement).click());
const button = (el: HTMLElement, text: string) => [...el.querySelectorAll('button')].find((b) => b.textContent === text);

async function addTyped(el: HTMLElement, lat: string, lng: string) {
  const [a, b] = [...el.querySelectorAll<HTMLInputElement>('.geo__typed input')];
  await type(a!, lat);
  await type(b!, lng);
  await click(button(el, 'Add point'));
}

it('a line entered point by point: typed points make ODK\'s answer and its length shows', async () => {
  const seen: string[] = [];
  const el = await mount(createElement(Held, { shape: false, seen }));
  expect(el.querySelector('output')?.textContent).toBe('No points yet: add at least 2');
  await addTyped(el, '0', '0');
  expect(el.querySelector('output')?.textContent).toBe('1 point · add 1 more');
  await addTyped(el, '0', '0.0009');
  expect(seen.at(-1)).toBe('0 0 0 0;0 0.0009 0 0');
  expect(el.querySelector('output')?.textContent).toBe('2 points · Length 100 m');
  // A point off the globe is refused where it is typed.
  await addTyped(el, '95', '7');
  expect(el.querySelector('[role="alert"]')?.textContent).toContain('between -90 and 90');
  expect(el.querySelectorAll('.geo__points li')).toHaveLength(2);
  await click(el.querySelector('[aria-label="Remove point 1"]'));
  expect(seen.at(-1)).toBe('0 0.0009 0 0');
});

it('an area closes itself from its third point and shows its area and perimeter', async () => {
  const seen: string[] = [];
  const el = await mount(createElement(Held, { shape: true, seen }));
  await addTyped(el, '0', '0');
  await addTyped(el, '0', '0.0009');
  await addTyped(el, '0.0009', '0.0009');
  expect(seen.at(-1)).toBe('0 0 0 0;0 0.0009 0 0;0.0009 0.0009 0 0;0 0 0 0');
  expect(el.querySelectorAll('.geo__points li')).toHaveLength(3);
  expect(el.querySelector('output')?.textContent).toMatch(/^3 points · Area 5,0\d\d m², perimeter 342 m$/);
});

it('a point from the GPS joins the line with its accuracy', async () => {
  const getCurrentPosition = vi.fn((ok: PositionCallback) => ok({ coords: { latitude: 9.05, longitude: 7.49, altitude: 410, accuracy: 6 }, timestamp: 0 } as GeolocationPosition));
  Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition, watchPosition: vi.fn(), clearWatch: vi.fn() }, configurable: true });
  const seen: string[] = [];
  const el = await mount(createElement(Held, { shape: false, seen }));
  await click(button(el, 'Add my position'));
  expect(seen.at(-1)).toBe('9.05 7.49 410 6');
  expect(el.querySelector('.geo__points li')?.textContent).toContain('(±6 m)');
});

it('a ranking moves choices up and down and answers every choice in order', async () => {
  const answers: string[][] = [];
  function Ranked() {
    const [value, setValue] = useState<string[] | undefined>();
    return createElement(RankQuestion, { id: 'r', readOnly: false, value, choices: [{ value: 'water', label: 'Water' }, { value: 'roads', label: 'Roads' }, { value: 'schools', label: 'Schools' }], onAnswer: (v: string[]) => { answers.push(v); setValue(v); } });
  }
  const el = await mount(createElement(Ranked));
  expect([...el.querySelectorAll('.rank__label')].map((l) => l.textContent)).toEqual(['Water', 'Roads', 'Schools']);
  expect(answers).toEqual([]);
  await click(el.querySelector('[aria-label="Move Schools up"]'));
  expect(answers.at(-1)).toEqual(['water', 'schools', 'roads']);
  await click(el.querySelector('[aria-label="Move Water down"]'));
  expect(answers.at(-1)).toEqual(['schools', 'water', 'roads']);
  expect(el.querySelector('[aria-label="Move Schools up"]')?.hasAttribute('disabled')).toBe(true);
});

it('a recording, a video or a document: its picker offers its kinds, and a picked file is kept as it is', async () => {
  const onFile = vi.fn();
  const el = await mount(createElement(MediaQuestion, { id: 'm', type: QuestionType.file, label: 'Deed', file: undefined, processing: false, onFile }));
  const input = el.querySelector<HTMLInputElement>('input[type="file"]')!;
  expect(input.accept).toBe(UploadAccept[QuestionType.file]);
  expect(el.textContent).toContain('Up to 10.0 MB');
  const pdf = new File(['%PDF-1.7'], 'deed.pdf', { type: 'application/pdf' });
  Object.defineProperty(input, 'files', { value: [pdf], configurable: true });
  await act(async () => input.dispatchEvent(new Event('change', { bubbles: true })));
  expect(onFile).toHaveBeenCalledWith(pdf);
});

it('an audio question offers to record as well as to pick, and shows a kept clip with a player', async () => {
  const clip = new Blob(['OggS'], { type: 'audio/ogg' });
  const el = await mount(createElement(MediaQuestion, { id: 'a', type: QuestionType.audio, label: 'Interview', file: clip, processing: false, onFile: () => undefined }));
  expect(button(el, 'Record again')).toBeTruthy();
  expect(el.querySelector('input[type="file"]')?.getAttribute('accept')).toBe('audio/*');
  expect(el.querySelector('audio')).not.toBeNull();
  expect(button(el, 'Remove recording')).toBeTruthy();
});
