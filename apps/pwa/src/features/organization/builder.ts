import {
  CreateSurveyBody,
  DISABLED_QUESTION_TYPES,
  IMAGE_QUESTION_TYPES,
  Msg,
  OPTION_QUESTION_TYPES,
  QUESTION_TYPES,
  LENGTH_QUESTION_TYPES,
  NO_ANSWER_QUESTION_TYPES,
  NUMERIC_QUESTION_TYPES,
  QuestionType,
  RANGE_QUESTION_TYPES,
  questionProblem,
  questionRulesProblems,
  splitOptions,
  ConditionOp,
  type Constraint,
  type Question,
  type ShowIf,
} from '@survey-bird/contracts';

/**
 * The survey builder's state and rules (spec screen 4, sections 4 and 5). Questions are checked
 * with the contracts' questionProblem and splitOptions, the same rules the server applies, so a
 * survey the builder accepts is one the server accepts.
 */

export interface QuestionForm {
  text: string;
  type: QuestionType;
  /** select / checkbox: 'a, b, c'; large select: the pasted list (one per line or comma-separated). */
  options: string;
  /** A large select's list read from a CSV/TXT file; null when the list is pasted. */
  dataset: string[] | null;
  /** Name of the file the dataset came from, shown beside its count. */
  datasetFile: string | null;
  compulsory: boolean;
  /** Constraints as typed: min/max for numbers, dates and times; lengths for text. */
  min: string;
  max: string;
  minLength: string;
  maxLength: string;
  notInFuture: boolean;
  /** Shown instead of the default message when the answer breaks a constraint. */
  message: string;
  /** Show-if: conditions on earlier questions (by id), all or any of them. */
  combine: 'all' | 'any';
  conditions: ConditionForm[];
}

export interface ConditionForm {
  question: string;
  op: ConditionOp;
  value: string;
}

export interface BuilderState {
  title: string;
  description: string;
  /** Expected responses as typed; optional. */
  expected: string;
  questions: Question[];
  form: QuestionForm;
  /** Index of the question loaded into the form (the button reads Save), or null (Add). */
  editing: number | null;
}

export const EMPTY_FORM: QuestionForm = {
  text: '',
  type: QuestionType.text,
  options: '',
  dataset: null,
  datasetFile: null,
  compulsory: true,
  min: '',
  max: '',
  minLength: '',
  maxLength: '',
  notInFuture: false,
  message: '',
  combine: 'all',
  conditions: [],
};
export const EMPTY_BUILDER: BuilderState = { title: '', description: '', expected: '', questions: [], form: EMPTY_FORM, editing: null };

export type BuilderAction =
  | { type: 'survey'; change: Partial<Pick<BuilderState, 'title' | 'description' | 'expected'>> }
  | { type: 'form'; change: Partial<QuestionForm> }
  /** Add (appends) or Save (replaces the edited question in place); ignored when the form is invalid. */
  | { type: 'commit' }
  | { type: 'edit'; index: number }
  | { type: 'cancelEdit' }
  | { type: 'delete'; index: number }
  /** Moves the form's condition list: add one on the first earlier question, change or remove one. */
  | { type: 'condition'; index: number; change: Partial<ConditionForm> | null }
  | { type: 'addCondition'; question: string }
  | { type: 'restore'; state: BuilderState }
  | { type: 'reset' };

/**
 * A large select's list: one option per line, or comma-separated when it is all on one line.
 * Trimmed, blanks and exact duplicates dropped (the server drops duplicates too).
 */
export function parseDatasetText(raw: string): string[] {
  const text = raw.replace(/^\uFEFF/, '');
  const lines = text.split(/\r\n|\n|\r/).map((l) => l.trim()).filter((l) => l.length > 0);
  const items = lines.length > 1 ? lines : splitOptions(lines[0] ?? '');
  return [...new Set(items)];
}

/** The first column of each CSV record (quoted fields, "" escapes and quoted line breaks handled). */
export function firstCsvColumn(raw: string): string[] {
  const text = raw.replace(/^\uFEFF/, '');
  const out: string[] = [];
  let field = '';
  let column = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        if (column === 0) field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else if (column === 0) field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') column++;
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      out.push(field);
      field = '';
      column = 0;
    } else if (column === 0) field += c;
  }
  out.push(field);
  return [...new Set(out.map((v) => v.trim()).filter((v) => v.length > 0))];
}

