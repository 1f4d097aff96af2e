import { IMAGE_QUESTION_TYPES, Limits, Msg, type Answer, type Answers, type Survey } from '@survey-bird/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { downscalePhoto } from '../../offline';
import type { AccountKey } from '../../session/account-key';
import { useStore } from '../../lib/store';
import { toast } from '../../lib/toast-store';
import { problemsToast, type FormRules, type Photos, type Problems, type SentPhotos } from './form-logic';
import { pathKey, withInstanceAdded, withInstanceRemoved, withAnswerAt, type AnswerPath } from './answer-path';
import { formLanguages, languageFor, rememberLanguage } from './form-language';
import type { RepeatView, ViewNode } from './form-view';
import { t } from '../../lib/i18n';

/** What an editor starts from: answers, photos on the phone, and photos already on the server. */
export interface Entered {
  answers: Answers;
  photos: Photos;
  sent: SentPhotos;
}

export interface ResponseEditorOptions {
  questions: Survey['questions'];
  /** The survey's languages: the editor opens in the account's remembered one when offered, else the default, else the first. */
  languages?: Pick<Survey, 'languages' | 'defaultLanguage'> | undefined;
  /** Whose remembered language to use and keep (none: the survey's default, not remembered). */
  account?: AccountKey | undefined;
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
  /** The keys (pathKey: the text, or `Repeat#n/text` inside a repeat) of the questions shown, once `ready`. */
  shown: ReadonlySet<string>;
  /** The form as the screen draws it (groups, repeats' instances, what is relevant), once `ready`. */
  view: readonly ViewNode[];
  /** Counts refused checks, so the screen moves to the first problem each time. */
  refusals: number;
  /** The language the texts are shown in (undefined: the survey has none besides its own texts). */
  language: string | undefined;
  setLanguage(code: string): void;
  /** A question's answer: at the top by its text, or anywhere by its path. */
  setAnswer(question: string | AnswerPath, value: Answer): void;
  /** An instance more at the end of an open-ended repeat, with its questions' defaults. */
  addInstance(repeat: Pick<RepeatView, 'at' | 'question'>): void;
  /** One instance less (the later ones move up), with its photos. */
  removeInstance(repeat: Pick<RepeatView, 'at' | 'question'>, index: number): void;
  /** A photo (or recording, video, file: `type` says which) by the key of its question (pathKey). */
  setPhoto(question: string, photo: Blob | null, type?: string): Promise<void>;
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
export function useResponseEditor({ questions, languages, account, photoQuality, start, onEdit, onAnswers, keepPhoto }: ResponseEditorOptions): ResponseEditor {
  const [answers, setAnswers] = useState<Answers>(start.answers);
  const [photos, setPhotos] = useState<Photos>(start.photos);
  const [sent, setSent] = useState<SentPhotos>(start.sent);
  const [processing, setProcessing] = useState<ReadonlySet<string>>(new Set());
  const [marked, setMarked] = useState<Problems>({});
  const [refusals, setRefusals] = useState(0);
  // A lazy chunk (kept offline by the service worker), so the form's route stays within its budget.
  const [rules, setRules] = useState<FormRules | null>(null);
  useEffect(() => {
    void import('./form-rules').then((m) => setRules(m.formRules));
  }, []);

  const remembered = useStore(formLanguages);
  const language = languageFor(languages ?? {}, account === undefined ? undefined : remembered[account]);
  const [chosen, setChosen] = useState<string | undefined>();
  const shownLanguage = chosen ?? language;
  const setLanguage = useCallback((code: string) => {
    setChosen(code);
    if (account !== undefined) rememberLanguage(account, code);
  }, [account]);

  const latest = useRef({ answers, photos, sent, questions, rules, photoQuality, onEdit, onAnswers, keepPhoto, language: shownLanguage });
  latest.current = { answers, photos, sent, questions, rules, photoQuality, onEdit, onAnswers, keepPhoto, language: shownLanguage };

  const unmark = useCallback((question: string) => {
    setMarked((prev) => {
      if (!Object.hasOwn(prev, question)) return prev;
      const { [question]: _fixed, ...rest } = prev;
      return rest;
    });
  }, []);

  /** Applies a change, then the rules: hidden answers cleared, calculations and fixed repeat counts kept up (a hidden photo is dropped by validate). */
  const change = useCallback((edit: (prev: Answers) => Answers) => {
    latest.current.onEdit?.();
    setAnswers((prev) => {
      const { rules: r, questions: qs, photos: p, sent: s } = latest.current;
      const edited = edit(prev);
      const next = r ? r.answered(qs, edited, p, s) : edited;
      latest.current.onAnswers?.(next);
      return next;
    });
  }, []);

  const setAnswer = useCallback((question: string | AnswerPath, value: Answer) => {
    const path = typeof question === 'string' ? { at: [], question } : question;
    unmark(pathKey(path));
    change((prev) => withAnswerAt(prev, path, value));
  }, [unmark, change]);

  const addInstance = useCallback((repeat: Pick<RepeatView, 'at' | 'question'>) => {
    unmark(pathKey({ at: repeat.at, question: repeat.question.text }));
    change((prev) => withInstanceAdded(prev, repeat.at, repeat.question.text, latest.current.rules?.newInstance(latest.current.questions, repeat.question.id) ?? {}));
  }, [unmark, change]);

  const removeInstance = useCallback((repeat: Pick<RepeatView, 'at' | 'question'>, index: number) => {
    // The removed instance's photos go with it; later instances' photos move up with their answers.
    const prefix = pathKey({ at: repeat.at, question: repeat.question.text });
    const moved = <T,>(from: Record<string, T>): Record<string, T> => {
      const out: Record<string, T> = {};
      for (const [key, value] of Object.entries(from)) {
        const m = key.startsWith(`${prefix}#`) ? /^#(\d+)(\/.*)$/.exec(key.slice(prefix.length)) : null;
        if (!m) out[key] = value;
        else if (Number(m[1]) - 1 > index) out[`${prefix}#${Number(m[1]) - 1}${m[2]}`] = value;
        else if (Number(m[1]) - 1 < index) out[key] = value;
      }
      return out;
    };
    setPhotos(moved);
    setSent(moved);
    setMarked({});
    change((prev) => withInstanceRemoved(prev, repeat.at, repeat.question.text, index));
  }, [change]);

  const setPhoto = useCallback(async (question: string, photo: Blob | null, type?: string) => {
    setProcessing((s) => new Set(s).add(question));
    try {
      // A picture is shrunk (a signature's PNG is small enough to be kept as drawn); a recording,
      // video or document is kept as it is (MediaQuestion has checked its type's cap).
      const image = type === undefined || (IMAGE_QUESTION_TYPES as readonly string[]).includes(type);
      const kept = photo && image ? await downscalePhoto(photo, latest.current.photoQuality) : photo;
      // The server refuses larger uploads (413): said now rather than after a day offline.
      if (kept && image && kept.size > Limits.maxImageBytes) {
        setMarked((prev) => ({ ...prev, [question]: Msg.payloadTooLarge }));
        toast.error(t('msg.payloadTooLarge'));
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
      toast.error(t('msg.errorProcessingImages'));
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
    const { rules: r, questions: qs, answers: a, photos: p, sent: s, language: l } = latest.current;
    if (!r) return null;
    const checked = r.check(qs, a, p, s, l);
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
  const view = useMemo(() => rules?.view(questions, answers, photos, marked, sent, shownLanguage) ?? { shown: new Set<string>(), problems: marked, view: [] }, [rules, questions, answers, photos, marked, sent, shownLanguage]);

  return {
    ready: rules !== null, rules, questions, answers, photos, sent, processing, problems: view.problems, shown: view.shown, view: view.view, refusals,
    language: shownLanguage, setLanguage, setAnswer, addInstance, removeInstance, setPhoto, validate, mark, load, current,
  };
}
