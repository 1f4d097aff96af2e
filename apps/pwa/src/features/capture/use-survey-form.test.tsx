import { QuestionType, type Survey } from '@survey-bird/contracts';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { enqueueResponse, getCachedSurveys, listOutbox, loadDraft, saveDraft, saveDraftPhoto } from '../../offline';
import { cacheFieldUserSurveys } from '../../offline/surveys-cache-refresh';
import { fakeCodec } from '../../../test/image-codec';
import { freshDb } from '../../../test/offline-server';
import { createDraftSaver, draftWriting } from './draft-saver';
import { useSurveyForm, type SurveyForm } from './use-survey-form';
import { accountKey } from '../../session/account-key';

vi.mock('../../api', () => ({ api: { call: vi.fn() }, ApiError: class extends Error {} }));
vi.mock('../../offline/app-sync', () => ({ appSync: () => Promise.resolve({ syncNow: () => undefined }) }));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ACCOUNT = accountKey('ada@field.ng');
const survey: Survey = {
  _id: 's1', title: 'Wells', description: '', organization_id: 'o1', expectedResponseCount: null, createdAt: '2026-01-01T00:00:00.000Z',
  questions: [
    { id: 'q1', text: 'Name', type: QuestionType.text, compulsory: true, options: [] },
    { id: 'q2', text: 'Colours', type: QuestionType.checkbox, compulsory: false, options: ['red', 'blue'] },
    { id: 'q3', text: 'Photo', type: QuestionType.image, compulsory: false, options: [] },
  ],
};
const jpeg = (n: number) => new Blob([new Uint8Array(n).fill(7)], { type: 'image/jpeg' });
const settle = () => act(async () => {
  await new Promise((r) => setTimeout(r, 20));
});

// The form's rules are a lazy module: loaded once here, so each mount gets it within `settle`.
beforeAll(() => import('./form-rules'));
beforeEach(freshDb);

describe('draft saver', () => {
  it('writes only the last answers after the pause, and flush writes at once', async () => {
    const saver = createDraftSaver(ACCOUNT, 's1', undefined, 50);
    saver.schedule({ Name: 'A' });
    saver.schedule({ Name: 'Ad' });
    expect(await loadDraft(ACCOUNT, 's1')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 80));
    await saver.settled();
    expect((await loadDraft(ACCOUNT, 's1'))?.answers).toEqual({ Name: 'Ad' });
    saver.schedule({ Name: 'Ada' });
    await saver.flush();
    expect((await loadDraft(ACCOUNT, 's1'))?.answers).toEqual({ Name: 'Ada' });
  });

  it('does not bring back a draft that became a queued response', async () => {
    const saver = createDraftSaver(ACCOUNT, 's1', undefined, 10);
    saver.schedule({ Name: 'Ada' });
    await saver.flush();
    const clientId = (await loadDraft(ACCOUNT, 's1'))!.clientId;
    saver.schedule({ Name: 'Ada!' });
    saver.cancel();
    await enqueueResponse({ account: ACCOUNT, surveyId: 's1', organizationId: 'o1', answers: { Name: 'Ada' }, clientId });
    await new Promise((r) => setTimeout(r, 30));
    expect(await loadDraft(ACCOUNT, 's1')).toBeUndefined();
    expect((await listOutbox(ACCOUNT)).map((r) => r.id)).toEqual([clientId]);
  });

  it("a new saver of the same draft is told of the old one's write still in flight, and writes after it", async () => {
    const left = createDraftSaver(ACCOUNT, 's1', undefined, 10);
    left.schedule({ Name: 'Ada Obi' });
    void left.flush(); // the form unmounts: not awaited
    const writing = draftWriting(ACCOUNT, 's1');
    expect(writing).toBeDefined();
    const opened = createDraftSaver(ACCOUNT, 's1', undefined, 10);
    opened.schedule({ Name: 'Ada Obi!' });
    await opened.flush();
    await writing;
    expect((await loadDraft(ACCOUNT, 's1'))?.answers).toEqual({ Name: 'Ada Obi!' });
    expect(draftWriting(ACCOUNT, 's1')).toBeUndefined();
  });
});

