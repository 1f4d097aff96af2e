import {
  CreateSurveyBody,
  DISABLED_QUESTION_TYPES,
  UPLOAD_QUESTION_TYPES,
  isPersonalQuestion,
  Msg,
  OPTION_QUESTION_TYPES,
  QUESTION_TYPES,
  LENGTH_QUESTION_TYPES,
  NEVER_COMPULSORY_QUESTION_TYPES,
  NO_ANSWER_QUESTION_TYPES,
  NUMERIC_QUESTION_TYPES,
  QuestionType,
  RANGE_QUESTION_TYPES,
  questionProblem,
  questionRulesProblems,
  splitOptions,
  formStructureProblems,
  ConditionOp,
  type Constraint,
  type Question,
  type ShowIf,
  type Choice,
  type SurveyLanguage,
} from '@survey-bird/contracts';
import { countOf } from '../../ui/format';
import type { Languages } from './logic-fields';
import { readableExpression } from './builder-structure';

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
  /** Its answers are personal data; undefined: its type's default (photos, files and locations are). */
  personal?: boolean | undefined;
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
  /** XLSForm texts and expressions as typed (`${id}` names a question); empty: none. */
  hint: string;
  relevantExpr: string;
  requiredExpr: string;
  constraintExpr: string;
  constraintMessage: string;
  calculation: string;
  choiceFilter: string;
  /** A select's filter columns (`state` of an LGA) and each option's value in them, by option label. */
  choiceColumns: string[];
  choiceValues: Record<string, Record<string, string>>;
}

/** The form's XLSForm text and expression fields, each stored under the same name on the question. */
export const LOGIC_FIELDS = ['hint', 'relevantExpr', 'requiredExpr', 'constraintExpr', 'constraintMessage', 'calculation', 'choiceFilter'] as const;
export type LogicField = (typeof LOGIC_FIELDS)[number];

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
  /** An imported XLSForm's languages (the questions carry their translations); published with the survey. */
  languages?: SurveyLanguage[];
  defaultLanguage?: string;
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
  hint: '',
  relevantExpr: '',
  requiredExpr: '',
  constraintExpr: '',
  constraintMessage: '',
  calculation: '',
  choiceFilter: '',
  choiceColumns: [],
  choiceValues: {},
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
  /** The question list rearranged or changed in place (groups and repeats: builder-structure.ts); the question being edited stays in the form. */
  | { type: 'questions'; questions: Question[] }
  /** Languages added, removed or made the default, or translations typed (the questions carry them). */
  | { type: 'languages'; questions: Question[]; languages: Languages }
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

/**
 * The question the form describes. `original` (the question being edited) gives its choices'
 * names and translations back, by label.
 */
export function questionFromForm(form: QuestionForm, id?: string, original?: Question): Question {
  const q: Question = { text: form.text.trim(), type: form.type, compulsory: NO_ANSWER_QUESTION_TYPES.includes(form.type) || NEVER_COMPULSORY_QUESTION_TYPES.includes(form.type) ? false : form.compulsory, options: formOptions(form) };
  if (id !== undefined) q.id = id;
  // Always said: a builder-made question carries its mark, so publishing never leaves it to a default.
  if (!NO_ANSWER_QUESTION_TYPES.includes(form.type)) q.personal = form.personal ?? isPersonalQuestion({ type: form.type });
  const showIf = showIfFromForm(form);
  const constraint = constraintFromForm(form);
  if (showIf) q.showIf = showIf;
  if (constraint) q.constraint = constraint;
  for (const field of LOGIC_FIELDS) {
    const v = form[field].trim();
    if (v !== '' && fieldApplies(form.type, field)) q[field] = v;
  }
  if (OPTION_QUESTION_TYPES.includes(form.type) || form.type === QuestionType.largeSelect) {
    const sameKind = original !== undefined && (OPTION_QUESTION_TYPES.includes(original.type) || original.type === QuestionType.largeSelect);
    const columns = OPTION_QUESTION_TYPES.includes(form.type) ? form.choiceColumns : [];
    const choices = choicesFor(q.options, sameKind ? original.choices : undefined, columns, form.choiceValues);
    if (choices) q.choices = choices;
  }
  return q;
}

