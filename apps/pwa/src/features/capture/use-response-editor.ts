import { Limits, Msg, type Answer, type Answers, type Survey } from '@survey-bird/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { downscalePhoto } from '../../offline';
import { toast } from '../../ui/toast-store';
import { problemsToast, type FormRules, type Photos, type Problems, type SentPhotos } from '../field-user/form-logic';

/** What an editor starts from: answers, photos on the phone, and photos already on the server. */
export interface Entered {
  answers: Answers;
  photos: Photos;
  sent: SentPhotos;
}

export interface ResponseEditorOptions {
  questions: Survey['questions'];
  /** The survey's current photo quality: a new photo is shrunk to it. */
  photoQuality: Survey['photoQuality'];
  /** What the editor shows first (a Fix: the response as it was; the form: empty until its draft is read). */
  start: Entered;
  /** Before an answer changes (the form pins the version its draft was begun on). */
  onEdit?: () => void;
  /** After each change of the answers (the form saves its draft). */
  onAnswers?: (answers: Answers) => void;
  /** Keeps a photo before it shows (the form's draft); a throw refuses it. */
  keepPhoto?: (question: string, photo: Blob | null) => Promise<void>;
}

export interface ResponseEditor extends Entered {
  /** The rules are loaded: questions may render, and `validate` may run. */
  ready: boolean;
  /** The rules module (lazy), once loaded. */
  rules: FormRules | null;
  questions: Survey['questions'];
  /** Questions whose photo is being shrunk and kept. */
  processing: ReadonlySet<string>;
  /** What to fix per question: answers breaking a rule (live), and what the last refused check found. */
  problems: Problems;
  /** The texts of the questions shown (show-if on earlier answers), once `ready`. */
  shown: ReadonlySet<string>;
  /** Counts refused checks, so the screen moves to the first problem each time. */
  refusals: number;
  setAnswer(question: string, value: Answer): void;
  setPhoto(question: string, photo: Blob | null): Promise<void>;
  /** What is entered as the server will receive it, or null after marking every problem and toasting their true number. */
  validate(): (Entered & { problems: Problems }) | null;
  /** Marks problems found elsewhere (the form's submit); a refusal when there are any. */
  mark(problems: Problems): void;
  /** Replaces what is entered (a draft read back, a reset after a submit) and clears the marks. */
  load(entered: Entered): void;
  /** What is entered right now (for callbacks that outlive a render). */
  current(): Entered;
}

/**
 * One response being entered or fixed, on the rules the server refuses a response by (the
 * contracts' answerIssues through form-rules.ts): the new-response form, Fix (a response the
 * server refused) and Fix and resubmit (one a reviewer returned) all edit through it, so a
 * hidden question is neither shown nor needed, and a broken constraint or type blocks with its
 * message before anything is queued.
 */
export function useResponseEditor({ questions, photoQuality, start, onEdit, onAnswers, keepPhoto }: ResponseEditorOptions): ResponseEditor {
  const [answers, setAnswers] = useState<Answers>(start.answers);
  const [photos, setPhotos] = useState<Photos>(start.photos);
  const [sent, setSent] = useState<SentPhotos>(start.sent);
  const [processing, setProcessing] = useState<ReadonlySet<string>>(new Set());
  const [marked, setMarked] = useState<Problems>({});
  const [refusals, setRefusals] = useState(0);
  // A lazy chunk (kept offline by the service worker), so the form's route stays within its budget.
  const [rules, setRules] = useState<FormRules | null>(null);
  useEffect(() => {
    void import('../field-user/form-rules').then((m) => setRules(m.formRules));
  }, []);

  const latest = useRef({ answers, photos, sent, questions, rules, photoQuality, onEdit, onAnswers, keepPhoto });
  latest.current = { answers, photos, sent, questions, rules, photoQuality, onEdit, onAnswers, keepPhoto };

  const unmark = useCallback((question: string) => {
    setMarked((prev) => {
      if (!Object.hasOwn(prev, question)) return prev;
      const { [question]: _fixed, ...rest } = prev;
      return rest;
    });
  }, []);

  const setAnswer = useCallback((question: string, value: Answer) => {
    unmark(question);
    latest.current.onEdit?.();
    setAnswers((prev) => {
      const { rules: r, questions: qs, photos: p, sent: s } = latest.current;
      // An answer that hides later questions clears theirs (a hidden photo is dropped by validate).
      const next = r ? r.answered(qs, { ...prev, [question]: value }, p, s) : { ...prev, [question]: value };
      latest.current.onAnswers?.(next);
      return next;
    });
  }, [unmark]);

  const setPhoto = useCallback(async (question: string, photo: Blob | null) => {
    setProcessing((s) => new Set(s).add(question));
    try {
      // A signature's PNG is small enough to be kept as drawn (downscalePhoto keeps a small PNG).
      const kept = photo ? await downscalePhoto(photo, latest.current.photoQuality) : null;
      // The server refuses larger uploads (413): said now rather than after a day offline.
      if (kept && kept.size > Limits.maxImageBytes) {
        setMarked((prev) => ({ ...prev, [question]: Msg.payloadTooLarge }));
        toast.error(Msg.payloadTooLarge);
        return;
      }
      unmark(question);
      await latest.current.keepPhoto?.(question, kept);
      setPhotos((prev) => {
        const { [question]: _old, ...rest } = prev;
        return kept ? { ...rest, [question]: kept } : rest;
      });
    } catch (err) {
      console.error('survey-bird: could not keep the photo', err);
      toast.error(Msg.errorProcessingImages);
    } finally {
      setProcessing((s) => {
        const next = new Set(s);
        next.delete(question);
        return next;
      });
    }
  }, [unmark]);

  const mark = useCallback((found: Problems) => {
    setMarked(found);
    if (Object.keys(found).length > 0) setRefusals((n) => n + 1);
  }, []);

  const validate = useCallback(() => {
    const { rules: r, questions: qs, answers: a, photos: p, sent: s } = latest.current;
    if (!r) return null;
    const checked = r.check(qs, a, p, s);
    mark(checked.problems);
    if (Object.keys(checked.problems).length === 0) return checked;
    toast.error(problemsToast(checked.problems));
    return null;
  }, [mark]);

  const load = useCallback((entered: Entered) => {
    setAnswers(entered.answers);
    setPhotos(entered.photos);
    setSent(entered.sent);
    setMarked((prev) => (Object.keys(prev).length === 0 ? prev : {}));
  }, []);

  const current = useCallback(() => ({ answers: latest.current.answers, photos: latest.current.photos, sent: latest.current.sent }), []);

  // Questions render once the rules are in (`ready`), so `shown` is read only then.
  const view = useMemo(() => rules?.view(questions, answers, photos, marked, sent) ?? { shown: new Set<string>(), problems: marked }, [rules, questions, answers, photos, marked, sent]);

  return { ready: rules !== null, rules, questions, answers, photos, sent, processing, problems: view.problems, shown: view.shown, refusals, setAnswer, setPhoto, validate, mark, load, current };
}
