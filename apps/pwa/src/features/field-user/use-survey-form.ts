import { Limits, Msg, uuidv7, type Answer, type Answers, type Survey } from '@survey-bird/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { appSync } from '../../app-sync';
import { downscalePhoto, enqueueResponse, getRecord, loadDraft, saveDraftPhoto, type DraftForm } from '../../offline';
import { toast } from '../../ui/toast-store';
import { createDraftSaver } from './draft-saver';
import { createSubmitter, type Delivery, type FormRules, type Photos, type Problems, type SubmitPhase } from './form-logic';

export interface SurveyForm {
  /** The draft has been read back: inputs may render. */
  ready: boolean;
  /** The questions shown: those of the version the draft was begun on, else of the survey as given. */
  questions: Survey['questions'];
  answers: Answers;
  photos: Photos;
  /** Questions whose photo is being shrunk and saved. */
  processing: ReadonlySet<string>;
  phase: SubmitPhase;
  /** What to fix per question: answers breaking the form's rules (live), and from the last refused submit (or a photo over the limit). */
  problems: Problems;
  /** The texts of the questions shown (issue 17: show-if on earlier answers), once `ready`. */
  shown: ReadonlySet<string>;
  /** Counts refused submits, so the screen moves to the first problem each time. */
  refusals: number;
  /** Changes when the form is reset, so uncontrolled inputs (files) start empty. */
  generation: number;
  setAnswer(question: string, value: Answer): void;
  setPhoto(question: string, photo: Blob | null): Promise<void>;
  submit(): void;
}

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
export function useSurveyForm(account: string, given: Survey): SurveyForm {
  const surveyId = given._id;
  // The version the draft in progress was begun on (pinned by its first answer or photo).
  const [pinned, setPinned] = useState<DraftForm | undefined>();
  const survey = useMemo(() => (pinned ? { ...given, ...pinned } : given), [given, pinned]);
  const [ready, setReady] = useState(false);
  const [answers, setAnswers] = useState<Answers>({});
  const [photos, setPhotos] = useState<Photos>({});
  const [processing, setProcessing] = useState<ReadonlySet<string>>(new Set());
  const [phase, setPhase] = useState<SubmitPhase>('idle');
  const [generation, setGeneration] = useState(0);
  const [problems, setProblems] = useState<Problems>({});
  const [refusals, setRefusals] = useState(0);
  const fixed = useCallback((question: string) => {
    setProblems((prev) => {
      if (!Object.hasOwn(prev, question)) return prev;
      const { [question]: _fixed, ...rest } = prev;
      return rest;
    });
  }, []);
  // Show-if, constraints and typed answers: a lazy chunk (kept offline by the service worker), so
  // the form's route stays within its budget. The same module for every survey: setting it after
  // an unmount is harmless.
  const [rules, setRules] = useState<FormRules | null>(null);
  useEffect(() => {
    void import('./form-rules').then((m) => setRules(m.formRules));
  }, []);
  const latest = useRef({ answers, photos, survey, rules });
  latest.current = { answers, photos, survey, rules };
  const pin = useCallback(() => setPinned((p) => p ?? formOf(latest.current.survey)), []);

  const saver = useMemo(() => createDraftSaver(account, surveyId, () => formOf(latest.current.survey)), [account, surveyId]);

  useEffect(() => {
    let alive = true;
    // Only a change of survey has anything to clear: on mount these leave the state as it is (no render).
    setReady(false);
    setAnswers((prev) => (Object.keys(prev).length === 0 ? prev : {}));
    setPhotos((prev) => (Object.keys(prev).length === 0 ? prev : {}));
    loadDraft(account, surveyId)
      .then((draft) => {
        if (!alive) return;
        setAnswers(draft?.answers ?? {});
        setPhotos(draft?.photos ?? {});
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
  }, [account, surveyId, saver]);

  const setAnswer = useCallback((question: string, value: Answer) => {
    fixed(question);
    pin();
    setAnswers((prev) => {
      const all = { ...prev, [question]: value };
      // An answer that hides later questions clears theirs (a hidden photo is dropped at submit).
      const next = latest.current.rules!.answered(latest.current.survey.questions, all, latest.current.photos);
      saver.schedule(next);
      return next;
    });
  }, [saver, fixed, pin]);

  const setPhoto = useCallback(async (question: string, photo: Blob | null) => {
    setProcessing((s) => new Set(s).add(question));
    try {
      // A signature's PNG is small enough to be kept as drawn (downscalePhoto keeps a small PNG).
      // The survey's current photo quality (issue 19), even on a draft pinned to an older version.
      const kept = photo ? await downscalePhoto(photo, latest.current.survey.photoQuality) : null;
      // The server refuses larger uploads (413): say so now rather than after a day offline.
      if (kept && kept.size > Limits.maxImageBytes) {
        setProblems((prev) => ({ ...prev, [question]: Msg.payloadTooLarge }));
        toast.error(Msg.payloadTooLarge);
        return;
      }
      fixed(question);
      pin();
      await saveDraftPhoto(account, surveyId, question, kept, formOf(latest.current.survey));
      setPhotos((prev) => {
        const { [question]: _old, ...rest } = prev;
        return kept ? { ...rest, [question]: kept } : rest;
      });
    } catch (err) {
      console.error('survey-bird: could not keep the photo', err);
      toast.error('Error processing images');
    } finally {
      setProcessing((s) => {
        const next = new Set(s);
        next.delete(question);
        return next;
      });
    }
  }, [account, surveyId, fixed, pin]);

  const submitter = useMemo(() => createSubmitter({
    questions: () => latest.current.survey.questions,
    rules: () => latest.current.rules!,
    current: () => latest.current,
    async clientId() {
      await saver.flush();
      return (await loadDraft(account, surveyId))?.clientId ?? uuidv7();
    },
    enqueue: async (clientId, a, p) => {
      // A draft saved before drafts kept their version may hold answers to questions a newer version removed.
      const { survey: current } = latest.current;
      const texts = new Set(current.questions.map((q) => q.text));
      const kept = Object.fromEntries(Object.entries(a).filter(([text]) => texts.has(text)));
      // Issue 18's metadata, lazily: the form's chunk has no room for it. A phone that cannot say sends none.
      const meta = await import('./capture-meta').then((m) => m.captureMeta(clientId, current.questions, kept, p)).catch(() => undefined);
      return enqueueResponse({ account, surveyId, organizationId: current.organization_id, answers: kept, photos: p, clientId, version: current.version ?? 1, ...(meta ? { meta } : {}) });
    },
    syncNow: () => void appSync().then((sync) => sync.syncNow()),
    delivery: deliveryOf,
    online: () => navigator.onLine,
    onPhase: setPhase,
    onProblems(found) {
      setProblems(found);
      if (Object.keys(found).length > 0) setRefusals((n) => n + 1);
    },
    reset() {
      saver.cancel();
      setPinned(undefined);
      setAnswers({});
      setPhotos({});
      setGeneration((g) => g + 1);
    },
    toast,
  }), [account, surveyId, saver]);

  const submit = useCallback(() => void submitter.submit(), [submitter]);

  // Questions render once the rules are in (`ready`), so `shown` is read only then.
  const view = useMemo(() => rules?.view(survey.questions, answers, photos, problems) ?? { shown: new Set<string>(), problems }, [rules, survey.questions, answers, photos, problems]);

  return { ready: ready && rules !== null, questions: survey.questions, answers, photos, processing, phase, problems: view.problems, shown: view.shown, refusals, generation, setAnswer, setPhoto, submit };
}
