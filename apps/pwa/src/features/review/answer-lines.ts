import { answerOf, type Answer, type Survey } from '@survey-bird/contracts';

export interface AnswerLine {
  question: string;
  answer: Answer | undefined;
  type: string | undefined;
}

/**
 * The detail view's lines: the survey's questions in order, then any answer to a question no longer
 * in it. The API keys a response's answers by each question's latest text (the export's columns,
 * found through the question's id in the response's own version), so an answer to a question renamed
 * since sits on the question's line, never as an orphan line of its old text.
 */
export function answerLines(questions: Survey['questions'], answers: Record<string, Answer>): AnswerLine[] {
  const texts = new Set(questions.map((q) => q.text));
  const lines: AnswerLine[] = questions.map((q) => ({ question: q.text, answer: labelled(q, answerOf(answers, q.text)), type: q.type }));
  for (const key of Object.keys(answers)) if (!texts.has(key)) lines.push({ question: key, answer: answers[key], type: undefined });
  return lines;
}

/** The detail view's answers as the form is built: groups titled, each repeat instance numbered with its members. */
export type AnswerNode =
  | ({ kind: 'line' } & AnswerLine)
  | { kind: 'group'; title: string; children: AnswerNode[] }
  | { kind: 'repeat'; title: string; instances: AnswerNode[][] };

type Q = Survey['questions'][number];
const isInstanceList = (a: unknown): a is Record<string, Answer>[] => Array.isArray(a) && a.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));

/** A choice's label for its stored name (a form with choices stores names: "central_la" is "Central"). */
function labelled(q: Q, answer: Answer | undefined): Answer | undefined {
  if (!q.choices || answer === undefined) return answer;
  const label = (name: string) => q.choices!.find((c) => c.name === name)?.label ?? name;
  if (typeof answer === 'string') return label(answer);
  return answer.every((a) => typeof a === 'string') ? answer.map(label) : answer;
}

/**
 * The answers as a tree of the form's containers: a group's members under its title, a repeat's
 * under each of its instances ("Member 2"), read from the instance objects; then any answer to a
 * question no longer in the form, as answerLines does. A form without containers is answerLines'.
 */
export function answerTree(questions: Survey['questions'], answers: Record<string, Answer>): AnswerNode[] {
  if (!questions.some((q) => q.parent !== undefined || q.type === 'group' || q.type === 'repeat')) return answerLines(questions, answers).map((l) => ({ kind: 'line', ...l }));
  const childrenOf = new Map<string, Q[]>();
  const roots: Q[] = [];
  const ids = new Set(questions.flatMap((q) => (q.id !== undefined ? [q.id] : [])));
  for (const q of questions) {
    if (q.parent !== undefined && ids.has(q.parent)) childrenOf.set(q.parent, [...(childrenOf.get(q.parent) ?? []), q]);
    else roots.push(q);
  }
  const build = (list: readonly Q[], holder: Record<string, Answer>): AnswerNode[] =>
    list.filter((q) => q.type !== 'note').map((q): AnswerNode => {
      const members = (q.id !== undefined && childrenOf.get(q.id)) || [];
      if (q.type === 'group') return { kind: 'group', title: q.text, children: build(members, holder) };
      if (q.type === 'repeat') {
        const raw = answerOf(holder, q.text);
        return { kind: 'repeat', title: q.text, instances: isInstanceList(raw) ? raw.map((instance) => build(members, instance)) : [] };
      }
      return { kind: 'line', question: q.text, answer: labelled(q, answerOf(holder, q.text)), type: q.type };
    });
  const tree = build(roots, answers);
  const texts = new Set(roots.map((q) => q.text));
  const inGroups = (nodes: readonly Q[]): string[] => nodes.flatMap((q) => (q.type === 'group' && q.id !== undefined ? [...(childrenOf.get(q.id) ?? []).map((m) => m.text), ...inGroups(childrenOf.get(q.id) ?? [])] : []));
  for (const t of inGroups(roots)) texts.add(t);
  for (const key of Object.keys(answers)) if (!texts.has(key)) tree.push({ kind: 'line', question: key, answer: answers[key], type: undefined });
  return tree;
}