/** A dropped or chosen file: CSV by its first column, anything else one option per line. */
export function parseDatasetFile(name: string, content: string): string[] {
  return /\.csv$/i.test(name) ? firstCsvColumn(content) : parseDatasetText(content);
}

/** The options the form holds for its type, as they would be sent. */
export function formOptions(form: QuestionForm): string[] {
  if (form.type === QuestionType.largeSelect) return form.dataset ?? parseDatasetText(form.options);
  if (OPTION_QUESTION_TYPES.includes(form.type)) return splitOptions(form.options);
  return [];
}

/** A new question's stable id: 'q' and 8 random letters or digits (unique among a survey's). */
export function newQuestionId(taken: readonly Question[]): string {
  for (;;) {
    const id = `q${Math.random().toString(36).slice(2, 10).padEnd(8, '0')}`;
    if (!taken.some((q) => q.id === id)) return id;
  }
}

const num = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));
const str = (text: string): string | undefined => (text.trim() === '' ? undefined : text.trim());

/** The constraint the form describes for its type, or undefined when it sets none. */
export function constraintFromForm(form: QuestionForm): Constraint | undefined {
  const c: Constraint = {};
  if (RANGE_QUESTION_TYPES.includes(form.type)) {
    const read = NUMERIC_QUESTION_TYPES.includes(form.type) ? num : str;
    const min = read(form.min);
    const max = read(form.max);
    if (min !== undefined) c.min = min;
    if (max !== undefined) c.max = max;
  }
  if (LENGTH_QUESTION_TYPES.includes(form.type)) {
    const lo = num(form.minLength);
    const hi = num(form.maxLength);
    if (lo !== undefined) c.minLength = lo;
    if (hi !== undefined) c.maxLength = hi;
  }
  if (form.type === QuestionType.date && form.notInFuture) c.notInFuture = true;
  if (Object.keys(c).length === 0) return undefined;
  if (form.message.trim()) c.message = form.message.trim();
  return c;
}

export function showIfFromForm(form: QuestionForm): ShowIf | undefined {
  if (form.conditions.length === 0) return undefined;
  return {
    combine: form.combine,
    conditions: form.conditions.map((c) => (c.op === 'answered' || c.value.trim() === '' ? { question: c.question, op: c.op } : { question: c.question, op: c.op, value: c.value.trim() })),
  };
}

export function questionFromForm(form: QuestionForm, id?: string): Question {
  const q: Question = { text: form.text.trim(), type: form.type, compulsory: NO_ANSWER_QUESTION_TYPES.includes(form.type) ? false : form.compulsory, options: formOptions(form) };
  if (id !== undefined) q.id = id;
  const showIf = showIfFromForm(form);
  const constraint = constraintFromForm(form);
  if (showIf) q.showIf = showIf;
  if (constraint) q.constraint = constraint;
  return q;
}

/** The questions a condition of the question in the form may use: those before it. */
export function earlierQuestions(state: BuilderState): Question[] {
  const before = state.editing === null ? state.questions : state.questions.slice(0, state.editing);
  return before.filter((q) => !NO_ANSWER_QUESTION_TYPES.includes(q.type));
}

/** The toast for an invalid Add/Save ('Question text cannot be empty', the options rule, a repeated text, a rule), or null. */
export function commitProblem(state: BuilderState): string | null {
  const question = questionFromForm(state.form, 'this');
  const f = state.form;
  if (RANGE_QUESTION_TYPES.includes(f.type) && NUMERIC_QUESTION_TYPES.includes(f.type) && [f.min, f.max].some((v) => v.trim() !== '' && !Number.isFinite(Number(v)))) return 'Min and max must be numbers';
  if (LENGTH_QUESTION_TYPES.includes(f.type) && [f.minLength, f.maxLength].some((v) => v.trim() !== '' && !/^\d+$/.test(v.trim()))) return 'Min and max length must be whole numbers';
  const problem = questionProblem(question);
  if (problem) return problem;
  const key = question.text.toLowerCase();
  const clash = state.questions.some((q, i) => i !== state.editing && q.text.trim().toLowerCase() === key);
  if (clash) return Msg.duplicateQuestion;
  const before = state.editing === null ? state.questions : state.questions.slice(0, state.editing);
  const rules = questionRulesProblems([...before, question]).find((p) => p.index === before.length);
  return rules ? rules.message.replace(/^"[^"]*": /, '') : null;
}

