import { compileExpression } from '../expressions/compile.js';
import { CONTAINER_QUESTION_TYPES, OPTION_QUESTION_TYPES, QuestionType } from '../question-types.js';

/** What the structure check reads of a question (a builder's draft or a stored one). */
export interface StructureQuestion {
  id?: string | undefined;
  text: string;
  type: string;
  options?: readonly string[] | undefined;
  parent?: string | undefined;
  relevantExpr?: string | undefined;
  requiredExpr?: string | undefined;
  constraintExpr?: string | undefined;
  calculation?: string | undefined;
  choiceFilter?: string | undefined;
  default?: string | undefined;
  readOnly?: boolean | string | undefined;
  repeatCount?: number | string | undefined;
  choices?: readonly { name: string; label: string; labels?: Readonly<Record<string, string>> | undefined }[] | undefined;
  translations?: Readonly<Record<string, unknown>> | undefined;
  repeat?: { min?: number | undefined; max?: number | undefined } | undefined;
  range?: { start: number; end: number; step: number } | undefined;
}

export interface StructureProblem {
  /** The index of the question it is about. */
  index: number;
  message: string;
}

/** The expression fields, with the words a problem names them by. */
export const EXPRESSION_FIELDS = [
  ['relevantExpr', 'relevant'],
  ['requiredExpr', 'required'],
  ['constraintExpr', 'constraint'],
  ['calculation', 'calculation'],
  ['choiceFilter', 'choice_filter'],
  ['readOnly', 'read_only'],
  ['repeatCount', 'repeat_count'],
] as const;

const OPTION_TYPES: readonly string[] = [...OPTION_QUESTION_TYPES, QuestionType.largeSelect];
const CONTAINERS: readonly string[] = CONTAINER_QUESTION_TYPES;

/**
 * Problems with a form's structure and expressions, for the builder's live check and the API at
 * publish (the same words): a member's `parent` names an earlier group or repeat and members follow
 * their container contiguously; every expression compiles and its `${id}`s name questions of the
 * form; fields fit their type; calculations do not depend on themselves; translations use the
 * survey's languages.
 */
