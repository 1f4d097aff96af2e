import { locatePathKey, putAnswer, type Answers } from '@survey-bird/contracts';

/**
 * The answers with each uploaded photo's reference in place: a top-level photo under its question,
 * a repeat member's (`Member#2/Photo`) inside that instance, as the server stores it. The record's
 * answers are copied, never changed.
 */
export function withPhotoRefs(answers: Answers, refs: Readonly<Record<string, string>>): Answers {
  const keys = Object.keys(refs);
  if (keys.length === 0) return answers;
  const copy = structuredClone(answers) as Record<string, unknown>;
  for (const key of keys) {
    const place = locatePathKey(copy, key);
    if (place) putAnswer(place.holder, place.question, refs[key]);
  }
  return copy as Answers;
}
