import { Msg, type Answers } from '@survey-bird/contracts';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOUSEHOLD_LANGUAGES, HOUSEHOLD_QUESTIONS } from '../../../test/household-form';
import { accountKey } from '../../session/account-key';
import { closeDialog, dialog } from '../../lib/dialog-store';
import { toasts } from '../../lib/toast-store';
import { formLanguages } from './form-language';
import { ResponseEditor } from './ResponseEditor';
import { useResponseEditor, type Entered, type ResponseEditor as Editor } from './use-response-editor';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ACCOUNT = accountKey('ada@field.ng');
/** Answers with repeat instances (a repeat's answer is a list of instance objects). */
const nested = (answers: Record<string, unknown>) => answers as Answers;
const settle = () => act(async () => {
  await new Promise((r) => setTimeout(r, 20));
});

beforeAll(() => import('./form-rules'));

describe('the response editor on the XLSForm model (groups, repeats, languages)', () => {
  let host: HTMLDivElement;
  let root: ReturnType<typeof createRoot>;
  let editor: Editor;
  const mount = async (start: Entered) => {
    function Probe() {
      editor = useResponseEditor({ questions: HOUSEHOLD_QUESTIONS, languages: HOUSEHOLD_LANGUAGES, account: ACCOUNT, photoQuality: undefined, start });
      return createElement(ResponseEditor, { editor, searchDataset: () => Promise.resolve([]) });
    }
    await act(async () => root.render(createElement(Probe)));
    await settle();
    expect(editor.ready).toBe(true);
  };
  const text = () => host.textContent ?? '';
  const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.textContent === name);
  const validate = () => {
    let checked: ReturnType<Editor['validate']> = null;
    act(() => void (checked = editor.validate()));
    return checked as ReturnType<Editor['validate']>;
  };

  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    toasts.set([]);
    formLanguages.set({});
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  it('adds members, removes one after a confirmation (the later ones move up), and keeps the total calculated', async () => {
    await mount({ answers: nested({ Village: 'Kura', Member: [{}] }), photos: {}, sent: {} });
    expect(text()).toContain('Household');
    expect(host.querySelectorAll('.rpt__inst')).toHaveLength(1);
    // One member is the minimum: it cannot be removed.
    expect(button('Remove')).toBeUndefined();

    act(() => button('Add another Member')!.click());
    act(() => button('Add another Member')!.click());
    expect(host.querySelectorAll('.rpt__inst')).toHaveLength(3);
    act(() => editor.setAnswer({ at: [{ repeat: 'Member', index: 0 }], question: 'Name' }, 'Ada'));
    act(() => editor.setAnswer({ at: [{ repeat: 'Member', index: 0 }], question: 'Age' }, '40'));
    act(() => editor.setAnswer({ at: [{ repeat: 'Member', index: 1 }], question: 'Name' }, 'Bala'));
    act(() => editor.setAnswer({ at: [{ repeat: 'Member', index: 1 }], question: 'Age' }, '9'));
    act(() => editor.setAnswer({ at: [{ repeat: 'Member', index: 2 }], question: 'Name' }, 'Chidi'));
    act(() => editor.setAnswer({ at: [{ repeat: 'Member', index: 2 }], question: 'Age' }, '7'));
    expect(editor.answers).toMatchObject({ Children: '2', Member: [{ 'Is a child': '0' }, { 'Is a child': '1' }, { 'Is a child': '1' }] });
    expect(text()).toContain('2 of the members are children.');

    // Remove asks first; Keep leaves the member.
    act(() => [...host.querySelectorAll('button')].filter((b) => b.textContent === 'Remove')[1]!.click());
    expect(dialog.get()?.title).toBe('Remove Member 2?');
    await act(async () => closeDialog(false));
    expect((editor.answers.Member as unknown[]).length).toBe(3);
    act(() => [...host.querySelectorAll('button')].filter((b) => b.textContent === 'Remove')[1]!.click());
    await act(async () => closeDialog(true));
    expect(editor.answers.Member).toEqual([{ Name: 'Ada', Age: '40', 'Is a child': '0' }, { Name: 'Chidi', Age: '7', 'Is a child': '1' }]);
    expect(editor.answers.Children).toBe('1');
  });

  it('does not block on a compulsory question of a hidden group, nor keep its answer', async () => {
    await mount({ answers: nested({ Village: 'Kura', 'Head of household': 'Ada', 'Does the household farm?': 'yes', Member: [{ Name: 'Ada', Age: '40' }] }), photos: {}, sent: {} });
    expect(text()).toContain('Main crop');
    expect(validate()).toBeNull();
    expect(editor.problems).toEqual({ 'Main crop': Msg.answerRequired });

    act(() => editor.setAnswer('Main crop', 'Maize'));
    act(() => editor.setAnswer('Does the household farm?', 'no'));
    expect(text()).not.toContain('Main crop');
    const checked = validate();
    expect(checked?.problems).toEqual({});
    expect(checked?.answers).not.toHaveProperty('Main crop');
  });

  it('blocks submit on a constraint inside the repeat, at that member, with its message', async () => {
    await mount({ answers: nested({ Village: 'Kura', 'Head of household': 'Ada', 'Does the household farm?': 'no', Member: [{ Name: 'Ada', Age: '40' }, { Name: 'Bala' }] }), photos: {}, sent: {} });
    act(() => editor.setAnswer({ at: [{ repeat: 'Member', index: 1 }], question: 'Age' }, '150'));
    expect(editor.problems).toEqual({ 'Member#2/Age': 'An age is between 0 and 120' });
    expect(host.querySelector('.rpt__inst:nth-of-type(2) .q--invalid')?.textContent).toContain('An age is between 0 and 120');
    expect(validate()).toBeNull();
    expect(toasts.get().at(-1)?.text).toBe('An age is between 0 and 120');

    act(() => editor.setAnswer({ at: [{ repeat: 'Member', index: 1 }], question: 'Age' }, '12'));
    expect(validate()?.answers).toMatchObject({ Member: [{ Name: 'Ada', Age: '40' }, { Name: 'Bala', Age: '12', 'Is a child': '1' }], Children: '1' });
  });

  it('switches to Hausa mid-form: labels, choices, messages and the repeat, remembered for the account', async () => {
    await mount({ answers: nested({ Village: 'Kura', Member: [{ Name: 'Ada', Age: '150' }] }), photos: {}, sent: {} });
    expect(editor.language).toBe('en');
    expect(text()).toContain('An age is between 0 and 120');
    act(() => editor.setLanguage('ha'));
    expect(editor.language).toBe('ha');
    expect(text()).toContain('Kauye');
    expect(text()).toContain('Maigida');
    expect(text()).toContain('Kamar yadda gidan ke kiransa');
    expect([...host.querySelectorAll('option')].map((o) => o.textContent)).toContain('Ee');
    expect(text()).toContain('Add another Dan gida');
    expect(text()).toContain('Shekaru tsakanin 0 da 120');
    // The answers stay as they were: a language changes what is shown, never what is stored.
    expect(editor.answers).toMatchObject({ Village: 'Kura', Member: [{ Name: 'Ada', Age: '150' }] });
    expect(formLanguages.get()).toEqual({ [ACCOUNT]: 'ha' });
  });
});
