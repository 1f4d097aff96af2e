import type { Condition, Constraint, ShowIf, XlsformImportReply, XlsformSeverity, XlsformUnsupported } from '@survey-bird/contracts';
import { badRequest } from '../../http/errors.js';

/**
 * An XLSForm (ODK, KoboToolbox) read into a survey draft: pure, given the sheets' cells as text
 * (xlsform-read.ts reads the workbook). Everything that is not carried over exactly is listed in
 * `unsupported` with its sheet, row and column, never silently dropped; see docs/decisions.md
 * ("XLSForm import") for the forms of `constraint` and `relevant` understood.
 */
export interface Sheet {
  name: string;
  /** Non-empty rows with their spreadsheet row number; the first is the header row. */
  rows: { number: number; cells: string[] }[];
}

type Draft = XlsformImportReply['draft'];
type DraftQuestion = Draft['questions'][number];

/** Above this many choices a select becomes a large dataset (the builder's own threshold). */
const LARGE_LIST = 50;

const TYPES: Record<string, string> = {
  text: 'text answer',
  integer: 'number',
  int: 'number',
  decimal: 'decimal',
  date: 'date',
  time: 'time',
  image: 'image',
  photo: 'image',
  geopoint: 'live location',
  note: 'note',
  barcode: 'barcode',
};

const TRANSLATION = 'Only one language is imported; this translation was not carried over';
/** The report's order: what was lost first, then what was changed, then what was only reshaped. */
const SEVERITY_ORDER: Record<XlsformSeverity, number> = { dropped: 0, changed: 1, note: 2 };
const SHEET_ORDER: Record<string, number> = { survey: 0, choices: 1, settings: 2 };

const YES = new Set(['yes', 'true', 'true()', '1', 'y']);

/** A sheet's header: lower-cased column names, and the index of each. */
class Columns {
  readonly names: string[];
  constructor(header: string[]) {
    this.names = header.map((h) => h.trim());
  }
  index(name: string): number {
    return this.names.findIndex((h) => h.toLowerCase() === name);
  }
  /** `label`, else `label::English...` / `label::...(en)`, else the first `label::` column. */
  label(base: string): { index: number; others: number[] } {
    const localized = this.names.map((h, i) => ({ h: h.toLowerCase(), i })).filter(({ h }) => h.startsWith(`${base}::`));
    const plain = this.index(base);
    const english = localized.find(({ h }) => /::\s*english\b|\(en\)\s*$/.test(h));
    const index = plain >= 0 ? plain : (english ?? localized[0])?.i ?? -1;
    return { index, others: localized.map(({ i }) => i).filter((i) => i !== index) };
  }
}

