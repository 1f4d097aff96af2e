import { uuidv7, type Answers } from '@survey-bird/contracts';
import { accountKey, type AccountKey, db, type DraftForm } from './db';
import { readPhotos, storePhoto } from './photo-store';
import { openDraftAnswers } from './sealing';
import { sealJson } from './vault';

/**
 * The answers a user is typing, one draft per account and survey, saved as they go so a closed
 * tab or a dead battery loses nothing. enqueueResponse consumes the draft of its survey.
 * Writes are single small puts; the form may call saveDraft on every change (debouncing is optional).
 *
 * A draft keeps the survey version it was begun on: the first save stores that version
 * and its questions with the draft, and later saves never replace them, so a sync that brings a new
 * version neither changes the questions of a draft in progress nor drops its answers; it is
 * submitted against its own version, which the server accepts. The copy goes with the draft.
 * The answers are stored sealed under the account's key (vault.ts), encrypted before the write.
 */

export type { DraftForm };

export interface Draft {
  /** Pass to enqueueResponse: a second tap on submit then queues nothing new. */
  clientId: string;
  answers: Answers;
  photos: Record<string, Blob>;
  updatedAt: number;
  /** Absent on drafts saved before versions, or given no form: they follow the survey as cached. */
  form?: DraftForm;
}

/** The photos table key of a draft's photos (outbox ids are UUIDs, so the two never collide). */
export const draftOwner = (account: AccountKey, surveyId: string): string => `draft:${accountKey(account)}:${surveyId}`;

/** `form`: the version shown as the user began; kept only if the draft has none yet. */
export async function saveDraft(account: AccountKey, surveyId: string, answers: Answers, form?: DraftForm): Promise<void> {
  const key = accountKey(account);
  const sealed = await sealJson(key, answers);
  await db.transaction('rw', db.drafts, async () => {
    const existing = await db.drafts.get([key, surveyId]);
    const kept = existing?.form ?? form;
    await db.drafts.put({ account: key, surveyId, clientId: existing?.clientId ?? uuidv7(), ...(sealed ? { sealed } : { answers }), updatedAt: Date.now(), ...(kept ? { form: kept } : {}) });
  });
}

/** Keeps (or, with null, removes) the photo taken for one question of the draft. */
export async function saveDraftPhoto(account: AccountKey, surveyId: string, question: string, photo: Blob | null, form?: DraftForm): Promise<void> {
  const owner = draftOwner(account, surveyId);
  if (!photo) return void (await db.photos.delete([owner, question]));
  await storePhoto(account, owner, question, photo);
  const key = accountKey(account);
  // A draft row holds the clientId; a draft that so far has only a photo needs one too.
  await db.transaction('rw', db.drafts, async () => {
    if (!(await db.drafts.get([key, surveyId]))) await db.drafts.put({ account: key, surveyId, clientId: uuidv7(), updatedAt: Date.now(), ...(form ? { form } : {}) });
  });
}

export async function loadDraft(account: AccountKey, surveyId: string): Promise<Draft | undefined> {
  const row = await db.drafts.get([accountKey(account), surveyId]);
  const photos = await readPhotos(draftOwner(account, surveyId));
  if (!row && Object.keys(photos).length === 0) return undefined;
  return { clientId: row?.clientId ?? uuidv7(), answers: row ? await openDraftAnswers(row) : {}, photos, updatedAt: row?.updatedAt ?? 0, ...(row?.form ? { form: row.form } : {}) };
}

export async function clearDraft(account: AccountKey, surveyId: string): Promise<void> {
  await db.transaction('rw', db.drafts, db.photos, async () => {
    await db.drafts.delete([accountKey(account), surveyId]);
    await db.photos.where('owner').equals(draftOwner(account, surveyId)).delete();
  });
}
