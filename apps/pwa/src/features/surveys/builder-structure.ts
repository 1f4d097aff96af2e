import { formStructureProblems, QuestionType, type Question, type SurveyLanguage } from '@survey-bird/contracts';
import { newQuestionId } from './builder';

/**
 * Groups and repeats in the builder, on the form model's one flat list: a member names its
 * container by `parent` and follows it contiguously, so every move takes an entry with its whole
 * block (a container's members, nested ones included) and keeps the list in that shape.
 */

export type ContainerKind = typeof QuestionType.group | typeof QuestionType.repeat;

export const isContainer = (q: Pick<Question, 'type'>): boolean => q.type === QuestionType.group || q.type === QuestionType.repeat;

/** Whether entry `j` sits inside the container `id` (at any depth). */
export function isInside(questions: readonly Question[], j: number, id: string): boolean {
  const byId = new Map(questions.flatMap((q) => (q.id !== undefined ? [[q.id, q] as const] : [])));
  const seen = new Set<string>();
  for (let parent = questions[j]?.parent; parent !== undefined && !seen.has(parent); parent = byId.get(parent)?.parent) {
    if (parent === id) return true;
    seen.add(parent);
  }
  return false;
}

/** The end (exclusive) of entry i's block: itself and, for a container, every entry inside it that follows. */
export function blockEnd(questions: readonly Question[], i: number): number {
  const id = questions[i]?.id;
  let end = i + 1;
  if (id === undefined || !isContainer(questions[i]!)) return end;
  while (end < questions.length && isInside(questions, end, id)) end++;
  return end;
}

/** A new group or repeat at the end of the form, not compulsory (a container is never answered itself). */
export function withContainer(questions: readonly Question[], kind: ContainerKind, text: string): Question[] {
  return [...questions, { id: newQuestionId(questions), text: text.trim(), type: kind, compulsory: false, options: [] }];
}

/** The containers entry i may move into: every group and repeat outside its own block. */
export function moveTargets(questions: readonly Question[], i: number): Question[] {
  const end = blockEnd(questions, i);
  return questions.filter((q, j) => isContainer(q) && q.id !== undefined && (j < i || j >= end));
}

/**
 * Entry i with its block moved to the end of a container (`target` its id), or to the end of the
 * form (null). Unchanged when the target is inside the block or is no container.
 */
export function movedInto(questions: readonly Question[], i: number, target: string | null): Question[] {
  const end = blockEnd(questions, i);
  const block = questions.slice(i, end);
  if (block.length === 0) return [...questions];
  const rest = [...questions.slice(0, i), ...questions.slice(end)];
  const head = { ...block[0]! };
  if (target === null) delete head.parent;
  else head.parent = target;
  const moved = [head, ...block.slice(1)];
  if (target === null) return [...rest, ...moved];
  const at = rest.findIndex((q) => q.id === target);
  if (at < 0 || !isContainer(rest[at]!)) return [...questions];
  const after = blockEnd(rest, at);
  return [...rest.slice(0, after), ...moved, ...rest.slice(after)];
}

/** Entry i with its block swapped with the previous (-1) or next (+1) entry of the same container; unchanged at an end. */
export function movedBy(questions: readonly Question[], i: number, by: -1 | 1): Question[] {
  const parent = questions[i]?.parent;
  const end = blockEnd(questions, i);
  if (by === 1) {
    if (end >= questions.length || questions[end]!.parent !== parent) return [...questions];
    const nextEnd = blockEnd(questions, end);
    return [...questions.slice(0, i), ...questions.slice(end, nextEnd), ...questions.slice(i, end), ...questions.slice(nextEnd)];
  }
  // The previous sibling: the nearest earlier entry with the same parent whose block reaches i.
  for (let j = i - 1; j >= 0; j--) {
    if (questions[j]!.parent === parent && blockEnd(questions, j) === i) {
      return [...questions.slice(0, j), ...questions.slice(i, end), ...questions.slice(j, i), ...questions.slice(end)];
    }
    if (questions[j]!.id === parent) break;
  }
  return [...questions];
}

/** Entry i with fields changed; `undefined` removes a field. */
export function withFields(questions: readonly Question[], i: number, change: Partial<Question>): Question[] {
  return questions.map((q, j) => {
    if (j !== i) return q;
    const next: Record<string, unknown> = { ...q, ...change };
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete next[k];
    return next as unknown as Question;
  });
}

/** The `field-list` word in an appearance, on or off (other words kept). */
export function withFieldList(appearance: string | undefined, on: boolean): string | undefined {
  const words = (appearance ?? '').split(/\s+/).filter((w) => w !== '' && w !== 'field-list');
  if (on) words.unshift('field-list');
  return words.length > 0 ? words.join(' ') : undefined;
}

export const hasFieldList = (appearance: string | undefined): boolean => (appearance ?? '').split(/\s+/).includes('field-list');

/** A repeat count as typed: a whole number, an expression, or nothing (open-ended). */
export function repeatCountOf(typed: string): number | string | undefined {
  const t = typed.trim();
  if (t === '') return undefined;
  return /^\d+$/.test(t) ? Number(t) : t;
}

/** What the publish check would say of entry i (expressions that do not compile, unknown names, the structure), live. */
export function entryProblems(questions: readonly Question[], i: number, languages?: readonly SurveyLanguage[]): string[] {
  return formStructureProblems(questions, languages).filter((p) => p.index === i).map((p) => p.message.replace(/^"[^"]*": /, ''));
}

/** The questions an expression may name: every answered entry but containers (and the question itself). */
export function referable(questions: readonly Question[], selfId?: string): Question[] {
  return questions.filter((q) => q.id !== undefined && q.id !== selfId && !isContainer(q) && q.type !== QuestionType.note);
}


/** `${id}` references shown by question text (the ids are opaque): `${q1a2b3c4d} + 1` reads `[Age] + 1`. */
export function readableExpression(source: string, questions: readonly Pick<Question, 'id' | 'text'>[]): string {
  return source.replace(/\$\{([^}]+)\}/g, (whole, id: string) => {
    const q = questions.find((x) => x.id === id);
    return q ? `[${q.text}]` : whole;
  });
}
