// Free of zod, like ids.ts and links.ts: the phone's form imports it without the response schemas
// (importing it from schemas/response.ts put zod on the form's route: 175 KB against its 150 KB budget).

/** The answer to one question: own properties only, so `constructor` or `toString` is unanswered, not a function. */
export const answerOf = <A>(answers: Readonly<Record<string, A>>, question: string): A | undefined =>
  Object.hasOwn(answers, question) ? answers[question] : undefined;

/** A repeat's answer: its instances, each an object of answers keyed by its members' texts. */
export const isRepeatAnswer = (a: unknown): a is Record<string, unknown>[] => Array.isArray(a) && a.length > 0 && typeof a[0] === 'object' && a[0] !== null;
/** A checkbox's answer: a list of texts (an empty list is one too). */
export const isChoiceList = (a: unknown): a is string[] => Array.isArray(a) && a.every((x) => typeof x === 'string');
/** How the responses table shows a repeat's answer: its number of instances. */
export const repeatSummary = (instances: number): string => `${instances} member${instances === 1 ? '' : 's'}`;

/**
 * Where an answer sits in a response: a question at the top, or inside repeat instances (a
 * repeat's answer is a list of instance objects keyed by its members' texts, nested for nested
 * repeats). `at` names each repeat by its text with the 0-based instance, outermost first.
 */
export interface AnswerPath {
  at: readonly { repeat: string; index: number }[];
  question: string;
}

type Json = Readonly<Record<string, unknown>>;

const isInstances = (raw: unknown): raw is Json[] => Array.isArray(raw) && raw.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));

/**
 * A stable text key of a path, for photos, their placeholders and problems: the question's text at
 * the top level (so every key stored before repeats reads the same), `Member#2/Photo` inside an
 * instance (1-based instance numbers, as the screen shows them).
 */
export function pathKey(path: AnswerPath): string {
  return [...path.at.map((s) => `${s.repeat}#${s.index + 1}`), path.question].join('/');
}

/** The object holding a path's answer (the response, or its innermost instance), or undefined when an instance is missing. */
export function holderAt<T extends Json>(answers: T, at: AnswerPath['at']): T | undefined {
  let holder: Json = answers;
  for (const step of at) {
    const list = Object.hasOwn(holder, step.repeat) ? holder[step.repeat] : undefined;
    const next = isInstances(list) ? list[step.index] : undefined;
    if (next === undefined) return undefined;
    holder = next;
  }
  return holder as T;
}

/** Sets an answer in its holder as an own data property (a question called `__proto__` stays an answer). */
export function putAnswer(holder: Record<string, unknown>, question: string, value: unknown): void {
  Object.defineProperty(holder, question, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Where a key's answer goes in a response, read from the answers themselves (no form needed): a
 * repeat's existing instance when the key starts with its `text#n/`, else the key itself at this
 * level. Null when the key names an instance the response does not have.
 */
export function locatePathKey(answers: Record<string, unknown>, key: string): { holder: Record<string, unknown>; question: string } | null {
  const walk = (holder: Record<string, unknown>, rest: string): { holder: Record<string, unknown>; question: string } | null => {
    if (Object.hasOwn(holder, rest)) return { holder, question: rest };
    for (const text of Object.keys(holder)) {
      const list = holder[text];
      const m = rest.startsWith(`${text}#`) ? /^(\d{1,4})\//.exec(rest.slice(text.length + 1)) : null;
      if (!m || !isInstances(list)) continue;
      const instance = list[Number(m[1]) - 1];
      return instance === undefined ? null : walk(instance, rest.slice(text.length + 1 + m[0].length));
    }
    return { holder, question: rest };
  };
  return walk(answers, key);
}