const cell = (cells: string[], i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');

export function parseXlsform(sheets: Sheet[], fallbackTitle: string): XlsformImportReply {
  const sheet = (name: string) => sheets.find((s) => s.name.trim().toLowerCase() === name);
  const survey = sheet('survey');
  if (!survey) throw badRequest('The workbook has no "survey" sheet; is it an XLSForm?');
  const [header, ...rows] = survey.rows;
  if (!header) throw badRequest('The "survey" sheet is empty');
  const cols = new Columns(header.cells);
  const typeCol = cols.index('type');
  const nameCol = cols.index('name');
  if (typeCol < 0 || nameCol < 0) throw badRequest('The "survey" sheet needs a "type" and a "name" column in its first row');
  const label = cols.label('label');
  const message = cols.label('constraint_message');
  // Translations are reported on their own below, so they are "known" to the catch-all.
  const known = new Set([typeCol, nameCol, label.index, message.index, cols.index('required'), cols.index('constraint'), cols.index('relevant'), ...label.others, ...message.others]);

  const unsupported: XlsformUnsupported[] = [];
  const report: Report = (sheetName, row, column, reason, severity = reason === TRANSLATION ? 'note' : 'changed') => unsupported.push({ sheet: sheetName, row, column, reason, severity });
  const lists = readChoices(sheet('choices'), report);

  const questions: DraftQuestion[] = [];
  /** XLSForm name -> what a condition on it needs: its id, type and choice names to labels. */
  const byName = new Map<string, { id: string; type: string; choices: Map<string, string> | undefined }>();
  const texts = new Set<string>();
  const groups: { kind: 'group' | 'repeat'; showIf: ShowIf | null; row: number }[] = [];
  const inRepeat = () => groups.some((g) => g.kind === 'repeat');

  for (const { number, cells } of rows) {
    const rawType = cell(cells, typeCol);
    const type = rawType.toLowerCase().replace(/\s+/g, ' ');
    const name = cell(cells, nameCol);
    if (!type) {
      if (cells.some((c) => c.trim())) report('survey', number, 'type', 'A row without a type is not a question', 'dropped');
      continue;
    }
    const otherCells = () => {
      cells.forEach((value, i) => {
        if (!known.has(i) && value.trim() && cols.names[i]) report('survey', number, cols.names[i], columnReason(cols.names[i]));
      });
    };

    if (type === 'begin group' || type === 'begin_group') {
      const relevant = cell(cells, cols.index('relevant'));
      let showIf: ShowIf | null = null;
      if (relevant) {
        const parsed = parseRelevant(relevant, byName);
        if (typeof parsed === 'string') report('survey', number, 'relevant', `The group's condition was not carried over: ${parsed}`);
        else showIf = parsed;
      }
      const title = cell(cells, label.index) || name;
      report('survey', number, 'type', `The group "${title}" was flattened: its questions were imported as questions of the survey${showIf ? ', each with the group\'s condition' : ''}`, 'note');
      groups.push({ kind: 'group', showIf, row: number });
      continue;
    }
    if (type === 'end group' || type === 'end_group' || type === 'end repeat' || type === 'end_repeat') {
      groups.pop();
      continue;
    }
    if (type === 'begin repeat' || type === 'begin_repeat') {
      report('survey', number, 'type', `Repeats are not supported: the repeat "${name}" and every question in it were not imported`, 'dropped');
      groups.push({ kind: 'repeat', showIf: null, row: number });
      continue;
    }
    if (inRepeat()) {
      report('survey', number, 'type', `"${name}" is inside a repeat, which is not supported`, 'dropped');
      continue;
    }

    const [base = '', listName = '', ...rest] = type.split(' ');
    let questionType = TYPES[type];
    let options: string[] = [];
    let choices: Map<string, string> | undefined;
    if (base === 'select_one' || base === 'select_multiple') {
      const list = lists.get(listName);
      if (!listName || rest.length > 0) {
        report('survey', number, 'type', `"${rawType}" is not supported (select from a list of the choices sheet only)`, 'dropped');
        continue;
      }
      if (!list || list.size === 0) {
        report('survey', number, 'type', `The list "${listName}" is not in the choices sheet`, 'dropped');
        continue;
      }
      choices = list;
      options = [...list.values()];
      if (options.length > LARGE_LIST) {
        questionType = 'select (> 50 dataset)';
        if (base === 'select_multiple') report('survey', number, 'type', `A multiple choice of ${options.length} options became a single choice from a large list (more than ${LARGE_LIST} options)`);
      } else if (options.length < 2) {
        report('survey', number, 'type', `The list "${listName}" has fewer than 2 choices`, 'dropped');
        continue;
      } else {
        questionType = base === 'select_one' ? 'select' : 'checkbox';
      }
    }
    if (!questionType) {
      report('survey', number, 'type', typeReason(rawType), 'dropped');
      continue;
    }
    const text = cell(cells, label.index);
    if (!text) {
      report('survey', number, label.index >= 0 ? cols.names[label.index]! : 'label', `"${name || rawType}" has no label`, 'dropped');
      continue;
    }
    otherCells();
    for (const i of label.others) if (cell(cells, i)) report('survey', number, cols.names[i]!, TRANSLATION);
    for (const i of message.others) if (cell(cells, i)) report('survey', number, cols.names[i]!, TRANSLATION);

    const id = idOf(name, questions.length);
    const question: DraftQuestion = { id, text: uniqueText(text, name, texts, number, report), type: questionType as DraftQuestion['type'], compulsory: questionType !== 'note' && YES.has(cell(cells, cols.index('required')).toLowerCase()), options };

    const constraintText = cell(cells, cols.index('constraint'));
    if (constraintText) {
      const parsed = parseConstraint(constraintText, questionType);
      if (typeof parsed === 'string') report('survey', number, 'constraint', parsed);
      else {
        const msg = cell(cells, message.index);
        question.constraint = msg ? { ...parsed.constraint, message: msg.slice(0, 200) } : parsed.constraint;
        if (parsed.note) report('survey', number, 'constraint', parsed.note);
      }
    } else if (cell(cells, message.index)) {
      report('survey', number, cols.names[message.index]!, 'A constraint message without a constraint');
    }

    const own = cell(cells, cols.index('relevant'));
    let showIf: ShowIf | null = null;
    if (own) {
      const parsed = parseRelevant(own, byName);
      if (typeof parsed === 'string') report('survey', number, 'relevant', parsed);
      else showIf = parsed;
    }
    const combined = combine([...groups.map((g) => g.showIf), showIf]);
    if (combined === 'mixed') report('survey', number, 'relevant', "This question's condition and its group's cannot be combined (one joins with and, the other with or); only the question's own was kept");
    const finalShowIf = combined === 'mixed' ? showIf : combined;
    if (finalShowIf) question.showIf = finalShowIf;

    questions.push(question);
    if (name) byName.set(name, { id, type: questionType, choices });
  }
  for (const g of groups) if (g.kind === 'group') report('survey', g.row, 'type', 'This group is never closed with "end group"; its questions were imported', 'note');

  const settings = sheet('settings');
  let title = '';
  if (settings) {
    const [head, first] = settings.rows;
    const at = head ? new Columns(head.cells).label('form_title').index : -1;
    title = first ? cell(first.cells, at) : '';
  }
  unsupported.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (SHEET_ORDER[a.sheet] ?? 3) - (SHEET_ORDER[b.sheet] ?? 3) || a.row - b.row);
  return { draft: { title: (title || fallbackTitle).slice(0, 200), description: '', questions }, unsupported };
}

