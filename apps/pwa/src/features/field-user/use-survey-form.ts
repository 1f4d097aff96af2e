import { uuidv7, type Survey } from '@survey-bird/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { appSync } from '../../app-sync';
import { enqueueResponse, getRecord, loadDraft, saveDraftPhoto, type DraftForm } from '../../offline';
import { toast } from '../../ui/toast-store';
import { useResponseEditor, type Entered, type ResponseEditor } from '../capture/use-response-editor';
import { activeSurveys } from '../surveys/active-survey';
import { createDraftSaver } from './draft-saver';
import { createSubmitter, type Delivery, type SubmitPhase } from './form-logic';
import type { AccountKey } from '../../offline/account-key';

export interface SurveyForm extends Pick<ResponseEditor, 'answers' | 'photos' | 'processing' | 'problems' | 'shown' | 'refusals' | 'setAnswer' | 'setPhoto'> {
  /** The draft has been read back and the rules loaded: inputs may render. */
  ready: boolean;
  /** The questions shown: those of the version the draft was begun on, else of the survey as given. */
  questions: Survey['questions'];
  /** The answers being entered, on the rules the server applies (shared with Fix and Fix and resubmit). */
  editor: ResponseEditor;
  phase: SubmitPhase;
  /** Changes when the form is reset, so uncontrolled inputs (files) start empty. */
  generation: number;
  submit(): void;
}

const NOTHING: Entered = { answers: {}, photos: {}, sent: {} };

const formOf = (s: Survey): DraftForm => ({ version: s.version ?? 1, questions: s.questions });

export async function deliveryOf(id: string): Promise<Delivery | undefined> {
  const r = await getRecord(id);
  if (!r) return undefined;
  if (r.status === 'synced') return { status: 'synced' };
  if (r.status === 'failed') return { status: 'failed', msg: r.lastError?.msg ?? 'The server refused this response' };
  return { status: r.status, photosLeft: r.photoQuestions.filter((q) => !r.photoRefs[q]).length };
}

/**
 * The state of the survey form for one account and survey: answers saved as a draft as the user
 * goes (restored on load, so a reload or a crash loses nothing) and the submit flow of form-logic.ts.
 * A draft stays on the version it was begun on until submitted, whatever version a sync brings.
 */
export function useSurveyForm(account: AccountKey, given: Survey): SurveyForm {
  const surveyId = given._id;
  // The version the draft in progress was begun on (pinned by its first answer or photo).
  const [pinned, setPinned] = useState<DraftForm | undefined>();
  const survey = useMemo(() => (pinned ? { ...given, ...pinned } : given), [given, pinned]);
  const [ready, setReady] = useState(false);
  const [phase, setPhase] = useState<SubmitPhase>('idle');
  const [generation, setGeneration] = useState(0);
  const latest = useRef({ survey });
  latest.current = { survey };
  const pin = useCallback(() => setPinned((p) => p ?? formOf(latest.current.survey)), []);
  const saver = useMemo(() => createDraftSaver(account, surveyId, () => formOf(latest.current.survey)), [account, surveyId]);

  const editor = useResponseEditor({
    questions: survey.questions,
    // The survey's current photo quality, even on a draft pinned to an older version.
    photoQuality: given.photoQuality,
    start: NOTHING,
    onEdit: pin,
    onAnswers: (next) => saver.schedule(next),
    async keepPhoto(question, kept) {
      pin();
      await saveDraftPhoto(account, surveyId, question, kept, formOf(latest.current.survey));
    },
  });
  const { load, mark } = editor;
  const editorRef = useRef(editor);
  editorRef.current = editor;

  useEffect(() => {
    let alive = true;
    setReady(false);
    load(NOTHING);
    loadDraft(account, surveyId)
      .then((draft) => {
        if (!alive) return;
        load({ answers: draft?.answers ?? {}, photos: draft?.photos ?? {}, sent: {} });
        setPinned(draft?.form);
      })
      .catch((err: unknown) => console.error('survey-bird: could not read the draft', err))
      .finally(() => alive && setReady(true));
    const flush = () => {
      if (document.visibilityState === 'hidden') void saver.flush();
    };
    document.addEventListener('visibilitychange', flush);
    window.addEventListener('pagehide', flush);
    return () => {
      alive = false;
      void saver.flush();
      document.removeEventListener('visibilitychange', flush);
      window.removeEventListener('pagehide', flush);
    };
  }, [account, surveyId, saver, load]);

  const submitter = useMemo(() => createSubmitter({
    questions: () => latest.current.survey.questions,
    rules: () => editorRef.current.rules!,
    current: () => editorRef.current.current(),
    async clientId() {
      await saver.flush();
      return (await loadDraft(account, surveyId))?.clientId ?? uuidv7();
    },
    enqueue: async (clientId, a, p) => {
      // A draft saved before drafts kept their version may hold answers to questions a newer version removed.
      const { survey: current } = latest.current;
      const texts = new Set(current.questions.map((q) => q.text));
      const kept = Object.fromEntries(Object.entries(a).filter(([text]) => texts.has(text)));
      // The response's metadata for the quality flags, lazily: the form's chunk has no room for it. A phone that cannot say sends none.
      const meta = await import('./capture-meta').then((m) => m.captureMeta(clientId, current.questions, kept, p)).catch(() => undefined);
      return enqueueResponse({ account, surveyId, organizationId: current.organization_id, answers: kept, photos: p, clientId, version: current.version ?? 1, ...(meta ? { meta } : {}) });
    },
    syncNow: () => void appSync().then((sync) => sync.syncNow()),
    delivery: deliveryOf,
    online: () => navigator.onLine,
    // The survey list the page already reads (one GET, shared with a load in flight): a close made
    // while the form was open shows at this submit, not at the next reload.
    async closedNow() {
      await activeSurveys.load(account, 'fieldUserSurveys');
      const known = activeSurveys.peek(account);
      return known.fetchedAt !== null && known.surveys.some((s) => s._id === surveyId && s.closed === true);
    },
    onClosed() {
      // The refusal said so though the list could not (no reply, or the survey beyond its first page).
      const active = activeSurveys.peek(account).active;
      if (active?._id === surveyId && !active.closed) activeSurveys.setActive(account, { ...active, closed: true });
    },
    onPhase: setPhase,
    onProblems: mark,
    reset() {
      saver.cancel();
      setPinned(undefined);
      load(NOTHING);
      setGeneration((g) => g + 1);
    },
    toast,
  }), [account, surveyId, saver, load, mark]);

  const submit = useCallback(() => void submitter.submit(), [submitter]);

  return {
    ready: ready && editor.ready, questions: survey.questions, editor, answers: editor.answers, photos: editor.photos, processing: editor.processing, phase,
    problems: editor.problems, shown: editor.shown, refusals: editor.refusals, generation, setAnswer: editor.setAnswer, setPhoto: editor.setPhoto, submit,
  };
}
