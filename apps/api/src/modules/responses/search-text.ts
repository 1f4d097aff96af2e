import type { Answers } from '@survey-bird/contracts';

/** What the responses search matches: the field user's name and e-mail and every answer, lower-cased. */
export function searchTextOf(fullName: string, email: string, answers: Answers): string {
  return [fullName, email, ...Object.values(answers).flat()].join(' \u0001 ').toLowerCase();
}