type Report = (sheet: string, row: number, column: string, reason: string, severity?: XlsformSeverity) => void;

/** list_name -> choice name -> label, in sheet order. */
function readChoices(sheet: Sheet | undefined, report: Report): Map<string, Map<string, string>> {
  const lists = new Map<string, Map<string, string>>();
  if (!sheet) return lists;
  const [header, ...rows] = sheet.rows;
  if (!header) return lists;
  const cols = new Columns(header.cells);
  const listCol = cols.index('list_name') >= 0 ? cols.index('list_name') : cols.index('list name');
  const nameCol = cols.index('name');
  const label = cols.label('label');
  if (listCol < 0 || nameCol < 0) throw badRequest('The "choices" sheet needs a "list_name" and a "name" column in its first row');
  const known = new Set([listCol, nameCol, label.index]);
  /** Each list's labels, to find a repeated one without walking the list (100,000 choices made that 5e9 steps). */
  const labels = new Map<string, Set<string>>();
  for (const { number, cells } of rows) {
    const list = cell(cells, listCol);
    const name = cell(cells, nameCol);
    if (!list) {
      if (cells.some((c) => c.trim())) report('choices', number, 'list_name', 'A choice without a list_name', 'dropped');
      continue;
    }
    const text = cell(cells, label.index) || name;
    if (!text) {
      report('choices', number, 'name', 'A choice without a name or label', 'dropped');
      continue;
    }
    const key = list.toLowerCase();
    let choices = lists.get(key);
    if (!choices) lists.set(key, (choices = new Map<string, string>()));
    let seen = labels.get(key);
    if (!seen) labels.set(key, (seen = new Set<string>()));
    const kept = text.slice(0, 500);
    if (seen.has(kept) || choices.has(name)) {
      report('choices', number, '', `"${text}" appears twice in the list "${list}"; kept once`);
      continue;
    }
    choices.set(name, kept);
    seen.add(kept);
    cells.forEach((value, i) => {
      if (!known.has(i) && value.trim() && cols.names[i]) {
        const column = cols.names[i];
        report('choices', number, column, column.toLowerCase().startsWith('label::') ? TRANSLATION : `The column "${column}" (choice filters, media) is not supported`);
      }
    });
  }
  return lists;
}

