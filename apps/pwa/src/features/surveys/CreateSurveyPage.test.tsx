import { QuestionType, type Question } from '@survey-bird/contracts';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_BUILDER } from './builder';
import { CreateSurveyPage } from './CreateSurveyPage';
import { ExpressionField } from './ExpressionField';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const settle = () => act(async () => {
  await new Promise((r) => setTimeout(r, 30));
});

/** Types into a React-controlled input or select as a person would (the native setter, then the event React listens to). */
function type(el: Element | null | undefined, value: string) {
  if (!el) throw new Error('no such field');
  const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

const QUESTIONS: Question[] = [
  { id: 'adults', text: 'Adults', type: QuestionType.number, compulsory: true, options: [] },
  { id: 'kids', text: 'Children', type: QuestionType.number, compulsory: true, options: [] },
  { id: 'state', text: 'State', type: QuestionType.select, compulsory: true, options: ['Kano', 'Lagos'] },
];

describe('the builder\'s expression field', () => {
  let host: HTMLDivElement;
  let root: ReturnType<typeof createRoot>;
  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  it('checks as it is typed: a syntax error, an unknown name, then a valid expression read back by question texts', () => {
    let value = '';
    const render = () => act(() => root.render(createElement(ExpressionField, { id: 'e', label: 'Calculation', value, onChange: (v: string) => { value = v; render(); }, questions: QUESTIONS })));
    render();
    const input = host.querySelector('input')!;
    const alert = () => host.querySelector('[role="alert"]')?.textContent ?? null;
    expect(alert()).toBeNull();
    type(input, '${adults} +');
    expect(alert()).toMatch(/^Not a valid expression/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    type(input, '${adults} + ${nobody}');
    expect(alert()).toBe('${nobody} is not a question of this form');
    type(input, '${adults} + ');
    type(host.querySelector('select[aria-label="Insert a question into Calculation"]'), 'kids');
    expect(value).toBe('${adults} + ${kids}');
    expect(alert()).toBeNull();
    expect(host.textContent).toContain('Reads: [Adults] + [Children]');
  });
});

describe('the builder: calculations, choice filters, languages', () => {
  let host: HTMLDivElement;
  let root: ReturnType<typeof createRoot>;
  beforeEach(async () => {
    localStorage.clear();
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    await act(async () => root.render(<CreateSurveyPage edit={{ survey: { _id: 's1', title: 'Household', version: 1 }, initial: { ...EMPTY_BUILDER, title: 'Household', questions: QUESTIONS } }} />));
    // The expression fields are a chunk of their own, loaded with the editor.
    await vi.waitFor(async () => {
      await settle();
      expect(host.querySelector('.builder__logic')).not.toBeNull();
    }, { timeout: 10_000 });
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });
  const byId = (id: string) => host.querySelector(`#${id}`);
  const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
  const items = () => [...host.querySelectorAll('.qlist__item')].map((li) => li.textContent ?? '');

  it('adds a calculate question: the calculation is checked live and saved', () => {
    type(byId('q-text'), 'People');
    type(byId('q-type'), QuestionType.calculate);
    expect(byId('q-calculation')).not.toBeNull();
    // No compulsory box: a calculation is never answered.
    expect([...host.querySelectorAll('.check')].some((l) => l.textContent?.includes('Compulsory'))).toBe(false);
    type(byId('q-calculation'), '${adults} + ${kidz}');
    expect(host.querySelector('.expr [role="alert"]')?.textContent).toBe('${kidz} is not a question of this form');
    type(byId('q-calculation'), '${adults} + ${kids}');
    expect(host.querySelector('.expr [role="alert"]')).toBeNull();
    act(() => button('Add')!.click());
    // The list reads the ids as question texts.
    expect(items().at(-1)).toContain('= [Adults] + [Children]');
  });

  it('adds a filtered select with a column per option, and edits the show-if and valid-only-if expressions and the hint', () => {
    type(byId('q-text'), 'LGA');
    type(byId('q-type'), QuestionType.select);
    type(byId('q-options'), 'Nassarawa, Ikeja');
    type(byId('q-choiceFilter'), 'state = ');
    expect(host.querySelector('.expr [role="alert"]')?.textContent).toMatch(/^Not a valid expression/);
    type(host.querySelector('select[aria-label^="Insert a question into Choice filter"]'), 'state');
    expect((byId('q-choiceFilter') as HTMLInputElement).value).toBe('state = ${state}');
    type(host.querySelector('input[aria-label="New column name"]'), 'state');
    act(() => button('Add column')!.click());
    type(host.querySelector('input[aria-label="state of Nassarawa"]'), 'Kano');
    type(host.querySelector('input[aria-label="state of Ikeja"]'), 'Lagos');
    type(byId('q-relevantExpr'), '${adults} > 0');
    type(byId('q-constraintExpr'), '. != ""');
    type(byId('q-constraintMessage'), 'Pick one');
    type(byId('q-hint'), 'Where the household lives');
    act(() => button('Add')!.click());
    const lga = items().at(-1)!;
    expect(lga).toContain('Choices where state = [State]');
    expect(lga).toContain('Shown if [Adults] > 0');
    // Edited again: the form holds the columns and their values.
    act(() => host.querySelectorAll<HTMLButtonElement>('button[aria-label^="Edit question"]')[3]!.click());
    expect((host.querySelector('input[aria-label="state of Ikeja"]') as HTMLInputElement).value).toBe('Lagos');
    expect((byId('q-hint') as HTMLInputElement).value).toBe('Where the household lives');
  });

  it('adds Hausa in the languages panel and types a column of translations', async () => {
    act(() => button('Languages')!.click());
    // The panel is its own chunk: it arrives after a load.
    await vi.waitFor(async () => {
      await settle();
      expect(host.querySelector('dialog')).not.toBeNull();
    }, { timeout: 10_000 });
    const dialog = () => host.querySelector('dialog')!;
    type(dialog().querySelector('#tr-new'), 'Hausa');
    type(dialog().querySelector('#tr-new-code'), 'ha');
    act(() => [...dialog().querySelectorAll('button')].find((b) => b.textContent === 'Add language')!.click());
    const headers = [...dialog().querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers).toEqual(['Text', 'English', 'Hausa']);
    const cell = (label: string) => [...dialog().querySelectorAll('input')].find((i) => i.getAttribute('aria-label') === label);
    type(cell('1. Label "Adults" in Hausa'), 'Manya');
    type(cell('3. Option "Lagos" in Hausa'), 'Legas');
    act(() => [...dialog().querySelectorAll('button')].find((b) => b.textContent === 'Done')!.click());
    expect(host.querySelector('dialog')).toBeNull();
    expect(button('Languages (2)')).toBeDefined();
    expect(items()[0]).toContain('2 languages');
  });
});
