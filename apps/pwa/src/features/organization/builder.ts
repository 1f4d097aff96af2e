import { StorageKey } from '../../storage-keys';
import {
  CreateSurveyBody,
  DISABLED_QUESTION_TYPES,
  Msg,
  OPTION_QUESTION_TYPES,
  QUESTION_TYPES,
  QuestionType,
  questionProblem,
  splitOptions,
  type Question,
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

export const EMPTY_FORM: QuestionForm = { text: '', type: QuestionType.text, options: '', dataset: null, datasetFile: null, compulsory: true };
export const EMPTY_BUILDER: BuilderState = { title: '', description: '', expected: '', questions: [], form: EMPTY_FORM, editing: null };

export type BuilderAction =
  | { type: 'survey'; change: Partial<Pick<BuilderState, 'title' | 'description' | 'expected'>> }
  | { type: 'form'; change: Partial<QuestionForm> }
  /** Add (appends) or Save (replaces the edited question in place); ignored when the form is invalid. */
  | { type: 'commit' }
  | { type: 'edit'; index: number }
  | { type: 'cancelEdit' }
  | { type: 'delete'; index: number }
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

export function questionFromForm(form: QuestionForm): Question {
  return { text: form.text.trim(), type: form.type, compulsory: form.compulsory, options: formOptions(form) };
}

/** The toast for an invalid Add/Save ('Question text cannot be empty', the options rule, a repeated text), or null. */
export function commitProblem(state: BuilderState): string | null {
  const question = questionFromForm(state.form);
  const problem = questionProblem(question);
  if (problem) return problem;
  const key = question.text.toLowerCase();
  const clash = state.questions.some((q, i) => i !== state.editing && q.text.trim().toLowerCase() === key);
  return clash ? Msg.duplicateQuestion : null;
}

function formFor(q: Question): QuestionForm {
  if (q.type === QuestionType.largeSelect) return { ...EMPTY_FORM, text: q.text, type: q.type, compulsory: q.compulsory, dataset: q.options, datasetFile: 'saved list' };
  return { ...EMPTY_FORM, text: q.text, type: q.type, compulsory: q.compulsory, options: OPTION_QUESTION_TYPES.includes(q.type) ? q.options.join(', ') : '' };
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
      // An edited question keeps its id (its answers' column across versions) and rules the form does not show.
      const before = state.editing === null ? undefined : state.questions[state.editing];
      const kept = { ...(before?.id ? { id: before.id } : {}), ...(before?.showIf ? { showIf: before.showIf } : {}), ...(before?.constraint ? { constraint: before.constraint } : {}) };
      const question = { ...kept, ...questionFromForm(state.form) };
      const questions = state.editing === null
        ? [...state.questions, question]
        : state.questions.map((q, i) => (i === state.editing ? question : q));
      return { ...state, questions, form: EMPTY_FORM, editing: null };
    }
    case 'edit': {
      const q = state.questions[action.index];
      return q ? { ...state, form: formFor(q), editing: action.index } : state;
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
export function optionsSummary(q: Question): string | null {
  if (q.type === QuestionType.largeSelect) return `${q.options.length.toLocaleString('en-NG')} options`;
  if (OPTION_QUESTION_TYPES.includes(q.type)) return q.options.join(', ');
  return null;
}

// The in-progress survey survives a reload: one draft per account in localStorage.
export const DRAFT_KEY_PREFIX = StorageKey.surveyDraftPrefix;

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
    const form: QuestionForm = { text: str(f.text), type, options: str(f.options), dataset, datasetFile: dataset ? str(f.datasetFile) || 'saved list' : null, compulsory: f.compulsory !== false };
    const editing = typeof d.editing === 'number' && d.editing >= 0 && d.editing < questions.length ? d.editing : null;
    return { title: str(d.title), description: str(d.description), expected: str(d.expected), questions, form, editing };
  } catch {
    return null;
  }
}

export function isBlank(state: BuilderState): boolean {
  const f = state.form;
  return !state.title.trim() && !state.description.trim() && !state.expected.trim() && state.questions.length === 0 && !f.text.trim() && !f.options.trim() && !f.dataset;
}