/** Which of the logic fields a type takes: a calculation only on calculate, a filter only on lists, no answer rules on a note. */
export function fieldApplies(type: QuestionType, field: LogicField): boolean {
  if (field === 'calculation') return type === QuestionType.calculate;
  if (field === 'choiceFilter') return OPTION_QUESTION_TYPES.includes(type) || type === QuestionType.largeSelect;
  if (field === 'hint' || field === 'relevantExpr') return true;
  // A note, a container or a calculation takes no answer: nothing to require or constrain.
  return !NO_ANSWER_QUESTION_TYPES.includes(type) && !NEVER_COMPULSORY_QUESTION_TYPES.includes(type);
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
  const selfId = state.editing === null ? undefined : state.questions[state.editing]?.id;
  if (f.type === QuestionType.calculate && f.calculation.trim() === '') return 'A calculate question needs a calculation';
  const key = question.text.toLowerCase();
  const clash = state.questions.some((q, i) => i !== state.editing && q.text.trim().toLowerCase() === key);
  if (clash) return Msg.duplicateQuestion;
  const before = state.editing === null ? state.questions : state.questions.slice(0, state.editing);
  const rules = questionRulesProblems([...before, question]).find((p) => p.index === before.length);
  if (rules) return rules.message.replace(/^"[^"]*": /, '');
  // The whole form's check with the question in place: a calculation that reads itself through others.
  const at = state.editing ?? state.questions.length;
  const placed = { ...question, id: selfId ?? '__new' };
  const list = state.editing === null ? [...state.questions, placed] : state.questions.map((q, i) => (i === at ? placed : q));
  const structure = formStructureProblems(list, state.languages).find((p) => p.index === at);
  return structure ? structure.message.replace(/^"[^"]*": /, '') : null;
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
    personal: q.personal,
    ...Object.fromEntries(LOGIC_FIELDS.map((field) => [field, q[field] ?? ''])),
    choiceColumns: choiceColumnNames(q.choices),
    choiceValues: Object.fromEntries((q.choices ?? []).filter((c) => c.columns).map((c) => [c.label, { ...c.columns }])),
  };
  if (c.message && !q.constraintMessage && !rules.constraintMessage) rules.message = c.message;
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
      const original = state.editing === null ? undefined : state.questions[state.editing];
      const edited = questionFromForm(state.form, id, original);
      const question = original ? keepFormFields(original, edited) : edited;
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
    case 'questions': {
      const id = state.editing === null ? undefined : state.questions[state.editing]?.id;
      const editing = id === undefined ? null : action.questions.findIndex((q) => q.id === id);
      return editing === null || editing < 0 ? { ...state, questions: action.questions, form: editing === null ? state.form : EMPTY_FORM, editing: null } : { ...state, questions: action.questions, editing };
    }
    case 'languages': {
      const next: BuilderState = { ...state, questions: action.questions };
      delete next.languages;
      delete next.defaultLanguage;
      if (action.languages.languages && action.languages.languages.length > 0) next.languages = action.languages.languages;
      if (action.languages.defaultLanguage && next.languages) next.defaultLanguage = action.languages.defaultLanguage;
      // A default language changed under an open edit swaps the texts: the form reloads from the swapped question.
      if (state.editing !== null && action.languages.defaultLanguage !== state.defaultLanguage) {
        const q = action.questions[state.editing];
        if (q) next.form = formFor(q);
      }
      return next;
    }
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
    ...(state.languages ? { languages: state.languages } : {}),
    ...(state.defaultLanguage ? { defaultLanguage: state.defaultLanguage } : {}),
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
  if ([...UPLOAD_QUESTION_TYPES, QuestionType.liveLocation, QuestionType.files, QuestionType.geotrace, QuestionType.geoshape, QuestionType.rank].includes(type)) return [ConditionOp.answered];
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
      ...(typeof f.personal === 'boolean' ? { personal: f.personal } : {}),
      ...Object.fromEntries(LOGIC_FIELDS.map((field) => [field, str(f[field])])),
      choiceColumns: Array.isArray(f.choiceColumns) ? f.choiceColumns.filter((c): c is string => typeof c === 'string') : [],
      choiceValues: readValues(f.choiceValues),
    };
    const editing = typeof d.editing === 'number' && d.editing >= 0 && d.editing < questions.length ? d.editing : null;
    const languages = Array.isArray(d.languages) ? d.languages.filter((l): l is SurveyLanguage => typeof l?.code === 'string' && typeof l.label === 'string') : [];
    const out: BuilderState = { title: str(d.title), description: str(d.description), expected: str(d.expected), questions, form, editing };
    if (languages.length > 0) out.languages = languages;
    if (typeof d.defaultLanguage === 'string' && d.defaultLanguage) out.defaultLanguage = d.defaultLanguage;
    return out;
  } catch {
    return null;
  }
}

