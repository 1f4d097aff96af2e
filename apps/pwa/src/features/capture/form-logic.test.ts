import { Limits, Msg, QuestionType, type StoredQuestion } from '@survey-bird/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ClosedNotice, isClosedRefusal, submitNotice } from './closed-at-submit';
import { t } from '../../lib/i18n';
import { answerText, createSubmitter, formatLocation, problemsToast, SUBMIT_LABEL, toggleOption, type Delivery, type Problems, type SubmitDeps, type SubmitPhase } from './form-logic';
import { answerProblems, check, formRules, shownQuestions, withoutHidden } from './form-rules';

const q = (text: string, type: StoredQuestion['type'] = QuestionType.text, compulsory = true, options: string[] = []): StoredQuestion => ({ id: text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'q', text, type, compulsory, options });
const jpeg = () => new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });

// The compulsory questions check() finds unanswered (the contracts' check the server runs).
const missingCompulsory = (questions: StoredQuestion[], answers: Record<string, string | string[]>, photos: Record<string, Blob>, sent: Record<string, string> = {}) =>
  Object.entries(check(questions, answers, photos, sent).problems).filter(([, m]) => m === Msg.answerRequired).map(([text]) => text);

describe('the compulsory rule (spec section 5: key presence only)', () => {
  const questions = [q('Name'), q('Colours', QuestionType.checkbox, true, ['red', 'blue']), q('Photo', QuestionType.image), q('Notes', QuestionType.text, false)];

  it('lists compulsory questions without an answer key', () => {
    expect(missingCompulsory(questions, {}, {})).toEqual(['Name', 'Colours', 'Photo']);
    expect(missingCompulsory(questions, { Name: 'Ada' }, {})).toEqual(['Colours', 'Photo']);
  });

  it('counts a present key even when it is empty: an emptied text, no ticked checkbox', () => {
    expect(missingCompulsory(questions, { Name: '', Colours: [] }, { Photo: jpeg() })).toEqual([]);
  });

  it('looks for photo answers among the photos and the photos already sent, not the answers', () => {
    expect(missingCompulsory(questions, { Name: 'A', Colours: ['red'], Photo: 'typed' }, {})).toEqual(['Photo']);
    expect(missingCompulsory([q('Live', QuestionType.liveImages)], {}, { Live: jpeg() })).toEqual([]);
    expect(missingCompulsory(questions, { Name: 'A', Colours: ['red'] }, {}, { Photo: 'https://x.ng/api/v1/files/image/1' })).toEqual([]);
  });

  it('ignores optional questions and inherited keys', () => {
    expect(missingCompulsory([q('toString')], {}, {})).toEqual(['toString']);
    expect(missingCompulsory([q('Notes', QuestionType.text, false)], {}, {})).toEqual([]);
  });
});

describe('the submit toast', () => {
  it('gives the true number of answers that block: missing, broken constraints and types alike', () => {
    expect(problemsToast({ A: Msg.answerRequired, B: Msg.answerRequired })).toBe(`${Msg.fillCompulsory}: 2 questions are missing`);
    expect(problemsToast({ Age: 'Must be between 0 and 120' })).toBe('Must be between 0 and 120');
    expect(problemsToast({ A: Msg.answerRequired, B: Msg.answerRequired, Age: 'Must be between 0 and 120', Phone: 'Enter a valid e-mail address', N: 'Enter a whole number' }))
      .toBe('5 answers need attention: 2 compulsory missing, 3 to correct');
    expect(problemsToast({ Age: 'Must be between 0 and 120', N: 'Enter a whole number' })).toBe('2 answers need attention: 2 to correct');
  });
});