describe('useSurveyForm', () => {
  let host: HTMLDivElement;
  let root: ReturnType<typeof createRoot>;
  let form: SurveyForm;
  function Probe() {
    form = useSurveyForm(ACCOUNT, survey);
    return null;
  }
  beforeEach(() => {
    host = document.createElement('div');
    root = createRoot(host);
  });
  afterEach(() => act(() => root.unmount()));

  it('restores the answers and photos of the draft after a reload', async () => {
    await saveDraft(ACCOUNT, 's1', { Name: 'Ada', Colours: ['blue'] });
    await saveDraftPhoto(ACCOUNT, 's1', 'Photo', jpeg(9));
    await act(async () => root.render(createElement(Probe)));
    await settle();
    expect(form.ready).toBe(true);
    expect(form.answers).toEqual({ Name: 'Ada', Colours: ['blue'] });
    expect(form.photos.Photo?.size).toBe(9);
  });

  it('renders twice on opening: before and after the draft is read', async () => {
    await saveDraft(ACCOUNT, 's1', { Name: 'Ada' });
    let renders = 0;
    function Counting() {
      renders++;
      form = useSurveyForm(ACCOUNT, survey);
      return null;
    }
    await act(async () => root.render(createElement(Counting)));
    await settle();
    expect(form.answers).toEqual({ Name: 'Ada' });
    expect(renders).toBe(2);
  });

  it('saves what the user types and picks as a draft, so a reload loses nothing', async () => {
    await act(async () => root.render(createElement(Probe)));
    await settle();
    expect(form.answers).toEqual({});
    act(() => {
      form.setAnswer('Name', 'Bola');
      form.setAnswer('Colours', ['red']);
    });
    await act(() => form.setPhoto('Photo', jpeg(4)));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 400));
    });
    const draft = await loadDraft(ACCOUNT, 's1');
    expect(draft?.answers).toEqual({ Name: 'Bola', Colours: ['red'] });
    expect(draft?.photos.Photo?.size).toBe(4);

    // A new page: the same answers come back.
    await act(async () => root.unmount());
    root = createRoot(host);
    await act(async () => root.render(createElement(Probe)));
    await settle();
    expect(form.answers).toEqual({ Name: 'Bola', Colours: ['red'] });
    expect(form.photos.Photo?.size).toBe(4);
  });
});