export function formStructureProblems(questions: readonly StructureQuestion[], languages?: readonly { code: string }[]): StructureProblem[] {
  const out: StructureProblem[] = [];
  const ids = new Map<string, number>();
  questions.forEach((q, i) => {
    if (q.id !== undefined && !ids.has(q.id)) ids.set(q.id, i);
  });
  const add = (index: number, message: string) => out.push({ index, message: `"${questions[index]!.text}": ${message}` });
  const codes = languages === undefined ? null : new Set(languages.map((l) => l.code));

  // Containers open on the stack; a member must name one of them, closing the deeper ones.
  const open: string[] = [];
  const closed = new Set<string>();
  const containerAt = new Map<string, number>();
  questions.forEach((q, i) => {
    if (q.parent === undefined) {
      for (const id of open) closed.add(id);
      open.length = 0;
    } else {
      const at = open.lastIndexOf(q.parent);
      if (at < 0) {
        const where = ids.get(q.parent);
        if (closed.has(q.parent)) add(i, `Must follow the other questions of "${questions[containerAt.get(q.parent)!]!.text}" (a group's or repeat's questions come together)`);
        else if (where === undefined || where >= i) add(i, `Its group or repeat "${q.parent}" must be an earlier group or repeat of this form`);
        else add(i, `"${q.parent}" is not a group or repeat`);
      } else {
        for (const id of open.splice(at + 1)) closed.add(id);
      }
    }
    if (q.id !== undefined && CONTAINERS.includes(q.type)) {
      open.push(q.id);
      containerAt.set(q.id, i);
    }
  });

  const dependsOn = new Map<string, readonly string[]>();
  questions.forEach((q, i) => {
    for (const [field, word] of EXPRESSION_FIELDS) {
      const source = q[field];
      if (typeof source !== 'string' || source.trim() === '') continue;
      const compiled = compileExpression(source);
      if (!compiled.ok) {
        add(i, `The ${word} expression is not valid: ${compiled.error.message}`);
        continue;
      }
      for (const ref of compiled.expr.references) if (!ids.has(ref)) add(i, `The ${word} expression names \${${ref}}, which is not a question of this form`);
      if (field === 'calculation' && q.id !== undefined) dependsOn.set(q.id, compiled.expr.references);
    }
    if (q.type === QuestionType.calculate && (q.calculation === undefined || q.calculation.trim() === '')) add(i, 'A calculate question needs a calculation');
    if (q.type === QuestionType.range) {
      if (q.range === undefined) add(i, 'A range question needs its start, end and step');
      else if (q.range.start === q.range.end) add(i, 'A range needs its start and end to differ');
      else if (q.range.step > Math.abs(q.range.end - q.range.start)) add(i, 'A range step must not exceed the range');
    } else if (q.range !== undefined) add(i, 'Only a range question takes a start, end and step');
    if (q.type !== QuestionType.repeat && (q.repeatCount !== undefined || q.repeat !== undefined)) add(i, 'Only a repeat takes a repeat count, a minimum or a maximum');
    if (q.repeat?.min !== undefined && q.repeat.max !== undefined && q.repeat.min > q.repeat.max) add(i, 'The repeat minimum is above its maximum');
    if (!OPTION_TYPES.includes(q.type) && (q.choices !== undefined || q.choiceFilter !== undefined)) add(i, 'Only a select or checkbox question takes choices or a choice filter');
    if (q.choices !== undefined) {
      const options = q.options ?? [];
      if (q.type !== QuestionType.largeSelect && options.length !== q.choices.length) add(i, 'The choices and options must be the same list');
      else if (q.type !== QuestionType.largeSelect && q.choices.some((c, n) => c.label !== options[n])) add(i, "Each option must be its choice's label");
      const names = new Set<string>();
      for (const c of q.choices) {
        if (names.has(c.name)) {
          add(i, `Two choices share the name "${c.name}"`);
          break;
        }
        names.add(c.name);
      }
      if (codes !== null) for (const c of q.choices) for (const code in c.labels ?? {}) if (!codes.has(code)) add(i, `A choice label is in "${code}", which is not one of the survey's languages`);
    }
    if (codes !== null) for (const code in q.translations ?? {}) if (!codes.has(code)) add(i, `A translation is in "${code}", which is not one of the survey's languages`);
  });

  // A calculation reading itself, directly or through others, has no value to start from.
  const state = new Map<string, 'visiting' | 'done'>();
  const cyclic = new Set<string>();
  const visit = (id: string): boolean => {
    const s = state.get(id);
    if (s === 'done') return false;
    if (s === 'visiting') return true;
    state.set(id, 'visiting');
    let loop = false;
    for (const ref of dependsOn.get(id) ?? []) if (visit(ref)) loop = true;
    state.set(id, 'done');
    if (loop) cyclic.add(id);
    return loop;
  };
  for (const id of dependsOn.keys()) visit(id);
  for (const id of cyclic) add(ids.get(id)!, 'Its calculation depends on itself');
  return out;
}

/**
 * The repeat each entry's answer lives in ('' for the response itself), by index: the id of its
 * nearest enclosing repeat. Entries whose parent is unknown count as top level (the structure
 * check reports them).
 */
export function answerScopes(questions: readonly { id?: string | undefined; type: string; parent?: string | undefined }[]): string[] {
  const scope = new Map<string, string>();
  return questions.map((q) => {
    const own = q.parent !== undefined ? (scope.get(q.parent) ?? '') : '';
    if (q.id !== undefined && (q.type === QuestionType.group || q.type === QuestionType.repeat)) scope.set(q.id, q.type === QuestionType.repeat ? q.id : own);
    return own;
  });
}