function formFor(q: Question): QuestionForm {
  const c = q.constraint ?? {};
  const rules: Partial<QuestionForm> = {
    min: c.min === undefined ? '' : String(c.min),
    max: c.max === undefined ? '' : String(c.max),
    minLength: c.minLength === undefined ? '' : String(c.minLength),
    maxLength: c.maxLength === undefined ? '' : String(c.maxLength),
    notInFuture: c.notInFuture === true,
    message: c.message ?? '',
    combine: q.showIf?.combine ?? 'all',
    conditions: (q.showIf?.conditions ?? []).map((x) => ({ question: x.question, op: x.op, value: x.value === undefined ? '' : String(x.value) })),
  };
  if (q.type === QuestionType.largeSelect) return { ...EMPTY_FORM, ...rules, text: q.text, type: q.type, compulsory: q.compulsory, dataset: q.options, datasetFile: 'saved list' };
  return { ...EMPTY_FORM, ...rules, text: q.text, type: q.type, compulsory: q.compulsory, options: OPTION_QUESTION_TYPES.includes(q.type) ? q.options.join(', ') : '' };
}

export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case 'survey':
      return { ...state, ...action.change };
    case 'form': {
      const form = { ...state.form, ...action.change };
      // 'files' is shown but cannot be chosen (spec section 5).
      if (DISABLED_QUESTION_TYPES.includes(form.type)) return state;
      return { ...state, form };
    }
    case 'commit': {
      if (commitProblem(state) !== null) return state;
      const id = state.editing === null ? newQuestionId(state.questions) : (state.questions[state.editing]?.id ?? newQuestionId(state.questions));
      const question = questionFromForm(state.form, id);
      const questions = state.editing === null
        ? [...state.questions, question]
        : state.questions.map((q, i) => (i === state.editing ? question : q));
      return { ...state, questions, form: EMPTY_FORM, editing: null };
    }
    case 'edit': {
      const q = state.questions[action.index];
      return q ? { ...state, form: formFor(q), editing: action.index } : state;
    }
    case 'addCondition':
      return { ...state, form: { ...state.form, conditions: [...state.form.conditions, fitOp({ question: action.question, op: 'equals', value: '' }, state.questions)] } };
    case 'condition': {
      const conditions = action.change === null
        ? state.form.conditions.filter((_, i) => i !== action.index)
        : state.form.conditions.map((c, i) => (i === action.index ? fitOp({ ...c, ...action.change }, state.questions) : c));
      return { ...state, form: { ...state.form, conditions } };
    }
    case 'cancelEdit':
      return { ...state, form: EMPTY_FORM, editing: null };
    case 'delete': {
      if (action.index < 0 || action.index >= state.questions.length) return state;
      const questions = state.questions.filter((_, i) => i !== action.index);
      if (state.editing === action.index) return { ...state, questions, form: EMPTY_FORM, editing: null };
      const editing = state.editing !== null && state.editing > action.index ? state.editing - 1 : state.editing;
      return { ...state, questions, editing };
    }
    case 'restore':
      return action.state;
    case 'reset':
      return EMPTY_BUILDER;
  }
}

export type PublishCheck = { ok: true; body: CreateSurveyBody } | { ok: false; msg: string };

/** Publish: 'provide form title' first, then the server's own rules (at least one question, numbers). */
export function publishBody(state: BuilderState): PublishCheck {
  if (state.title.trim() === '') return { ok: false, msg: Msg.provideFormTitle };
  const expected = state.expected.trim();
  const body = {
    title: state.title,
    description: state.description,
    expectedResponseCount: expected === '' ? null : Number(expected),
    questions: state.questions,
  };
  const parsed = CreateSurveyBody.safeParse(body);
  if (!parsed.success) return { ok: false, msg: parsed.error.issues[0]?.message ?? Msg.unexpectedError };
  return { ok: true, body: parsed.data };
}

/** What the question list shows under a question: its options, or their count for a large list. */
/** The words the builder shows for each condition. */
export const OP_LABELS: Record<ConditionOp, string> = {
  equals: 'is',
  notEquals: 'is not',
  includes: 'includes',
  greaterThan: 'is greater than',
  lessThan: 'is less than',
  answered: 'is answered',
};

/**
 * The tests a condition on an answer of this type may use: a select (one option) is or is not an
 * option; a checkbox list includes one; numbers, dates and times also compare; text is or is not;
 * a photo, a signature or a position is only answered or not. The type lists are read here, not
 * copied at module load: in the bundle this module may run before the contracts' lists exist.
 */