describe('answer shapes', () => {
  it('keeps checkbox answers as an array in the question order', () => {
    const options = ['red', 'green', 'blue'];
    let answer = toggleOption(options, undefined, 'blue', true);
    expect(answer).toEqual(['blue']);
    answer = toggleOption(options, answer, 'red', true);
    expect(answer).toEqual(['red', 'blue']);
    answer = toggleOption(options, answer, 'red', true);
    expect(answer).toEqual(['red', 'blue']);
    expect(toggleOption(options, answer, 'blue', false)).toEqual(['red']);
    expect(toggleOption(options, ['red'], 'red', false)).toEqual([]);
    expect(toggleOption(options, 'not a list', 'green', true)).toEqual(['green']);
  });

  it('stores a live location as "lat, lng (±acc m)"', () => {
    expect(formatLocation({ latitude: 6.5243793, longitude: 3.3792057, accuracy: 12.4 })).toBe('6.524379, 3.379206 (±12 m)');
    expect(formatLocation({ latitude: -0.5, longitude: -120, accuracy: 0.6 })).toBe('-0.500000, -120.000000 (±1 m)');
  });

  it('shows checkbox lists joined by comma', () => {
    expect(answerText(['red', 'blue'])).toBe('red, blue');
    expect(answerText('6.5, 3.3 (±5 m)')).toBe('6.5, 3.3 (±5 m)');
    expect(answerText(undefined)).toBe('');
  });
});

