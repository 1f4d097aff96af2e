import { Msg, QuestionType, type Survey } from '@survey-bird/contracts';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toasts } from '../../lib/toast-store';
import { useResponseEditor, type Entered, type ResponseEditor } from './use-response-editor';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const PHOTO_URL = 'https://survey-bird.example/api/v1/files/image/0190f1a2-0000-7000-8000-000000000001';
// A show-if (B only when A is "Yes"), a constraint (C within 0-120) and a compulsory photo.
const questions: Survey['questions'] = [
  { id: 'a', text: 'Married?', type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] },
  { id: 'b', text: 'Spouse', type: QuestionType.text, compulsory: true, options: [], showIf: { combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } },
  { id: 'c', text: 'Age', type: QuestionType.number, compulsory: true, options: [], constraint: { min: 0, max: 120 } },
  { id: 'p', text: 'House photo', type: QuestionType.image, compulsory: true, options: [] },
  { id: 'q', text: 'Spouse photo', type: QuestionType.image, compulsory: false, options: [], showIf: { combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } },
];
const settle = () => act(async () => {
  await new Promise((r) => setTimeout(r, 20));
});
const lastToast = () => toasts.get().at(-1)?.text;

beforeAll(() => import('./form-rules'));

describe('useResponseEditor (the form, Fix and Fix and resubmit)', () => {
  let host: HTMLDivElement;
  let root: ReturnType<typeof createRoot>;
  let editor: ResponseEditor;
  const mount = async (start: Entered) => {
    function Probe() {
      editor = useResponseEditor({ questions, photoQuality: undefined, start });
      return null;
    }
    await act(async () => root.render(createElement(Probe)));
    await settle();
    expect(editor.ready).toBe(true);
  };
  beforeEach(() => {
    host = document.createElement('div');
    root = createRoot(host);
    toasts.set([]);
  });
  afterEach(() => act(() => root.unmount()));

  it('does not show a hidden compulsory question, and it does not block', async () => {
    await mount({ answers: { 'Married?': 'No', Age: '34' }, photos: {}, sent: { 'House photo': PHOTO_URL } });
    expect([...editor.shown]).toEqual(['Married?', 'Age', 'House photo']);
    let checked: ReturnType<ResponseEditor['validate']> = null;
    act(() => void (checked = editor.validate()));
    expect(checked).toMatchObject({ answers: { 'Married?': 'No', Age: '34' }, sent: { 'House photo': PHOTO_URL }, problems: {} });
  });

  it('blocks a constraint violation with its message, live and on validate, until it is fixed', async () => {
    await mount({ answers: { 'Married?': 'No' }, photos: {}, sent: { 'House photo': PHOTO_URL } });
    act(() => editor.setAnswer('Age', '150'));
    expect(editor.problems).toEqual({ Age: 'Must be between 0 and 120' });
    let checked: ReturnType<ResponseEditor['validate']> = null;
    act(() => void (checked = editor.validate()));
    expect(checked).toBeNull();
    expect(editor.refusals).toBe(1);
    expect(lastToast()).toBe('Must be between 0 and 120');

    act(() => editor.setAnswer('Age', '34'));
    expect(editor.problems).toEqual({});
    act(() => void (checked = editor.validate()));
    expect(checked).toMatchObject({ answers: { 'Married?': 'No', Age: '34' }, problems: {} });
  });

  it('clears the answers and sent photos of questions an answer hides, so the server never sees them', async () => {
    await mount({ answers: { 'Married?': 'Yes', Spouse: 'Ada', Age: '34' }, photos: {}, sent: { 'House photo': PHOTO_URL, 'Spouse photo': PHOTO_URL } });
    expect(editor.shown.has('Spouse photo')).toBe(true);
    act(() => editor.setAnswer('Married?', 'No'));
    expect(editor.answers).toEqual({ 'Married?': 'No', Age: '34' });
    let checked: ReturnType<ResponseEditor['validate']> = null;
    act(() => void (checked = editor.validate()));
    expect(checked).toMatchObject({ answers: { 'Married?': 'No', Age: '34' }, sent: { 'House photo': PHOTO_URL }, problems: {} });
  });

  it('counts every answer that blocks in the toast: missing compulsory ones and broken ones alike', async () => {
    await mount({ answers: { 'Married?': 'Yes', Age: 'old' }, photos: {}, sent: {} });
    act(() => void editor.validate());
    expect(editor.problems).toEqual({ Spouse: Msg.answerRequired, 'House photo': Msg.answerRequired, Age: 'Enter a whole number' });
    expect(lastToast()).toBe('3 answers need attention: 2 compulsory missing, 1 to correct');
  });
});