function readValues(v: unknown): Record<string, Record<string, string>> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, Record<string, string>> = {};
  for (const [label, row] of Object.entries(v as Record<string, unknown>)) {
    if (typeof row !== 'object' || row === null) continue;
    out[label] = Object.fromEntries(Object.entries(row as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
  return out;
}

export function isBlank(state: BuilderState): boolean {
  const f = state.form;
  return !state.title.trim() && !state.description.trim() && !state.expected.trim() && state.questions.length === 0 && !f.text.trim() && !f.options.trim() && !f.dataset && f.conditions.length === 0 && LOGIC_FIELDS.every((field) => !f[field].trim()) && !state.languages;
}

export { nestingDepths } from './format';

/**
 * What the question list says of an imported question's XLSForm logic the builder does not edit
 * yet: it is kept as it is and published with the question.
 */
export function formLogicSummary(q: Question, questions: readonly Question[] = []): string[] {
  const out = formLogicParts(q);
  return questions.length === 0 ? out : out.map((t) => readableExpression(t, questions));
}

function formLogicParts(q: Question): string[] {
  const out: string[] = [];
  if (q.repeatCount !== undefined) out.push(`Repeated ${typeof q.repeatCount === 'number' ? `${q.repeatCount} times` : `by ${q.repeatCount}`}`);
  else if (q.type === QuestionType.repeat) out.push('Repeated as often as needed');
  if (q.relevantExpr) out.push(`Shown if ${q.relevantExpr}`);
  if (q.calculation) out.push(`= ${q.calculation}`);
  if (q.constraintExpr) out.push(`Must satisfy ${q.constraintExpr}`);
  if (q.requiredExpr) out.push(`Required if ${q.requiredExpr}`);
  if (q.choiceFilter) out.push(`Choices where ${q.choiceFilter}`);
  if (q.translations) out.push(`${Object.keys(q.translations).length + 1} languages`);
  return out;
}

/**
 * A question saved from the builder's form keeps what the form does not show (its group, XLSForm
 * expressions, translations, hints); its choices' names only while its options are unchanged.
 */
export function keepFormFields(original: Question, edited: Question): Question {
  const { showIf: _showIf, constraint: _constraint, choices: _choices, ...kept } = original;
  // The form edits these: what it leaves empty is removed, not kept.
  for (const field of LOGIC_FIELDS) delete kept[field];
  return { ...kept, ...edited };
}

/** "12 questions", "12 questions in 2 groups and 1 repeat": containers are counted apart from questions. */
export function importedText(questions: readonly { type: string }[]): string {
  const groups = questions.filter((q) => q.type === QuestionType.group).length;
  const repeats = questions.filter((q) => q.type === QuestionType.repeat).length;
  const containers = [groups > 0 ? countOf(groups, 'group') : '', repeats > 0 ? countOf(repeats, 'repeat') : ''].filter(Boolean).join(' and ');
  const text = countOf(questions.length - groups - repeats, 'question');
  return containers ? `${text} in ${containers}` : text;
}

/**
 * A select's choices as the builder's form describes them: one per option, keeping an existing
 * choice's name and translations by its label, a new one named by its label (what an answer stores
 * without choices, so answers keep their values); `columns` the filter columns' values by label.
 * Undefined when nothing needs choices (no existing ones, no column).
 */
export function choicesFor(options: readonly string[], existing: readonly Choice[] | undefined, columnNames: readonly string[], values: Readonly<Record<string, Readonly<Record<string, string>>>>): Choice[] | undefined {
  const names = columnNames.map((c) => c.trim()).filter((c) => c !== '');
  if (!existing && names.length === 0) return undefined;
  const taken = new Set<string>();
  return options.map((label) => {
    const old = existing?.find((c) => c.label === label);
    let name = old?.name ?? label;
    for (let n = 2; taken.has(name); n++) name = `${old?.name ?? label}_${n}`;
    taken.add(name);
    const columns: Record<string, string> = { ...(old?.columns ?? {}) };
    for (const key of Object.keys(columns)) if (!names.includes(key)) delete columns[key];
    for (const key of names) {
      const v = (values[label]?.[key] ?? '').trim();
      if (v === '') delete columns[key];
      else columns[key] = v;
    }
    const out: Choice = { name, label };
    if (old?.labels && Object.keys(old.labels).length > 0) out.labels = old.labels;
    if (Object.keys(columns).length > 0) out.columns = columns;
    return out;
  });
}

/** The filter columns a question's choices use, in first-seen order. */
export function choiceColumnNames(choices: readonly Choice[] | undefined): string[] {
  const out: string[] = [];
  for (const c of choices ?? []) for (const k of Object.keys(c.columns ?? {})) if (!out.includes(k)) out.push(k);
  return out;
}