describe('submitting', () => {
  function harness(deliveries: Array<Delivery | undefined>, options: Partial<SubmitDeps> = {}) {
    const phases: SubmitPhase[] = [];
    const toasts: string[] = [];
    let state = { answers: { Name: 'Ada' } as Record<string, string | string[]>, photos: {} as Record<string, Blob> };
    let clock = 0;
    const enqueued: Array<{ clientId: string; answers: unknown; photos: string[] }> = [];
    const deps: SubmitDeps = {
      rules: () => formRules,
      questions: () => [q('Name')],
      current: () => state,
      clientId: async () => 'draft-client-id',
      enqueue: vi.fn(async (clientId, answers, photos) => {
        enqueued.push({ clientId, answers, photos: Object.keys(photos) });
        return clientId;
      }),
      syncNow: vi.fn(),
      delivery: vi.fn(async () => (deliveries.length > 1 ? deliveries.shift() : deliveries[0])),
      online: () => true,
      onPhase: (p) => phases.push(p),
      reset: vi.fn(() => {
        state = { answers: {}, photos: {} };
      }),
      toast: { error: (t) => toasts.push(`error:${t}`), success: (t) => toasts.push(`success:${t}`), warning: (t) => toasts.push(`warning:${t}`) },
      waitMs: 1000,
      pollMs: 250,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      ...options,
    };
    return { deps, phases, toasts, enqueued, state: () => state, setState: (s: typeof state) => (state = s) };
  }

  it('labels the button Submit, then the progress texts', () => {
    expect(Object.fromEntries(Object.entries(SUBMIT_LABEL).map(([k, id]) => [k, t(id)]))).toEqual({ idle: 'Submit', uploading: 'uploading images...', sending: 'sending response...' });
  });

  it('refuses a form missing a compulsory answer and queues nothing', async () => {
    const h = harness([{ status: 'synced' }]);
    h.setState({ answers: {}, photos: {} });
    expect(await createSubmitter(h.deps).submit()).toBe('incomplete');
    expect(h.toasts).toEqual([`error:${Msg.fillCompulsory}: 1 question is missing`]);
    expect(h.deps.enqueue).not.toHaveBeenCalled();
  });

  it('marks each question to fix and refuses an answer or photo over the server limits', async () => {
    const marked: Problems[] = [];
    const h = harness([{ status: 'synced' }], {
      questions: () => [q('Name'), q('Town'), q('Notes', QuestionType.text, false), q('Photo', QuestionType.image, false)],
      onProblems: (p) => marked.push(p),
    });
    h.setState({ answers: { Notes: 'x'.repeat(Limits.maxAnswerLength + 1) }, photos: { Photo: new Blob([new Uint8Array(Limits.maxImageBytes + 1)], { type: 'image/jpeg' }) } });
    expect(await createSubmitter(h.deps).submit()).toBe('incomplete');
    expect(marked).toEqual([{ Name: Msg.answerRequired, Town: Msg.answerRequired, Notes: Msg.answerTooLong, Photo: Msg.payloadTooLarge }]);
    expect(h.toasts).toEqual(['error:4 answers need attention: 2 compulsory missing, 2 to correct']);
    expect(check([q('Notes', QuestionType.text, false)], { Notes: 'x'.repeat(Limits.maxAnswerLength + 1) }, {}).problems).toEqual({ Notes: Msg.answerTooLong });
    expect(h.deps.enqueue).not.toHaveBeenCalled();

    h.setState({ answers: { Name: 'Ada', Town: 'Jos', Notes: 'x'.repeat(Limits.maxAnswerLength) }, photos: {} });
    expect(await createSubmitter(h.deps).submit()).toBe('sent');
    expect(marked.at(-1)).toEqual({});
  });

  it('queues under the draft clientId, says response sent! once the server has it, and resets', async () => {
    const h = harness([{ status: 'sending', photosLeft: 0 }, { status: 'synced' }]);
    expect(await createSubmitter(h.deps).submit()).toBe('sent');
    expect(h.enqueued).toEqual([{ clientId: 'draft-client-id', answers: { Name: 'Ada' }, photos: [] }]);
    expect(h.deps.syncNow).toHaveBeenCalledOnce();
    expect(h.deps.reset).toHaveBeenCalledOnce();
    expect(h.state()).toEqual({ answers: {}, photos: {} });
    expect(h.toasts).toEqual([`success:${Msg.responseSent}`]);
    expect(h.phases).toEqual(['sending', 'sending', 'idle']);
  });

  it('shows uploading images... while photos are going up, then sending response...', async () => {
    const h = harness([{ status: 'sending', photosLeft: 1 }, { status: 'sending', photosLeft: 0 }, { status: 'synced' }], { questions: () => [q('Name'), q('Photo', QuestionType.image, false)] });
    h.setState({ answers: { Name: 'Ada' }, photos: { Photo: jpeg() } });
    expect(await createSubmitter(h.deps).submit()).toBe('sent');
    expect(h.enqueued[0]?.photos).toEqual(['Photo']);
    expect(h.phases).toEqual(['uploading', 'uploading', 'sending', 'idle']);
  });

  it('says saved, will send when online when the server does not answer in time, and still resets', async () => {
    const h = harness([{ status: 'queued', photosLeft: 0 }]);
    expect(await createSubmitter(h.deps).submit()).toBe('saved');
    expect(h.toasts).toEqual([`warning:${Msg.expiredSaved}`]);
    expect(h.deps.reset).toHaveBeenCalledOnce();
  });

  it('does not wait at all when offline', async () => {
    const h = harness([{ status: 'queued', photosLeft: 0 }], { online: () => false });
    expect(await createSubmitter(h.deps).submit()).toBe('saved');
    expect(h.deps.delivery).not.toHaveBeenCalled();
    expect(h.toasts).toEqual([`warning:${Msg.expiredSaved}`]);
  });

  it("shows the server's message when it refuses the response (it stays on the phone as failed)", async () => {
    const h = harness([{ status: 'failed', msg: 'Unknown question "X"' }]);
    expect(await createSubmitter(h.deps).submit()).toBe('failed');
    expect(h.toasts).toEqual(['error:Unknown question "X"']);
    expect(h.deps.reset).toHaveBeenCalledOnce();
  });

  it('ignores submit while one is in progress', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const h = harness([{ status: 'synced' }], { clientId: async () => (await gate, 'draft-client-id') });
    const submitter = createSubmitter(h.deps);
    const first = submitter.submit();
    expect(submitter.isBusy()).toBe(true);
    expect(await submitter.submit()).toBe('ignored');
    expect(await submitter.submit()).toBe('ignored');
    open();
    expect(await first).toBe('sent');
    expect(h.deps.enqueue).toHaveBeenCalledOnce();
    expect(submitter.isBusy()).toBe(false);
    expect(h.phases.at(-1)).toBe('idle');
  });

  it('keeps the answers on screen when the phone cannot queue them', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const h = harness([{ status: 'synced' }], { enqueue: async () => Promise.reject(new Error('QuotaExceededError')) });
    expect(await createSubmitter(h.deps).submit()).toBe('failed');
    expect(h.deps.reset).not.toHaveBeenCalled();
    expect(h.state().answers).toEqual({ Name: 'Ada' });
    expect(h.toasts).toEqual([`error:${Msg.unexpectedError}`]);
    error.mockRestore();
  });

  describe('a survey closed while the form was open', () => {
    it('received: says it was sent and that the survey is closed, then shows the closed screen', async () => {
      const onClosed = vi.fn();
      const h = harness([{ status: 'sending', photosLeft: 0 }, { status: 'synced' }], { closedNow: vi.fn(async () => true), onClosed });
      expect(await createSubmitter(h.deps).submit()).toBe('sent');
      expect(h.enqueued).toHaveLength(1);
      expect(h.toasts).toEqual([`warning:${t(ClosedNotice.received)}`]);
      expect(onClosed).toHaveBeenCalledOnce();
      // Asked alongside the sync, after the response is on the phone.
      expect(h.deps.closedNow).toHaveBeenCalledAfter(h.deps.enqueue as ReturnType<typeof vi.fn>);
    });

    it('refused as closed: says so and where the response is kept, even when the list could not tell', async () => {
      const onClosed = vi.fn();
      const h = harness([{ status: 'failed', msg: Msg.surveyClosed }], { closedNow: async () => Promise.reject(new Error('offline')), onClosed });
      expect(await createSubmitter(h.deps).submit()).toBe('failed');
      expect(h.toasts).toEqual([`error:${t(ClosedNotice.refused)}`]);
      expect(onClosed).toHaveBeenCalledOnce();
    });

    it('not answered in time: kept on the phone, and the close is still told', async () => {
      const h = harness([{ status: 'queued', photosLeft: 0 }], { closedNow: async () => true, onClosed: vi.fn() });
      expect(await createSubmitter(h.deps).submit()).toBe('saved');
      expect(h.toasts).toEqual([`warning:${t(ClosedNotice.waiting)}`]);
      expect(h.deps.onClosed).toHaveBeenCalledOnce();
    });

    it('an open survey keeps its toasts; offline nothing is asked (the server decides at sync)', async () => {
      const open = harness([{ status: 'synced' }], { closedNow: async () => false, onClosed: vi.fn() });
      expect(await createSubmitter(open.deps).submit()).toBe('sent');
      expect(open.toasts).toEqual([`success:${Msg.responseSent}`]);
      expect(open.deps.onClosed).not.toHaveBeenCalled();

      const offline = harness([{ status: 'queued', photosLeft: 0 }], { online: () => false, closedNow: vi.fn(async () => true) });
      expect(await createSubmitter(offline.deps).submit()).toBe('saved');
      expect(offline.deps.closedNow).not.toHaveBeenCalled();
      expect(offline.toasts).toEqual([`warning:${Msg.expiredSaved}`]);
    });

    it('a survey list slower than the server does not hold the button', async () => {
      vi.useFakeTimers();
      try {
        const h = harness([{ status: 'synced' }], { closedNow: () => new Promise<boolean>(() => undefined), onClosed: vi.fn() });
        const done = createSubmitter(h.deps).submit();
        await vi.advanceTimersByTimeAsync(1000);
        expect(await done).toBe('sent');
        expect(h.toasts).toEqual([`success:${Msg.responseSent}`]);
        expect(h.phases.at(-1)).toBe('idle');
      } finally {
        vi.useRealTimers();
      }
    });
  });
});

