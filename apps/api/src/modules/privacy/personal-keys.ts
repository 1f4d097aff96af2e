import { OfficeRole, Role, isPersonalQuestion, withQuestionIds, type StoredQuestion } from '@survey-bird/contracts';
import type { Actor } from '../../plugins/auth.js';

/**
 * Whether the caller reads personal answers masked: an analyst always (their role is to read the
 * data, not the people in it); owners, admins, reviewers, finance and supervisors see them.
 */
export const hidesPersonal = (actor: Actor): boolean => actor.role === Role.organization && actor.officeRole === OfficeRole.analyst;

/** A survey's versions' questions, oldest first (survey_versions; none for a survey from before versions). */
export interface VersionsOf {
  versions: readonly { version: number; questions: string }[];
  /** The survey's own questions (JSON), read when it has no versions. */
  current: string;
}

/**
 * The answer keys of a survey's personal questions: every text any version gave a question that is
 * personal by its newest version (its mark, else its type's default), repeat members included. A
 * response of any version, keyed by its own texts or by the latest headers, is masked by this set.
 */
export function personalKeys({ versions, current }: VersionsOf): Set<string> {
  const all = versions.length > 0 ? [...versions].sort((a, b) => b.version - a.version).map((v) => parse(v.questions)) : [parse(current)];
  const personalById = new Map<string, boolean>();
  for (const questions of all) for (const q of questions) if (!personalById.has(q.id)) personalById.set(q.id, isPersonalQuestion(q));
  const keys = new Set<string>();
  for (const questions of all) for (const q of questions) if (personalById.get(q.id)) keys.add(q.text);
  return keys;
}

/** The ids of the personal questions of one question list (the survey's latest). */
export const personalIdsOf = (questionsJson: string): string[] => parse(questionsJson).filter(isPersonalQuestion).map((q) => q.id);

/**
 * The questions with `ids` marked personal and every other one marked not personal (an explicit
 * mark each, so a photo left out of `ids` stops being personal by default).
 */
export function markPersonal(questionsJson: string, ids: ReadonlySet<string>): string {
  return JSON.stringify(parse(questionsJson).map((q) => ({ ...q, personal: ids.has(q.id) })));
}

const parse = (json: string): StoredQuestion[] => withQuestionIds(JSON.parse(json) as StoredQuestion[]);
