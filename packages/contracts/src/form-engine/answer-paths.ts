import { pathKey, type AnswerPath } from '../answer-of.js';
import type { CompiledForm, FormNode } from './model.js';

const isInstances = (raw: unknown): raw is Readonly<Record<string, unknown>>[] => Array.isArray(raw) && raw.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));

/**
 * The path a key names in a form: read scope by scope (a question at this level, else a repeat of
 * this level whose `text#n/` starts the key), so a text holding `#` or `/` is still found. Null
 * when the key names no question of the form.
 */
export function resolvePathKey(form: CompiledForm, key: string): { node: FormNode; path: AnswerPath } | null {
  const walk = (scope: string, rest: string, at: AnswerPath['at']): { node: FormNode; path: AnswerPath } | null => {
    const entries = form.scopes.get(scope);
    if (!entries) return null;
    const direct = entries.get(rest);
    if (direct && direct.kind === 'field') return { node: direct, path: { at, question: rest } };
    for (const [text, node] of entries) {
      if (node.kind !== 'repeat' || !rest.startsWith(`${text}#`)) continue;
      const m = /^(\d{1,4})\//.exec(rest.slice(text.length + 1));
      if (!m || Number(m[1]) < 1) continue;
      const found = walk(node.q.id, rest.slice(text.length + 1 + m[0].length), [...at, { repeat: text, index: Number(m[1]) - 1 }]);
      if (found) return found;
    }
    return null;
  };
  return walk('', key, []);
}

/** One answer found in a response by placedAnswers. */
export interface PlacedAnswer {
  node: FormNode;
  path: AnswerPath;
  /** pathKey(path). */
  key: string;
  /** The object holding it (the response or an instance): set an answer in place with defineProperty. */
  holder: Record<string, unknown>;
  value: unknown;
}

/**
 * Every answer to a question `want` picks, at the response's level and in each repeat instance
 * (groups opened), in form order; own properties only.
 */
export function* placedAnswers(form: CompiledForm, answers: Record<string, unknown>, want: (node: FormNode) => boolean): Generator<PlacedAnswer> {
  function* walk(nodes: readonly FormNode[], holder: Record<string, unknown>, at: AnswerPath['at']): Generator<PlacedAnswer> {
    for (const n of nodes) {
      if (n.kind === 'group') {
        yield* walk(n.children, holder, at);
        continue;
      }
      const has = Object.hasOwn(holder, n.q.text);
      if (n.kind === 'repeat') {
        const list = has ? holder[n.q.text] : undefined;
        if (!isInstances(list)) continue;
        for (const [index, instance] of list.entries()) yield* walk(n.children, instance, [...at, { repeat: n.q.text, index }]);
        continue;
      }
      if (!has || !want(n)) continue;
      const path = { at, question: n.q.text };
      yield { node: n, path, key: pathKey(path), holder, value: holder[n.q.text] };
    }
  }
  yield* walk(form.roots, answers, []);
}
