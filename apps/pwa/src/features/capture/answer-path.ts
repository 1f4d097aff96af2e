import { holderAt, pathKey, type AnswerPath } from '@survey-bird/contracts';

// The path and its key are the contracts' (the server places a photo inside an instance by the same key).
export { holderAt, pathKey, type AnswerPath };

type Json = Readonly<Record<string, unknown>>;

const isInstances = (raw: unknown): raw is Json[] => Array.isArray(raw) && raw.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));

/** The answer at a path (own properties only), or undefined. */
export function answerAt(answers: Json, path: AnswerPath): unknown {
  const holder = holderAt(answers, path.at);
  return holder !== undefined && Object.hasOwn(holder, path.question) ? holder[path.question] : undefined;
}

/** The instances of a repeat at `at` (empty when none yet). */
export function instancesAt(answers: Json, at: AnswerPath['at'], repeat: string): Json[] {
  const holder = holderAt(answers, at);
  const list = holder !== undefined && Object.hasOwn(holder, repeat) ? holder[repeat] : undefined;
  return isInstances(list) ? list : [];
}

const put = (to: Record<string, unknown>, key: string, value: unknown) => Object.defineProperty(to, key, { value, enumerable: true, writable: true, configurable: true });

/** A copy of `holder` with `key` set (or removed for undefined); a key like `__proto__` stays data. */
function withKey(holder: Json, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(holder)) if (k !== key) put(copy, k, holder[k]);
  if (value !== undefined) put(copy, key, value);
  return copy;
}

/** A new response object with the change applied at `at` (the instances on the way copied, the rest shared). */
function updateAt<T extends Json>(answers: T, at: AnswerPath['at'], change: (holder: Json) => Json): T {
  if (at.length === 0) return change(answers) as T;
  const [step, ...rest] = at as [AnswerPath['at'][number], ...AnswerPath['at']];
  const list = instancesAt(answers, [], step.repeat);
  const instance = list[step.index];
  if (instance === undefined) return answers;
  const next = list.slice();
  next[step.index] = updateAt(instance, rest, change);
  return withKey(answers, step.repeat, next) as T;
}

/** The answers with one answer set (undefined removes it). */
export function withAnswerAt<T extends Json>(answers: T, path: AnswerPath, value: unknown): T {
  return updateAt(answers, path.at, (holder) => withKey(holder, path.question, value));
}

/** The answers with an instance added at the end of a repeat (`instance`: its defaults). */
export function withInstanceAdded<T extends Json>(answers: T, at: AnswerPath['at'], repeat: string, instance: Json = {}): T {
  return updateAt(answers, at, (holder) => withKey(holder, repeat, [...instancesAt(holder, [], repeat), instance]));
}

/** The answers without one instance of a repeat (the later ones move up; an emptied repeat keeps `[]`). */
export function withInstanceRemoved<T extends Json>(answers: T, at: AnswerPath['at'], repeat: string, index: number): T {
  return updateAt(answers, at, (holder) => withKey(holder, repeat, instancesAt(holder, [], repeat).filter((_, i) => i !== index)));
}