function typeReason(type: string): string {
  const t = type.toLowerCase();
  if (['start', 'end', 'today', 'deviceid', 'subscriberid', 'simserial', 'phonenumber', 'username', 'email', 'audit', 'start-geopoint'].includes(t)) return `The metadata field "${type}" is not supported (Survey Bird records who answered and when by itself)`;
  if (t === 'calculate') return 'Calculations are not supported';
  if (t.startsWith('select_one_from_file') || t.startsWith('select_multiple_from_file')) return 'Choices from an external file are not supported';
  if (t.startsWith('rank')) return 'Ranking questions are not supported';
  return `The question type "${type}" is not supported`;
}

function columnReason(column: string): string {
  const c = column.toLowerCase();
  if (c.startsWith('hint')) return 'Hints are not supported';
  if (c.startsWith('label::') || c.startsWith('constraint_message::')) return TRANSLATION;
  if (c === 'required_message' || c.startsWith('required_message::')) return 'A custom "required" message is not supported';
  if (c === 'appearance') return 'Appearances are not supported';
  if (c === 'calculation') return 'Calculations are not supported';
  if (c === 'default') return 'Default answers are not supported';
  if (c === 'choice_filter') return 'Choice filters are not supported';
  if (c === 'read_only') return 'Read-only questions are not supported';
  if (c.startsWith('media::') || c === 'image' || c === 'audio' || c === 'video') return 'Media in questions is not supported';
  return `The column "${column}" is not supported`;
}

/** The XLSForm name as a question id: [A-Za-z0-9_-], at most 64; a row without a name gets its place. */
function idOf(name: string, index: number): string {
  const id = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return id || `q${index + 1}`;
}

/** Question texts are unique in a survey: a repeated label gets its name added (and is reported). */
function uniqueText(text: string, name: string, texts: Set<string>, row: number, report: Report): string {
  let out = text.slice(0, 1000);
  if (texts.has(out.toLowerCase())) {
    out = `${out} (${name || row})`;
    report('survey', row, 'label', `The label repeats an earlier question's; "${name || row}" was added to keep it unique`);
  }
  texts.add(out.toLowerCase());
  return out;
}

const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;

/** `. >= n`, `. <= n`, `. > n and . < m`, `string-length(.) <= n`, `. <= today()`; anything else is a reason. */
export function parseConstraint(expression: string, type: string): { constraint: Constraint; note?: string } | string {
  const out: Constraint = {};
  const notes: string[] = [];
  const numeric = type === 'number' || type === 'decimal';
  for (const part of splitTop(expression, 'and')) {
    let m: RegExpMatchArray | null;
    if ((m = part.match(new RegExp(String.raw`^\.\s*(>=|<=|>|<)\s*${NUMBER}$`))) && numeric) {
      let n = Number(m[2]);
      if (m[1] === '>' || m[1] === '<') {
        if (type === 'number' && Number.isInteger(n)) n += m[1] === '>' ? 1 : -1;
        else notes.push(`"${part}" was kept as "${m[1]}= ${n}"`);
      }
      if (m[1]!.startsWith('>')) out.min = n;
      else out.max = n;
    } else if ((m = part.match(/^string-length\(\s*\.\s*\)\s*(>=|<=|>|<)\s*(\d+)$/)) && !numeric) {
      const n = Number(m[2]) + (m[1] === '>' ? 1 : m[1] === '<' ? -1 : 0);
      if (m[1]!.startsWith('>')) out.minLength = n;
      else out.maxLength = Math.max(1, n);
    } else if (/^\.\s*<=\s*today\(\)$/.test(part) && type === 'date') {
      out.notInFuture = true;
    } else {
      return `The constraint "${expression}" is not supported (supported: . >= n, . <= n, . > n and . < m, string-length(.) <= n)`;
    }
  }
  return notes.length === 0 ? { constraint: out } : { constraint: out, note: `${notes.join(' and ')}: a decimal's limits are included` };
}

const QUOTED = String.raw`(?:'([^']*)'|"([^"]*)")`;

/**
 * `${q} = 'x'`, `${q} != 'x'`, `selected(${q}, 'x')`, `${q} > n`, `${q} < n`, `${q} != ''`, joined
 * by `and` or by `or` (one kind per expression); a choice's name becomes its label, as answers hold it.
 */