describe('which refusals are closes', () => {
  it('is a 403 with the closed message on a failed record, nothing else', () => {
    expect(isClosedRefusal({ status: 'failed', lastError: { status: 403, msg: Msg.surveyClosed } })).toBe(true);
    expect(isClosedRefusal({ status: 'queued', lastError: { status: 403, msg: Msg.surveyClosed } })).toBe(false);
    expect(isClosedRefusal({ status: 'failed', lastError: { status: 403, msg: 'You are not a member of this survey' } })).toBe(false);
    expect(isClosedRefusal({ status: 'failed', lastError: { status: 400, msg: Msg.surveyClosed } })).toBe(false);
  });

  it('the notice follows the refusal even when the list said open', () => {
    expect(submitNotice({ outcome: 'failed', msg: Msg.surveyClosed }, false)).toEqual({ tone: 'error', text: t(ClosedNotice.refused) });
    expect(submitNotice({ outcome: 'failed', msg: 'Unknown question "X"' }, true)).toEqual({ tone: 'error', text: 'Unknown question "X"' });
  });
});

describe('issue 17: show-if and constraints on the phone', () => {
  const questions: StoredQuestion[] = [
    { id: 'a', text: 'Married?', type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] },
    { id: 'b', text: 'Spouse', type: QuestionType.text, compulsory: true, options: [], showIf: { combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } },
    { id: 'b2', text: 'Spouse phone', type: QuestionType.phone, compulsory: false, options: [], showIf: { combine: 'all', conditions: [{ question: 'b', op: 'answered' }] } },
    { id: 'c', text: 'Age', type: QuestionType.number, compulsory: true, options: [], constraint: { min: 0, max: 120 } },
    { id: 'n', text: 'Thank you', type: QuestionType.note, compulsory: false, options: [] },
    { id: 's', text: 'Sign', type: QuestionType.signature, compulsory: false, options: [], showIf: { combine: 'any', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } },
  ];

  it('shows B only when A is "Yes", and hides what depends on it', () => {
    expect([...shownQuestions(questions, { 'Married?': 'No' }, {})]).toEqual(['Married?', 'Age', 'Thank you']);
    expect([...shownQuestions(questions, { 'Married?': 'Yes', Spouse: 'Ada' }, {})]).toEqual(['Married?', 'Spouse', 'Spouse phone', 'Age', 'Thank you', 'Sign']);
  });

  it('clears the answers and photos of hidden questions, cascading', () => {
    const sig = new Blob(['png'], { type: 'image/png' });
    const kept = withoutHidden(questions, { 'Married?': 'No', Spouse: 'Ada', 'Spouse phone': '08031234567', Age: '30' }, { Sign: sig });
    expect(kept.answers).toEqual({ 'Married?': 'No', Age: '30' });
    expect(kept.photos).toEqual({});
    const same = { 'Married?': 'Yes', Age: '30' };
    expect(withoutHidden(questions, same, {}).answers).toBe(same);
  });

  it('never needs a compulsory hidden question, nor a note', () => {
    expect(check(questions, { 'Married?': 'No', Age: '30' }, {}).problems).toEqual({});
    expect(check(questions, { 'Married?': 'Yes', Age: '30' }, {}).problems).toEqual({ Spouse: Msg.answerRequired });
  });

  it('shows the constraint message and refuses the submit', () => {
    expect(answerProblems(questions, { 'Married?': 'No', Age: '150' }, {})).toEqual({ Age: 'Must be between 0 and 120' });
    expect(check(questions, { 'Married?': 'No', Age: '150' }, {}).problems).toEqual({ Age: 'Must be between 0 and 120' });
    expect(check(questions, { 'Married?': 'Yes', Spouse: 'Ada', 'Spouse phone': '123', Age: 'old' }, {}).problems).toEqual({ 'Spouse phone': 'Enter a Nigerian phone number (11 digits starting 0, or +234)', Age: 'Enter a whole number' });
    expect(check(questions, { 'Married?': 'No', Age: '120' }, {}).problems).toEqual({});
  });

  it('works with a survey cached before question ids', () => {
    const old = [{ text: 'Name', type: QuestionType.text, compulsory: true, options: [] }];
    expect([...shownQuestions(old, {}, {})]).toEqual(['Name']);
    expect(check(old, {}, {}).problems).toEqual({ Name: Msg.answerRequired });
  });

  it('does not send a photo or an answer to a question the survey no longer has (the server refuses it)', () => {
    const kept = check([q('Name')], { Name: 'Ada', Gone: 'x' }, { OldPhoto: jpeg() }, { OldSent: 'https://x.ng/api/v1/files/image/1' });
    expect(kept).toEqual({ answers: { Name: 'Ada' }, photos: {}, sent: {}, problems: {} });
  });

  it('blocks what the server refuses: a checkbox answer that is not a list (a question changed type since)', () => {
    expect(check([q('Colours', QuestionType.checkbox, false, ['red'])], { Colours: 'red' }, {}).problems).toEqual({ Colours: 'Must be a list of choices' });
  });

  it('does not send the answer to a question hidden since it was typed', async () => {
    const enqueue = vi.fn(async () => 'id');
    const submitter = createSubmitter({
      questions: () => questions,
      rules: () => formRules,
      current: () => ({ answers: { 'Married?': 'No', Spouse: 'Ada', Age: '30' }, photos: {} }),
      clientId: async () => 'c1',
      enqueue,
      syncNow: () => {},
      delivery: async () => ({ status: 'synced' }),
      online: () => false,
      onPhase: () => {},
      reset: () => {},
      toast: { error: () => {}, success: () => {}, warning: () => {} },
    });
    expect(await submitter.submit()).toBe('saved');
    expect(enqueue).toHaveBeenCalledWith('c1', { 'Married?': 'No', Age: '30' }, {});
  });
});