export function opsFor(type: QuestionType): readonly ConditionOp[] {
  if ([...IMAGE_QUESTION_TYPES, QuestionType.liveLocation, QuestionType.files].includes(type)) return [ConditionOp.answered];
  if (type === QuestionType.checkbox) return [ConditionOp.includes, ConditionOp.answered];
  if (NUMERIC_QUESTION_TYPES.includes(type) || type === QuestionType.date || type === QuestionType.time) return [ConditionOp.equals, ConditionOp.notEquals, ConditionOp.greaterThan, ConditionOp.lessThan, ConditionOp.answered];
  return [ConditionOp.equals, ConditionOp.notEquals, ConditionOp.answered];
}

/** A condition whose test its question's type does not offer takes that type's first test. */
function fitOp(c: ConditionForm, questions: readonly Question[]): ConditionForm {
  const source = questions.find((q) => q.id === c.question);
  const ops = source ? opsFor(source.type) : Object.values(ConditionOp);
  return ops.includes(c.op) ? c : { ...c, op: ops[0]! };
}

/** "Shown if Q3 is Yes", "Shown if Q2 is answered and Q5 is greater than 4": each condition names its question by number. */
export function showIfSummary(showIf: ShowIf, questions: readonly Question[]): string {
  const parts = showIf.conditions.map((c) => {
    const n = questions.findIndex((q) => q.id === c.question);
    const subject = n >= 0 ? `Q${n + 1}` : 'a removed question';
    return c.op === 'answered' ? `${subject} ${OP_LABELS.answered}` : `${subject} ${OP_LABELS[c.op]} ${String(c.value ?? '')}`;
  });
  return `Shown if ${parts.join(showIf.combine === 'any' ? ' or ' : ' and ')}`;
}

export function optionsSummary(q: Question): string | null {
  if (q.type === QuestionType.largeSelect) return `${q.options.length.toLocaleString('en-NG')} options`;
  if (OPTION_QUESTION_TYPES.includes(q.type)) return q.options.join(', ');
  return null;
}

function isQuestion(v: unknown): v is Question {
  const q = v as Question | null;
  return typeof q === 'object' && q !== null && typeof q.text === 'string' && (QUESTION_TYPES as readonly string[]).includes(q.type) && typeof q.compulsory === 'boolean' && Array.isArray(q.options) && q.options.every((o) => typeof o === 'string');
}

/** A stored draft, or null when there is none or it is unreadable (then it is simply ignored). */
export function parseDraft(raw: string | null): BuilderState | null {
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Partial<BuilderState> | null;
    if (!d || typeof d !== 'object') return null;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    const questions = Array.isArray(d.questions) ? d.questions.filter(isQuestion) : [];
    const f = (d.form ?? {}) as Partial<QuestionForm>;
    const type = (QUESTION_TYPES as readonly string[]).includes(f.type as string) && !DISABLED_QUESTION_TYPES.includes(f.type as QuestionType) ? (f.type as QuestionType) : QuestionType.text;
    const dataset = Array.isArray(f.dataset) && f.dataset.every((o) => typeof o === 'string') ? f.dataset : null;
    const conditions = Array.isArray(f.conditions) ? f.conditions.filter((c): c is ConditionForm => typeof c?.question === 'string' && typeof c.op === 'string' && typeof c.value === 'string') : [];
    const form: QuestionForm = {
      ...EMPTY_FORM,
      text: str(f.text),
      type,
      options: str(f.options),
      dataset,
      datasetFile: dataset ? str(f.datasetFile) || 'saved list' : null,
      compulsory: f.compulsory !== false,
      min: str(f.min),
      max: str(f.max),
      minLength: str(f.minLength),
      maxLength: str(f.maxLength),
      notInFuture: f.notInFuture === true,
      message: str(f.message),
      combine: f.combine === 'any' ? 'any' : 'all',
      conditions,
    };
    const editing = typeof d.editing === 'number' && d.editing >= 0 && d.editing < questions.length ? d.editing : null;
    return { title: str(d.title), description: str(d.description), expected: str(d.expected), questions, form, editing };
  } catch {
    return null;
  }
}

export function isBlank(state: BuilderState): boolean {
  const f = state.form;
  return !state.title.trim() && !state.description.trim() && !state.expected.trim() && state.questions.length === 0 && !f.text.trim() && !f.options.trim() && !f.dataset && f.conditions.length === 0;
}
