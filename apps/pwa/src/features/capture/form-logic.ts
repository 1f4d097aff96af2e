import { UPLOAD_QUESTION_TYPES, isChoiceList, isRepeatAnswer, Msg, repeatSummary, QuestionType, type Answer, type Answers, type StoredQuestion } from '@survey-bird/contracts';
import type { ViewNode } from './form-view';
import { refusedAsClosed, submitNotice, type Delivered } from './closed-at-submit';
import { msgId, t } from '../../lib/i18n';
import { ruleText } from './rule-text';

/**
 * The rules of the field-user form, free of React and IndexedDB so they can be tested alone.
 *
 * An answer key exists once the user has answered or touched a question: typing (even if the text
 * is then cleared), choosing an option, ticking or unticking a checkbox, capturing a location, or
 * choosing or taking a photo. Photo answers live beside the answers (`photos`) until the outbox
 * uploads them and puts the server's reference in the answer.
 */

export type Photos = Record<string, Blob>;

/** Question text -> the server's reference of a photo already sent (a Fix keeps it unless another is chosen). */
export type SentPhotos = Record<string, string>;

/** A question answered by a file the outbox uploads: a photo, signature, recording, video or document. */
export const isPhotoQuestion = (q: { type: string }): boolean => (UPLOAD_QUESTION_TYPES as readonly string[]).includes(q.type);

export type FormQuestion = Omit<StoredQuestion, 'id'> & { id?: string | undefined };

/**
 * Relevance, required, read-only, constraints, calculations, choice filters, repeat counts and
 * typed answers: form-rules.ts, on the contracts' form state (the one the API refuses by), loaded
 * lazily so the form's route stays within its budget. Answers may nest (a repeat's answer is a list
 * of instance objects); photos, sent photos and problems are keyed by pathKey (answer-path.ts).
 */
export interface FormRules {
  /** Before a response is queued: what is entered without hidden (or unknown) questions', calculations filled, and every problem the server would refuse it for. */
  check(questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent?: SentPhotos, language?: string): { answers: Answers; photos: Photos; sent: SentPhotos; problems: Problems };
  /** The answers after one changed: without those of the questions it hid, calculations and fixed repeat counts up to date. */
  answered(questions: readonly FormQuestion[], answers: Answers, photos: Photos, sent?: SentPhotos): Answers;
  /** What the form shows: its tree for these answers, the keys of the questions shown, and the live problems merged over `problems`. */
  view(questions: readonly FormQuestion[], answers: Answers, photos: Photos, problems: Problems, sent?: SentPhotos, language?: string): { shown: Set<string>; problems: Problems; view: ViewNode[] };
  /** A new instance of a repeat: its questions' defaults. */
  newInstance(questions: readonly FormQuestion[], repeatId: string): Answers;
  /** A new response: the defaults of its top-level questions, and the instances its repeats start with. */
  started(questions: readonly FormQuestion[]): Answers;
}

/** The spec's own types (the first eight of QuestionType); QuestionField renders the others through TypedInput. */
export const PLAIN_TYPES: readonly string[] = Object.values(QuestionType).slice(0, 8);


/** Question text -> what is wrong with its answer, shown under the question. */
export type Problems = Record<string, string>;

/**
 * The toast for a refused submit, with the true number of answers that block it: missing
 * compulsory answers and answers to correct (a constraint, a type, a limit) alike.
 */
export function problemsToast(problems: Problems): string {
  const all = Object.values(problems);
  const missing = all.filter((m) => m === Msg.answerRequired).length;
  if (missing === all.length) return t('form.compulsoryMissing', { count: missing });
  if (all.length === 1) return ruleText(all[0]!);
  const wrong = all.length - missing;
  return missing > 0 ? t('form.needAttentionMissing', { count: all.length, missing, wrong }) : t('form.needAttention', { count: all.length, wrong });
}

/** A checkbox answer is the ticked options, in the question's order. */
export function toggleOption(options: readonly string[], current: Answer | undefined, option: string, checked: boolean): string[] {
  const ticked = new Set(isChoiceList(current) ? current : []);
  if (checked) ticked.add(option);
  else ticked.delete(option);
  return options.filter((o) => ticked.has(o));
}

/** Each location answer this page captured, with its fix's accuracy and time: sent with the response. */
export const locationFixes = new Map<string, { accuracy: number; at: number }>();

/** A live location as the answer stores it: '6.524379, 3.379206 (±12 m)'. */
export function formatLocation(coords: Pick<GeolocationCoordinates, 'latitude' | 'longitude' | 'accuracy'>): string {
  return `${coords.latitude.toFixed(6)}, ${coords.longitude.toFixed(6)} (±${Math.round(coords.accuracy)} m)`;
}

/** What a saved answer shows in lists: checkbox lists joined by comma (spec section 3), a repeat as its count. */
export function answerText(answer: Answer | undefined): string {
  if (answer === undefined) return '';
  if (isRepeatAnswer(answer)) return repeatSummary(answer.length);
  return isChoiceList(answer) ? answer.join(', ') : answer;
}

/* ---- Submitting (spec section 4: idle, uploading images, sending response, reset) ---- */

export type SubmitPhase = 'idle' | 'uploading' | 'sending';

