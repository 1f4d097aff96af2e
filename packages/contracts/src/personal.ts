import { isRepeatAnswer } from './answer-of.js';
import { QuestionType } from './question-types.js';

// Free of zod, like answer-of.ts: the export's threads and the phone's form import it.

/** What an analyst, or an export made without personal data, reads in place of a personal answer. */
export const PERSONAL_MASK = 'hidden: personal';

/**
 * Questions personal unless marked otherwise: a photo, a signature, a recording, a video or a file
 * shows a face, a house, a hand or a voice; a location, a line or an area is where someone lives or works. Any other question is personal only
 * when marked (builder checkbox, XLSForm `personal` or `sensitive`, PATCH .../settings).
 */
export const PERSONAL_BY_DEFAULT: readonly string[] = [QuestionType.image, QuestionType.liveImages, QuestionType.signature, QuestionType.files, QuestionType.liveLocation, QuestionType.audio, QuestionType.video, QuestionType.file, QuestionType.geotrace, QuestionType.geoshape];

/** Whether a stored question's answers are personal: its own mark, else its type's default. */
export const isPersonalQuestion = (q: { type: string; personal?: boolean | undefined }): boolean => q.personal ?? PERSONAL_BY_DEFAULT.includes(q.type);

/**
 * The answers with each personal one replaced by PERSONAL_MASK (an unanswered question stays
 * unanswered): `personal` holds answer keys, a repeat's members' keys included, so a repeat's
 * instances are masked member by member.
 */
export function maskAnswers<A>(answers: Readonly<Record<string, A>>, personal: ReadonlySet<string>): Record<string, A> {
  if (personal.size === 0) return { ...answers };
  const out: [string, A][] = [];
  for (const [key, value] of Object.entries(answers)) {
    if (personal.has(key)) out.push([key, PERSONAL_MASK as A]);
    else if (isRepeatAnswer(value)) out.push([key, value.map((instance) => maskAnswers(instance as Record<string, A>, personal)) as A]);
    else out.push([key, value]);
  }
  return Object.fromEntries(out);
}

/**
 * The answers without their personal ones (erasure, retention); `removed` counts what went. A
 * repeat keeps its instances, each without its personal members.
 */
export function withoutPersonal<A>(answers: Readonly<Record<string, A>>, personal: ReadonlySet<string>): { answers: Record<string, A>; removed: string[] } {
  const removed: string[] = [];
  const strip = (from: Readonly<Record<string, A>>): Record<string, A> => {
    const out: [string, A][] = [];
    for (const [key, value] of Object.entries(from)) {
      if (personal.has(key)) removed.push(key);
      else if (isRepeatAnswer(value)) out.push([key, value.map((instance) => strip(instance as Record<string, A>)) as A]);
      else out.push([key, value]);
    }
    return Object.fromEntries(out);
  };
  return { answers: strip(answers), removed };
}
