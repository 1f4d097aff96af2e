import { CONTAINER_QUESTION_TYPES, HIDDEN_QUESTION_TYPES, uuidv7, type Survey } from '@survey-bird/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { appSync, enqueueResponse, getRecord, loadDraft, requestPersistence, saveDraft, saveDraftPhoto, type DraftForm } from '../../offline';
import type { AuditSession } from './audio-audit';
import { toast } from '../../lib/toast-store';
import { useResponseEditor, type Entered, type ResponseEditor } from './use-response-editor';
import { activeSurveys } from '../surveys/active-survey';
import { createDraftSaver, draftWriting } from './draft-saver';
import { createSubmitter, type Delivery, type SubmitPhase } from './form-logic';
import type { AccountKey } from '../../session/account-key';

export interface SurveyForm extends Pick<ResponseEditor, 'answers' | 'photos' | 'processing' | 'problems' | 'shown' | 'refusals' | 'setAnswer' | 'setPhoto'> {
  /** The draft has been read back and the rules loaded: inputs may render. */
  ready: boolean;
  /** The questions shown: those of the version the draft was begun on, else of the survey as given. */
  questions: Survey['questions'];
  /** "Total Questions": what the field user answers (not groups, repeats, calculations or metadata). */
  total: number;
  /** The answers being entered, on the rules the server applies (shared with Fix and Fix and resubmit). */
  editor: ResponseEditor;
  phase: SubmitPhase;
  /** Changes when the form is reset, so uncontrolled inputs (files) start empty. */
  generation: number;
  /** The interview's audio audit is recording (the form says so). */
  recording: boolean;
  submit(): void;
}

const NOTHING: Entered = { answers: {}, photos: {}, sent: {} };

/** Not counted as questions: containers, calculations and the metadata the app fills. */
const UNANSWERED_TYPES = [...CONTAINER_QUESTION_TYPES, ...HIDDEN_QUESTION_TYPES];

const formOf = (s: Survey): DraftForm => ({ version: s.version ?? 1, questions: s.questions });

export async function deliveryOf(id: string): Promise<Delivery | undefined> {
  const r = await getRecord(id);
  if (!r) return undefined;
  if (r.status === 'synced') return { status: 'synced' };
  if (r.status === 'failed') return { status: 'failed', msg: r.lastError?.msg ?? 'The server refused this response' };
  return { status: r.status, photosLeft: r.photoQuestions.filter((q) => !r.photoRefs[q]).length };
}

/** Persistent storage is asked for at the first response of the page (docs/offline.md). */
let askedPersistence = false;

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
    languages: survey,
    account,
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

  // A new response starts with its questions' defaults and its repeats' first instances, once the
  // rules are in (they are not a draft until the user changes something).
  const fresh = useRef(false);
  const startRules = editor.rules;
  useEffect(() => {
    if (!ready || !startRules || !fresh.current) return;
    fresh.current = false;
    const started = startRules.started(latest.current.survey.questions);
    if (Object.keys(started).length > 0) load({ answers: started, photos: {}, sent: {} });
  }, [ready, startRules, load, generation]);

  useEffect(() => {
    let alive = true;
    setReady(false);
    load(NOTHING);
    // Read only once a write still in flight from the form's previous mount has ended.
    const writing = draftWriting(account, surveyId);
    (writing ? writing.then(() => loadDraft(account, surveyId)) : loadDraft(account, surveyId))
      .then((draft) => {
        if (!alive) return;
        load({ answers: draft?.answers ?? {}, photos: draft?.photos ?? {}, sent: {} });
        setPinned(draft?.form);
        fresh.current = draft === undefined;
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

  // The audio audit of the interview in progress (audio-audit.ts, loaded only on a survey with audits
  // on): decided from the draft's clientId when the form is ready, finished at submit.
  const audit = useRef<Promise<AuditSession | null> | null>(null);
  const [recording, setRecording] = useState(false);
  // By value: a survey list refresh hands a new object with the same settings, which must not restart the interview's audit.
  const auditKey = given.audioAudit ? JSON.stringify(given.audioAudit) : '';
  useEffect(() => {
    const auditConfig = auditKey ? (JSON.parse(auditKey) as NonNullable<Survey['audioAudit']>) : null;
    if (!ready || !auditConfig) return;
    let alive = true;
    const session = (async () => {
      await saver.flush();
      // The decision needs the clientId the response will be sent with: a draft row keeps it.
      let draft = await loadDraft(account, surveyId);
      if (!draft?.updatedAt) {
        await saveDraft(account, surveyId, draft?.answers ?? {}, formOf(latest.current.survey));
        draft = await loadDraft(account, surveyId);
      }
      const { startAudit } = await import('./audio-audit');
      return alive ? startAudit(auditConfig, draft!.clientId) : null;
    })().catch((err: unknown) => {
      console.error('survey-bird: the audio audit could not start', err);
      return null;
    });
    audit.current = session;
    void session.then((s) => alive && setRecording(s?.recording === true));
    return () => {
      alive = false;
      setRecording(false);
      void session.then((s) => s?.cancel());
      if (audit.current === session) audit.current = null;
    };
  }, [ready, generation, account, surveyId, saver, auditKey]);

  const submitter = useMemo(() => createSubmitter({
    questions: () => latest.current.survey.questions,
    rules: () => editorRef.current.rules!,
    current: () => editorRef.current.current(),
    language: () => editorRef.current.language,
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
      const capture = await import('./capture-meta').catch(() => undefined);
      const meta = await capture?.captureMeta(clientId, current.questions, kept, p).catch(() => undefined);
      // The form's metadata questions (start, end, today, deviceid, username, email) from what the phone knows.
      const filled = capture ? capture.withMetadata(current.questions, kept, { clientId, email: account }) : kept;
      // The recording stops here; the clip goes into the outbox with the response and is sent after it.
      const session = await audit.current;
      const audio = session ? await session.finish().catch(() => undefined) : undefined;
      const id = await enqueueResponse({ account, surveyId, organizationId: current.organization_id, answers: filled, photos: p, clientId, version: current.version ?? 1, ...(meta ? { meta } : {}), ...(audio ? { audio } : {}), ...(current.encryptionKey ? { encryptTo: current.encryptionKey } : {}) });
      // The first response is the moment the phone holds work of its own: ask the browser to keep it (once per page).
      if (!askedPersistence) {
        askedPersistence = true;
        void requestPersistence();
      }
      return id;
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
      fresh.current = true;
      setGeneration((g) => g + 1);
    },
    toast,
  }), [account, surveyId, saver, load, mark]);

  const submit = useCallback(() => void submitter.submit(), [submitter]);

  return {
    ready: ready && editor.ready, questions: survey.questions, total: survey.questions.filter((q) => !(UNANSWERED_TYPES as readonly string[]).includes(q.type)).length, editor, answers: editor.answers, photos: editor.photos, processing: editor.processing, phase,
    problems: editor.problems, shown: editor.shown, refusals: editor.refusals, generation, recording, setAnswer: editor.setAnswer, setPhoto: editor.setPhoto, submit,
  };
}
