import type { Kysely } from 'kysely';
import { UPLOAD_QUESTION_TYPES, locatePathKey, PhotoMsg, PENDING_PHOTO_ANSWER, putAnswer, resolvePathKey, type Answers, type PhotoPlaceholder, type StoredQuestion } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import { requeueChecks } from '../flags/repository.js';
import type { IngestForm } from './survey-cache.js';

/**
 * Responses first, photos after. A response may carry placeholders for photos still on
 * the phone: it is stored at once with PENDING_PHOTO_ANSWER for each of those questions and the
 * placeholders in `responses.pending_photos`; each photo, when POST /files/image or tus brings it
 * (same response clientId and question, same size and SHA-256), replaces its placeholder's answer
 * and queues the response's quality checks again (flag_jobs).
 */
export type PendingPhotos = Record<string, Omit<PhotoPlaceholder, 'question'>>;

/**
 * The question a photo's key names: its text at the response's level, or inside a repeat instance
 * `Member#2/Photo` (the phone's pathKey), read against the form's repeats.
 */
export function photoQuestionOf(form: Pick<IngestForm, 'questions' | 'model'>, key: string): StoredQuestion | undefined {
  const top = form.questions.get(key);
  if (top && (!form.model || form.model.byId.get(top.id)?.repeat == null)) return top;
  return (form.model && resolvePathKey(form.model, key)?.node.q) as StoredQuestion | undefined;
}

/** Checks the placeholders against the form and marks their answers pending; the problem, or the column's JSON (null: none). */
export function takePlaceholders(form: IngestForm, answers: Answers, photos: PhotoPlaceholder[] | undefined): { problem: string } | { pending: string | null } {
  if (!photos || photos.length === 0) return { pending: null };
  const pending: PendingPhotos = Object.create(null) as PendingPhotos;
  for (const { question, clientId, size, sha256 } of photos) {
    const q = photoQuestionOf(form, question);
    if (!q) return { problem: `"${question}" is not a question of this survey` };
    if (!UPLOAD_QUESTION_TYPES.includes(q.type)) return { problem: `"${question}" does not take a photo` };
    if (Object.hasOwn(pending, question)) return { problem: `"${question}" has two photo placeholders` };
    // Inside a repeat: the instance the key names must be in the answers.
    const place = locatePathKey(answers, question);
    if (!place) return { problem: `"${question}" names a repeat instance the response does not have` };
    pending[question] = { clientId, size, sha256 };
    // An own property defined, never assigned: a question called `__proto__` stays an answer.
    putAnswer(place.holder, place.question, PENDING_PHOTO_ANSWER);
  }
  return { pending: JSON.stringify(pending) };
}

/** The placeholders in a stable order, for the body hash (so a replay with other photos is a conflict). */
export function placeholdersKey(photos: PhotoPlaceholder[] | undefined): string | undefined {
  if (!photos || photos.length === 0) return undefined;
  return JSON.stringify([...photos].sort((a, b) => (a.question < b.question ? -1 : 1)).map((p) => [p.question, p.clientId, p.size, p.sha256]));
}

export interface PhotoKey {
  userId: string;
  surveyId: string;
  /** The response's clientId. */
  clientId: string;
  question: string;
}

/** Reads and settles placeholders; the caller's ownership is in every query (user_id). */
export class PendingPhotosRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The placeholder still waiting for this photo, or undefined (no such response, or attached already). */
  async find(key: PhotoKey): Promise<PendingPhotos[string] | undefined> {
    const row = await this.row(key);
    return row ? parse(row.pending_photos)[key.question] : undefined;
  }

  /** The survey version the caller's response was filled on; undefined while there is no such response. */
  async versionOf(key: Omit<PhotoKey, 'question'>): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('responses')
      .select('version')
      .where('survey_id', '=', key.surveyId)
      .where('client_id', '=', key.clientId)
      .where('user_id', '=', key.userId)
      .executeTakeFirst();
    return row && Number(row.version);
  }

  /** True when the caller's response holds this question's photo already (no placeholder left for it). */
  async settled(key: PhotoKey): Promise<boolean> {
    const row = await this.db
      .selectFrom('responses')
      .select(['answers', 'pending_photos'])
      .where('survey_id', '=', key.surveyId)
      .where('client_id', '=', key.clientId)
      .where('user_id', '=', key.userId)
      .executeTakeFirst();
    if (!row || Object.hasOwn(parse(row.pending_photos), key.question)) return false;
    const place = locatePathKey(JSON.parse(row.answers) as Answers, key.question);
    const answer: unknown = place && Object.hasOwn(place.holder, place.question) ? place.holder[place.question] : undefined;
    return typeof answer === 'string' && answer !== PENDING_PHOTO_ANSWER && answer !== '';
  }

  /**
   * Puts the photo's reference in place of its placeholder. A compare-and-set on the column, tried
   * again when another photo of the same response settled in between: no engine-specific locking,
   * and attaching twice changes nothing.
   */
  async attach(key: PhotoKey, reference: string): Promise<void> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const row = await this.row(key);
      if (!row) return;
      const pending = parse(row.pending_photos);
      if (!Object.hasOwn(pending, key.question)) return;
      delete pending[key.question];
      const answers = JSON.parse(row.answers) as Answers;
      // A photo of a repeat instance (`Member#2/Photo`) goes into that instance.
      const place = locatePathKey(answers, key.question);
      if (place) putAnswer(place.holder, place.question, reference);
      const attached = await this.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('responses')
          .set({ answers: JSON.stringify(answers), pending_photos: Object.keys(pending).length > 0 ? JSON.stringify(pending) : null })
          .where('id', '=', row.id)
          .where('pending_photos', '=', row.pending_photos)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        // The response was checked when it arrived, without this photo: its checks (duplicate and
        // similar photo) run again, queued in the same transaction as the answer they will read.
        await requeueChecks(trx, row.id, Date.now());
        return true;
      });
      if (attached) return;
    }
    throw new Error('photo attach kept losing to concurrent attaches');
  }

  private row(key: PhotoKey) {
    return this.db
      .selectFrom('responses')
      .select(['id', 'answers', 'pending_photos'])
      .where('survey_id', '=', key.surveyId)
      .where('client_id', '=', key.clientId)
      .where('user_id', '=', key.userId)
      .where('pending_photos', 'is not', null)
      .executeTakeFirst() as Promise<{ id: string; answers: string; pending_photos: string } | undefined>;
  }
}

function parse(json: string | null): PendingPhotos {
  if (json === null) return Object.create(null) as PendingPhotos;
  return Object.assign(Object.create(null) as PendingPhotos, JSON.parse(json) as PendingPhotos);
}

export const photoMismatch = (placeholder: PendingPhotos[string], size: number, sha256: string): string | null =>
  placeholder.size === size && placeholder.sha256 === sha256 ? null : PhotoMsg.mismatch;
