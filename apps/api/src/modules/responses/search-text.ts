import type { Answer, Answers } from '@survey-bird/contracts';
import { isRepeatAnswer } from '@survey-bird/contracts/form-engine';
import { withoutPersonal } from '@survey-bird/contracts/personal';

// Free of zod (types only from the contracts' index): the export's reader thread imports it.

const NONE: ReadonlySet<string> = new Set();

/**
 * Phone answers are stored as +234XXXXXXXXXX, but people search as they dial: 0812..., the whole
 * 08122223333. Every +234 number's local form follows the text after PHONE_FORMS, so one substring
 * (what every search plan and index matches) finds it either way; 812, +234812 and 234812... already
 * are substrings of the stored form. The marker's \u0002 is a control character no keyboard types,
 * so the derived part is told apart (migration 20261129430000_phone_search_text adds it to older rows).
 */
const PHONE_FORMS = ' \u0002 ';
const SEPARATOR = ' \u0001 ';
const PLUS_234 = /\+234(\d{10})(?!\d)/g;

/**
 * What the responses search matches: the field user's name and e-mail and every answer, lower-cased,
 * except those of `unsearched` questions (photos and files: an address or "pending upload", which
 * would match every search for "http" or "upload"). Originals and fixes alike.
 */
export function searchTextOf(fullName: string, email: string, answers: Answers, unsearched: ReadonlySet<string> = NONE): string {
  const texts = [fullName, email];
  searchedTexts(answers, unsearched, texts);
  return withLocalPhones(texts.join(SEPARATOR).toLowerCase());
}

/**
 * Whether a reader kept from personal answers (an analyst) finds the lower-cased `term` in this
 * response: in the text searchTextOf would keep were the `personal` answer keys never given. The
 * stored search_text holds every answer, so a plan over it only proposes rows; this decides, and
 * a word that is only in a name, a phone number or an address never matches for that reader.
 */
export function visibleMatch(term: string, fullName: string, email: string, answers: Answers, personal: ReadonlySet<string>): boolean {
  return searchTextOf(fullName, email, withoutPersonal(answers, personal).answers).includes(term);
}

/** Every answer's texts in form order, a repeat's instances' in turn (a roster member's name is found too). */
function searchedTexts(answers: Readonly<Record<string, Answer>>, unsearched: ReadonlySet<string>, out: string[]): void {
  for (const question of Object.keys(answers)) {
    if (unsearched.has(question)) continue;
    const answer = answers[question]!;
    if (typeof answer === 'string') out.push(answer);
    else if (isRepeatAnswer(answer)) for (const instance of answer) searchedTexts(instance, unsearched, out);
    else out.push(...(answer));
  }
}

/** The text, then the local form 0XXXXXXXXXX of each distinct +234 number in it (none: unchanged). */
export function withLocalPhones(text: string): string {
  if (!text.includes('+234')) return text;
  const local = new Set<string>();
  for (const m of text.matchAll(PLUS_234)) local.add(`0${m[1]}`);
  return local.size === 0 ? text : text + PHONE_FORMS + [...local].join(SEPARATOR);
}
