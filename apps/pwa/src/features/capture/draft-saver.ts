import type { Answers } from '@survey-bird/contracts';
import { saveDraft, type DraftForm } from '../../offline';
import type { AccountKey } from '../../session/account-key';

export const DRAFT_DELAY_MS = 300;

/**
 * The last draft write started per account and survey, across savers: a form left and opened
 * again mounts a new saver while the old one's unmount flush is still sealing and writing, and the
 * new form must read the draft only after it (or it shows the answers from before the last words).
 */
const inFlight = new Map<string, Promise<void>>();
const keyOf = (account: AccountKey, surveyId: string) => `${account}\u0000${surveyId}`;

/** Every draft write already started for this survey, or undefined when none is. */
export function draftWriting(account: AccountKey, surveyId: string): Promise<void> | undefined {
  return inFlight.get(keyOf(account, surveyId));
}

/**
 * Saves the answers being typed at most every DRAFT_DELAY_MS, in order. flush() writes what is
 * pending now (before submitting, or when the page hides); cancel() drops it (after the draft
 * became a queued response, a late save must not bring the draft back).
 */
/** `form`: the version the answers are typed on, kept with a new draft (a draft keeps its first). */
export function createDraftSaver(account: AccountKey, surveyId: string, form?: () => DraftForm, delayMs = DRAFT_DELAY_MS) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: Answers | null = null;
  const key = keyOf(account, surveyId);
  // Writes stay in order across savers of the same draft.
  let writing: Promise<void> = draftWriting(account, surveyId) ?? Promise.resolve();

  function write(): Promise<void> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending === null) return writing;
    const answers = pending;
    pending = null;
    writing = writing
      .then(() => saveDraft(account, surveyId, answers, form?.()))
      .catch((err: unknown) => console.error('survey-bird: could not save the draft', err));
    const mine = writing;
    inFlight.set(key, mine);
    void mine.then(() => {
      if (inFlight.get(key) === mine) inFlight.delete(key);
    });
    return writing;
  }

  return {
    schedule(answers: Answers): void {
      pending = answers;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => void write(), delayMs);
    },
    flush: write,
    cancel(): void {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = null;
    },
    /** Waits for writes already started (a cancelled save may still be in flight). */
    settled: (): Promise<void> => writing,
  };
}

export type DraftSaver = ReturnType<typeof createDraftSaver>;