export function parseRelevant(expression: string, byName: Map<string, { id: string; type: string; choices: Map<string, string> | undefined }>): ShowIf | string {
  const unsupported = `The condition "${expression}" is not supported (supported: \${q} = 'x', \${q} != 'x', selected(\${q}, 'x'), \${q} > n, \${q} < n, joined by and or by or)`;
  const ands = splitTop(expression, 'and');
  const ors = splitTop(expression, 'or');
  if (ands.length > 1 && ors.length > 1) return `${unsupported}: and and or are mixed`;
  const parts = ands.length > 1 ? ands : ors;
  const conditions: Condition[] = [];
  for (const part of parts) {
    let m: RegExpMatchArray | null;
    let name: string;
    let condition: Omit<Condition, 'question'>;
    if ((m = part.match(new RegExp(String.raw`^selected\(\s*\$\{([\w.-]+)\}\s*,\s*${QUOTED}\s*\)$`)))) {
      name = m[1]!;
      condition = { op: 'includes', value: m[2] ?? m[3] ?? '' };
    } else if ((m = part.match(new RegExp(String.raw`^\$\{([\w.-]+)\}\s*(=|!=)\s*${QUOTED}$`)))) {
      name = m[1]!;
      const value = m[3] ?? m[4] ?? '';
      condition = value === '' ? (m[2] === '!=' ? { op: 'answered' } : { op: 'equals', value: '' }) : { op: m[2] === '=' ? 'equals' : 'notEquals', value };
      if (value === '' && m[2] === '=') return `${unsupported}: "is not answered" cannot be expressed`;
    } else if ((m = part.match(new RegExp(String.raw`^\$\{([\w.-]+)\}\s*(>|<|=|!=)\s*${NUMBER}$`)))) {
      name = m[1]!;
      const op = ({ '>': 'greaterThan', '<': 'lessThan', '=': 'equals', '!=': 'notEquals' } as const)[m[2] as '>' | '<' | '=' | '!='];
      condition = op === 'equals' || op === 'notEquals' ? { op, value: m[3]! } : { op, value: Number(m[3]) };
    } else {
      return unsupported;
    }
    const source = byName.get(name);
    if (!source) return `The condition "${expression}" names \${${name}}, which is not an earlier imported question`;
    if (typeof condition.value === 'string' && source.choices) {
      const labelOf = source.choices.get(condition.value);
      if (labelOf === undefined) return `The condition "${expression}" names "${condition.value}", which is not a choice of \${${name}}`;
      condition.value = labelOf;
    }
    conditions.push({ question: source.id, ...condition });
  }
  if (conditions.length > 20) return `${unsupported}: more than 20 conditions`;
  return { combine: ors.length > 1 ? 'any' : 'all', conditions };
}

/** The conditions of the enclosing groups and the question's own, all of which must hold. */
function combine(parts: (ShowIf | null)[]): ShowIf | null | 'mixed' {
  const present = parts.filter((p): p is ShowIf => p !== null);
  if (present.length === 0) return null;
  if (present.length === 1) return present[0]!;
  // Each part must hold: fine as one "all" when every part is "all" or a single condition.
  if (present.some((p) => p.combine === 'any' && p.conditions.length > 1)) return 'mixed';
  const conditions = present.flatMap((p) => p.conditions);
  return conditions.length > 20 ? 'mixed' : { combine: 'all', conditions };
}

/** `a and b` split at top level (outside quotes and parentheses), outer parentheses dropped. */
function splitTop(expression: string, word: 'and' | 'or'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  const text = stripParens(expression.trim());
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && /\s/.test(ch) && text.slice(i + 1, i + 2 + word.length).toLowerCase() === `${word} ` && i + 1 > start) {
      parts.push(text.slice(start, i).trim());
      start = i + 1 + word.length;
      i = start;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.map(stripParens);
}

function stripParens(text: string): string {
  let t = text.trim();
  while (t.startsWith('(') && t.endsWith(')')) {
    let depth = 0;
    let wraps = true;
    for (let i = 0; i < t.length - 1; i++) {
      if (t[i] === '(') depth++;
      else if (t[i] === ')') depth--;
      if (depth === 0) {
        wraps = false;
        break;
      }
    }
    if (!wraps) break;
    t = t.slice(1, -1).trim();
  }
  return t;
}
