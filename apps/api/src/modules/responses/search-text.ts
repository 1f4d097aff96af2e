import type { Answers } from '@survey-bird/contracts';

const NONE: ReadonlySet<string> = new Set();

/**
 * What the responses search matches: the field user's name and e-mail and every answer, lower-cased,
 * except those of `unsearched` questions (photos and files: an address or "pending upload", which
 * would match every search for "http" or "upload"). Originals and fixes alike.
 */
export function searchTextOf(fullName: string, email: string, answers: Answers, unsearched: ReadonlySet<string> = NONE): string {
  const searched = unsearched.size === 0 ? Object.values(answers) : Object.entries(answers).flatMap(([question, answer]) => (unsearched.has(question) ? [] : [answer]));
  return [fullName, email, ...searched.flat()].join(' \u0001 ').toLowerCase();
}