export const SUBMIT_LABEL: Record<SubmitPhase, string> = {
  idle: msgId('form.submit'),
  uploading: msgId('form.uploadingImages'),
  sending: msgId('form.sendingResponse'),
};

/** How a queued response stands while the form waits for it. */
export type Delivery = { status: 'queued' | 'sending'; photosLeft: number } | { status: 'synced' } | { status: 'failed'; msg: string };

export type SubmitOutcome = 'ignored' | 'incomplete' | 'sent' | 'saved' | 'failed';

export interface SubmitDeps {
  questions: () => readonly FormQuestion[];
  /** The form's rules module (the form renders, and so submits, only once it is loaded). */
  rules: () => FormRules;
  /** The answers and photos on screen. */
  current: () => { answers: Answers; photos: Photos };
  /** The language the form is shown in (its required and constraint messages). */
  language?: () => string | undefined;
  /** Writes any pending draft save and returns the draft's clientId (the idempotency key). */
  clientId: () => Promise<string>;
  /** Queues the response with its photos (consuming the draft); resolves with the record id. */
  enqueue: (clientId: string, answers: Answers, photos: Photos) => Promise<string>;
  /** Asks the sync to run now; never awaited for long. */
  syncNow: () => void;
  /** The record's state, or undefined when it is gone. */
  delivery: (id: string) => Promise<Delivery | undefined>;
  online: () => boolean;
  /**
   * Online only, started with the sync: whether the survey is closed now, as the survey list the
   * page reads says (false when it cannot tell). Without it the form learns of a close at reload.
   */
  closedNow?: () => Promise<boolean>;
  /** The survey is closed: the page shows the closed-survey screen instead of the form. */
  onClosed?: () => void;
  onPhase: (phase: SubmitPhase) => void;
  /** Marks the questions to fix (empty when the form is accepted). */
  onProblems?: (problems: Problems) => void;
  /** Clears answers, file inputs and the captured photo. */
  reset: () => void;
  toast: { error(text: string): void; success(text: string): void; warning(text: string): void };
  /** How long the form waits for the server before saying the response will go later. */
  waitMs?: number;
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * The submit button's state machine. Every response goes through the outbox first, so nothing is
 * lost whatever the network does; the form then waits a few seconds to tell the user whether the
 * server already has it ('response sent!') or it will go later ('saved, will send when online').
 */
export function createSubmitter(deps: SubmitDeps) {
  let busy = false;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = deps.now ?? Date.now;

  async function waitForServer(id: string, hasPhotos: boolean, deadline: number): Promise<Delivered> {
    for (;;) {
      const d = await deps.delivery(id);
      if (!d) return { outcome: 'saved' };
      if (d.status === 'synced') return { outcome: 'sent' };
      if (d.status === 'failed') return { outcome: 'failed', msg: d.msg };
      deps.onPhase(hasPhotos && d.photosLeft > 0 ? 'uploading' : 'sending');
      if (!deps.online() || now() >= deadline) return { outcome: 'saved' };
      await sleep(deps.pollMs ?? 250);
    }
  }

  /** The survey list's answer, waited for no longer than the server's: a slow link never holds the button. */
  async function closedBy(check: Promise<boolean>, deadline: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - now()));
    });
    try {
      return await Promise.race([check, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function submit(): Promise<SubmitOutcome> {
    if (busy) return 'ignored';
    // Answers to questions an earlier answer hid are never sent (the server would refuse them).
    const { answers: a, photos: p } = deps.current();
    // Hidden questions' answers are never sent (the server would refuse them).
    const { answers, photos, problems } = deps.rules().check(deps.questions(), a, p, {}, deps.language?.());
    deps.onProblems?.(problems);
    if (Object.keys(problems).length > 0) {
      deps.toast.error(problemsToast(problems));
      return 'incomplete';
    }
    busy = true;
    const hasPhotos = Object.keys(photos).length > 0;
    deps.onPhase(hasPhotos ? 'uploading' : 'sending');
    try {
      let id: string;
      try {
        id = await deps.enqueue(await deps.clientId(), answers, photos);
      } catch (err) {
        // Not even the phone could keep it (storage full or blocked): keep the answers on screen.
        console.error('survey-bird: could not queue the response', err);
        deps.toast.error(hasPhotos ? Msg.errorProcessingImages : Msg.unexpectedError);
        return 'failed';
      }
      // It is in the outbox now: the form starts afresh whatever the network does next.
      deps.reset();
      deps.syncNow();
      const online = deps.online();
      const deadline = now() + (deps.waitMs ?? 5000);
      // Asked alongside the sync, not before the queue: the answers are kept whatever the reply.
      const check = online && deps.closedNow ? deps.closedNow().catch(() => false) : Promise.resolve(false);
      const delivered: Delivered = online ? await waitForServer(id, hasPhotos, deadline) : { outcome: 'saved' };
      const closed = refusedAsClosed(delivered) || (await closedBy(check, deadline));
      const notice = submitNotice(delivered, closed);
      deps.toast[notice.tone](notice.tone === 'error' ? ruleText(notice.text) : notice.text);
      if (closed) deps.onClosed?.();
      return delivered.outcome;
    } finally {
      busy = false;
      deps.onPhase('idle');
    }
  }

  return { submit, isBusy: () => busy };
}