describe('useSurveyForm: a draft keeps the version it was begun on (issue 17)', () => {
  const v1: Survey = { ...survey, version: 1 };
  // Version 2 removes Colours, renames nothing and adds a compulsory Age.
  const v2: Survey = {
    ...survey, version: 2,
    questions: [survey.questions[0]!, { id: 'q4', text: 'Age', type: QuestionType.number, compulsory: true, options: [] }, survey.questions[2]!],
  };
  let host: HTMLDivElement;
  let root: ReturnType<typeof createRoot>;
  let form: SurveyForm;
  function Probe({ given }: { given: Survey }) {
    form = useSurveyForm(ACCOUNT, given);
    return null;
  }
  const mount = (given: Survey) => act(async () => root.render(createElement(Probe, { given })));
  const texts = () => form.questions.map((q) => q.text);
  beforeEach(() => {
    host = document.createElement('div');
    root = createRoot(host);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  });
  afterEach(async () => {
    act(() => root.unmount());
    vi.restoreAllMocks();
  });

  it('a sync bringing version 2 changes neither the open draft nor the draft after a reload; it is queued on version 1 with every answer', async () => {
    await mount(v1);
    await settle();
    act(() => {
      form.setAnswer('Name', 'Ada');
      form.setAnswer('Colours', ['red']);
    });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 400));
    });
    expect((await loadDraft(ACCOUNT, 's1'))?.form).toEqual({ version: 1, questions: v1.questions });

    // The survey list refreshes while the form is open.
    await mount(v2);
    await settle();
    expect(texts()).toEqual(['Name', 'Colours', 'Photo']);
    act(() => form.setAnswer('Name', 'Ada Obi'));
    await settle();

    // The phone reloads offline, with only version 2 cached.
    await act(async () => root.unmount());
    root = createRoot(host);
    await mount(v2);
    await settle();
    expect(texts()).toEqual(['Name', 'Colours', 'Photo']);
    expect(form.answers).toEqual({ Name: 'Ada Obi', Colours: ['red'] });

    await act(async () => {
      form.submit();
      // Queued once the check, the metadata and the outbox write are done (a loaded machine takes longer).
      await vi.waitFor(async () => expect(await listOutbox(ACCOUNT)).toHaveLength(1), { timeout: 5000 });
      await new Promise((r) => setTimeout(r, 50));
    });
    const [queued] = await listOutbox(ACCOUNT);
    expect(queued).toMatchObject({ version: 1, answers: { Name: 'Ada Obi', Colours: ['red'] } });
    // The next response is on version 2, its draft too.
    expect(texts()).toEqual(['Name', 'Age', 'Photo']);
    act(() => form.setAnswer('Age', '30'));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 400));
    });
    expect((await loadDraft(ACCOUNT, 's1'))?.form?.version).toBe(2);
  });

  it('a draft begun with a photo only keeps its version too', async () => {
    await mount(v1);
    await settle();
    await act(() => form.setPhoto('Photo', jpeg(4)));
    await act(async () => root.unmount());
    root = createRoot(host);
    await mount(v2);
    await settle();
    expect(texts()).toEqual(['Name', 'Colours', 'Photo']);
    expect(form.photos.Photo?.size).toBe(4);
  });

  it('without a draft the form follows the newest version', async () => {
    await mount(v1);
    await settle();
    await mount(v2);
    await settle();
    expect(texts()).toEqual(['Name', 'Age', 'Photo']);
  });
});

describe("useSurveyForm: a photo is shrunk as the survey's photo quality says (issue 19)", () => {
  let host: HTMLDivElement;
  let root: ReturnType<typeof createRoot>;
  let form: SurveyForm;
  function Probe({ given }: { given: Survey }) {
    form = useSurveyForm(ACCOUNT, given);
    return null;
  }
  beforeEach(() => {
    host = document.createElement('div');
    root = createRoot(host);
  });
  afterEach(async () => {
    act(() => root.unmount());
    vi.unstubAllGlobals();
  });

  // The survey as the phone has it offline: the server's reply, through the IndexedDB cache.
  it.each<[string, Pick<Survey, 'photoQuality'>, number[], number]>([
    ['high', { photoQuality: 'high' }, [0, 0, 2000, 1500], 0.85],
    ['standard', { photoQuality: 'standard' }, [0, 0, 1600, 1200], 0.8],
    ['absent (a survey cached before the setting): standard', {}, [0, 0, 1600, 1200], 0.8],
  ])('%s', async (_name, setting, box, quality) => {
    await cacheFieldUserSurveys(ACCOUNT, 'token', { listed: [{ ...survey, ...setting }] });
    const [cached] = await getCachedSurveys(ACCOUNT);
    expect(cached?.photoQuality).toBe(setting.photoQuality);
    const { drawn, encoded } = fakeCodec(4000, 3000);
    await act(async () => root.render(createElement(Probe, { given: cached! })));
    await settle();
    await act(() => form.setPhoto('Photo', jpeg(5000)));
    expect(drawn[0]).toEqual(box);
    expect(encoded).toEqual([{ type: 'image/jpeg', quality }]);
    // What the draft keeps (and the outbox will send) is the encoded photo, not the original.
    expect((await loadDraft(ACCOUNT, 's1'))?.photos.Photo?.size).toBe(10);
  });
});
