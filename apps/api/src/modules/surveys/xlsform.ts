import { Limits, METADATA_QUESTION_TYPES, QuestionType, type XlsformImportReply, type XlsformSeverity, type XlsformUnsupported } from '@survey-bird/contracts';
import { compileExpression } from '@survey-bird/contracts/expressions';
import { badRequest } from '../../http/errors.js';
import { cell, Header, languageOf, TEXT_FIELDS, type Language, type TextColumn } from './xlsform-columns.js';
import { parseConstraint, parseRelevant, type ConditionSource } from './xlsform-rules.js';

/** The answer scope of questions outside every repeat (a repeat's scope is its id). */
const RESPONSE_SCOPE = '';

/**
 * An XLSForm (ODK, KoboToolbox, SurveyCTO) read into a survey draft of the form model: pure, given
 * the sheets' cells as text (xlsform-read.ts reads the workbook). Groups and repeats become
 * container entries their members name as `parent`; expressions are kept as XLSForm text with
 * `${id}` references, checked by the contracts' engine. Everything not carried over exactly is
 * listed in `unsupported` with its sheet, row and column, never silently dropped; docs/decisions.md
 * ("Forms") says what is read and how.
 */
export interface Sheet {
  name: string;
  /** Non-empty rows with their spreadsheet row number; the first is the header row. */
  rows: { number: number; cells: string[] }[];
  /** A sheet of the workbook that is not read (not survey, choices or settings): named in the report. */
  skipped?: boolean;
}

type Draft = XlsformImportReply['draft'];
type DraftQuestion = Draft['questions'][number];
type Choice = NonNullable<DraftQuestion['choices']>[number];
type Translation = NonNullable<DraftQuestion['translations']>[string];

/** Limits.maxRepeatInstances and Limits.maxExpression of the form model. */
const MAX_REPEAT_INSTANCES = 500;
const MAX_EXPRESSION = 4000;
const MAX_FORM_TEXT = 2000;

/** Above this many choices a select becomes a large dataset (the builder's own threshold). */
const LARGE_LIST = 50;

/** XLSForm types and the spellings pyxform still accepts, lower-cased, to the model's types. */
const TYPES: Record<string, string> = {};
const alias = (type: string, spellings: string[]) => spellings.forEach((s) => (TYPES[s] = type));
alias(QuestionType.text, ['text', 'string', 'q string', 'q text', 'add text prompt']);
alias(QuestionType.number, ['integer', 'int', 'q int', 'q integer', 'add integer prompt']);
alias(QuestionType.decimal, ['decimal', 'q decimal', 'add decimal prompt']);
alias(QuestionType.date, ['date', 'q date', 'add date prompt']);
alias(QuestionType.time, ['time', 'q time', 'add time prompt']);
alias(QuestionType.datetime, ['datetime', 'q date time', 'q datetime', 'add date time prompt', 'add datetime prompt']);
alias(QuestionType.image, ['image', 'photo', 'q picture', 'q image', 'q photo', 'add image prompt', 'add photo prompt']);
alias(QuestionType.liveLocation, ['geopoint', 'gps', 'location', 'q location', 'q geopoint', 'q gps', 'add location prompt', 'add geopoint prompt']);
alias(QuestionType.note, ['note', 'q note', 'add note prompt']);
alias(QuestionType.barcode, ['barcode', 'q barcode', 'add barcode prompt']);
alias(QuestionType.calculate, ['calculate']);
alias(QuestionType.acknowledge, ['acknowledge', 'trigger', 'q acknowledge']);
alias(QuestionType.range, ['range']);
alias(QuestionType.geotrace, ['geotrace', 'q geotrace', 'add geotrace prompt']);
alias(QuestionType.geoshape, ['geoshape', 'q geoshape', 'add geoshape prompt']);
alias(QuestionType.audio, ['audio', 'q audio', 'add audio prompt']);
alias(QuestionType.video, ['video', 'q video', 'add video prompt']);
alias(QuestionType.file, ['file', 'q file', 'add file prompt']);
for (const meta of ['start', 'end', 'today', 'deviceid', 'username']) alias(meta, [meta]);
alias(QuestionType.userEmail, ['email']);

/** Types the phone fills by itself: never shown, never compulsory, named by their XLSForm name. */
const META = new Set<string>(METADATA_QUESTION_TYPES);
/** Types without an answer the person types: no label needed. */
const LABEL_OPTIONAL = new Set([...META, 'calculate']);
const NOT_IN_BROWSER = new Set(['simserial', 'phonenumber', 'subscriberid', 'uri:simserial', 'uri:phonenumber', 'uri:subscriberid']);

/** `select_one list`, `select1 list`, `select list` (multiple), `select all that apply from list`, ... with `or_other`. */
const SELECT = /^(select all that apply from|select all that apply|add select multiple prompt using|select_multiple|select multiple|add select one prompt using|select one from|select one|select_one|select1|select)\s+(\S+)(\s+or_other)?$/;
/** `rank list` (pyxform), `odk:rank list` as some tools write it: the choices of a list put in order. */
const RANK = /^(odk:rank|rank)\s+(\S+)$/;
/** A list from a CSV sent with the form (ODK's `select_one_from_file wards.csv`): read as a choices sheet's list. */
const FROM_FILE = /^(select_one_from_file|select_multiple_from_file)\s+(\S+\.csv)(\s+or_other)?$/;
const BEGIN = /^begin[ _](group|repeat|looped[ _]group)$/;
const END = /^end[ _](group|repeat|looped[ _]group)$/;

/** The report's order: what was lost first, then what was changed, then what was only reshaped. */
const SEVERITY_ORDER: Record<XlsformSeverity, number> = { dropped: 0, changed: 1, note: 2 };
const SHEET_ORDER: Record<string, number> = { survey: 0, choices: 1, settings: 2 };

const YES = new Set(['yes', 'true', 'true()', '1', 'y']);
const NO = new Set(['', 'no', 'false', 'false()', '0', 'n']);

type Report = (sheet: string, row: number, column: string, reason: string, severity?: XlsformSeverity) => void;

interface ChoiceRow extends Choice {
  row: number;
}

/** An imported question before its expressions' references are checked. */
interface Pending {
  question: DraftQuestion;
  row: number;
  inRepeat: boolean;
  /** Expression fields as read, with the column each came from. */
  expressions: { field: ExpressionField; column: string; source: string }[];
}
type ExpressionField = 'relevantExpr' | 'requiredExpr' | 'constraintExpr' | 'calculation' | 'choiceFilter' | 'readOnly' | 'repeatCount';

export function parseXlsform(sheets: Sheet[], fallbackTitle: string, files: readonly Sheet[] = []): XlsformImportReply {
  const sheet = (name: string) => sheets.find((s) => !s.skipped && s.name.trim().toLowerCase() === name);
  const survey = sheet('survey');
  if (!survey) throw badRequest('The workbook has no "survey" sheet; is it an XLSForm?');
  const [header, ...rows] = survey.rows;
  if (!header) throw badRequest('The "survey" sheet is empty');
  const cols = new Header(header.cells);
  const typeCol = cols.index('type');
  const nameCol = cols.index('name');
  if (typeCol < 0 || nameCol < 0) throw badRequest('The "survey" sheet needs a "type" and a "name" column in its first row');

  const unsupported: XlsformUnsupported[] = [];
  const report: Report = (sheetName, row, column, reason, severity = 'changed') => unsupported.push({ sheet: sheetName, row, column, reason, severity });
  for (const s of sheets) if (s.skipped) report(s.name, 1, '', `The sheet "${s.name}" is not read: an XLSForm is read from its survey, choices and settings sheets`, 'note');

  const settings = readSettings(sheet('settings'), report);
  const choicesSheet = sheet('choices');
  const choiceHeader = choicesSheet?.rows[0] ? new Header(choicesSheet.rows[0].cells) : null;

  // Languages: every `::Language` of either sheet; the default from settings, else the plain
  // columns' (pyxform: a column without a language is in the default language), else the first.
  const languages: Language[] = [];
  for (const l of [...cols.languages, ...(choiceHeader?.languages ?? [])]) if (!languages.some((x) => x.code === l.code)) languages.push(l);
  const hasPlain = cols.hasPlainText || (choiceHeader?.hasPlainText ?? false);
  let defaultLanguage: Language | null = null;
  if (settings.defaultLanguage) {
    const wanted = languageOf(settings.defaultLanguage);
    defaultLanguage = languages.find((l) => l.code === wanted.code || l.label.toLowerCase() === wanted.label.toLowerCase()) ?? wanted;
  } else if (hasPlain && languages.length > 0) defaultLanguage = { code: 'default', label: 'Default' };
  else defaultLanguage = languages[0] ?? null;
  if (defaultLanguage && !languages.some((l) => l.code === defaultLanguage.code)) languages.unshift(defaultLanguage);
  const defaultCode = defaultLanguage?.code ?? '';
  const others = languages.filter((l) => l.code !== defaultCode);
  const read = new Set(languages.map((l) => l.code));

  /** The text of `column` in every language of a row: the default language's, and the others'. */
  const texts = (h: Header, cells: string[], column: TextColumn) => {
    const main = cell(cells, h.textIndex(column, defaultCode, true));
    const translated: Record<string, string> = {};
    for (const l of others) {
      const v = cell(cells, h.textIndex(column, l.code, false));
      if (v) translated[l.code] = v;
    }
    return { main, translated };
  };

  const lists = readChoices(choicesSheet, choiceHeader, texts, read, report);
  const fileLists = readListFiles(files, texts, read, report);

  const pending: Pending[] = [];
  const ids = new Set<string>();
  /** XLSForm name -> id (a name made a valid id, or renamed when taken). */
  const idOfName = new Map<string, string>();
  const usedTexts = new Set<string>();
  const stack: { id: string; kind: 'group' | 'repeat'; row: number; word: string }[] = [];
  const inRepeat = () => stack.some((s) => s.kind === 'repeat');

  const mintId = (name: string, row: number, fallback: string): string => {
    let id = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || fallback;
    if (name && id !== name) report('survey', row, 'name', `The name "${name}" became the id "${id}" (letters, digits, "_" and "-", at most 64)`, 'note');
    if (!name) report('survey', row, 'name', `A row without a name; it was given the id "${id}"`, 'note');
    if (ids.has(id)) {
      let n = 2;
      while (ids.has(`${id.slice(0, 60)}_${n}`)) n++;
      const renamed = `${id.slice(0, 60)}_${n}`;
      report('survey', row, 'name', `The name "${name || id}" is already used in this form; this one became "${renamed}" (expressions naming it point to the first)`);
      id = renamed;
    }
    ids.add(id);
    if (name && !idOfName.has(name)) idOfName.set(name, id);
    return id;
  };

  /** Answers are kept by label within their scope (the response, or one repeat instance): labels are unique per scope; a group's is only a title. */
  const scope = (): string => {
    const repeat = [...stack].reverse().find((s) => s.kind === 'repeat');
    return repeat === undefined ? RESPONSE_SCOPE : repeat.id;
  };
  const uniqueText = (text: string, id: string, row: number, column: string, isGroup = false): string => {
    let out = text;
    if (out.length > Limits.maxQuestionText) {
      out = out.slice(0, Limits.maxQuestionText);
      report('survey', row, column, `The label is longer than ${Limits.maxQuestionText} characters; it was cut to that length`);
    }
    if (isGroup) return out;
    const key = (t: string) => `${scope()}\u0000${t.toLowerCase()}`;
    if (usedTexts.has(key(out))) {
      out = `${out.slice(0, Limits.maxQuestionText - id.length - 3)} (${id})`;
      report('survey', row, column, `The label repeats an earlier one's; "(${id})" was added to keep it unique (answers are kept by label)`);
    }
    usedTexts.add(key(out));
    return out;
  };
  const forgetText = (text: string) => usedTexts.delete(`${scope()}\u0000${text.toLowerCase()}`);

  /** Text columns, plain columns and what is left over, reported cell by cell (unknown columns once each, below). */
  const unknownColumns = new Map<number, number>();
  const reportLeftovers = (cells: string[], row: number, consumed: Set<number>) => {
    cells.forEach((value, i) => {
      if (!value.trim() || consumed.has(i) || cols.isRead(i, read)) return;
      const kind = cols.kinds[i]!;
      const column = cols.names[i]!;
      if (kind.kind === 'unknown') unknownColumns.set(i, (unknownColumns.get(i) ?? 0) + 1);
      else if (kind.kind === 'media') report('survey', row, column, 'Media in labels (images, audio, video) is not supported');
      else if (kind.kind === 'text') report('survey', row, column, `The language "${kind.language?.label ?? ''}" is not read`);
      else report('survey', row, column, `The column "${column}" is not supported`);
    });
  };

  for (const { number, cells } of rows) {
    const rawType = cell(cells, typeCol);
    // `#` in the type cell marks a comment row, as in pyxform.
    if (rawType.startsWith('#')) continue;
    const type = rawType.toLowerCase().replace(/\s+/g, ' ');
    const name = cell(cells, nameCol);
    if (!type) {
      if (cells.some((c) => c.trim())) report('survey', number, 'type', 'A row without a type is not a question', 'dropped');
      continue;
    }
    /** Plain columns this row's kind does not use: reported as not carried for it. */
    const unused = new Set<number>();
    const plain = (column: Parameters<Header['index']>[0]) => cell(cells, cols.index(column));
    const notFor = (column: Parameters<Header['index']>[0], what: string) => {
      if (plain(column)) {
        report('survey', number, column, `"${column}" does not apply to ${what}; it was not carried over`);
        unused.add(cols.index(column));
      }
    };

    const end = type.match(END);
    if (end) {
      const kind = end[1] === 'repeat' ? 'repeat' : end[1]!.startsWith('looped') ? 'repeat' : 'group';
      const open = stack.pop();
      if (!open) report('survey', number, 'type', `"${rawType}" closes nothing; it was ignored`, 'note');
      else if (open.kind !== kind) report('survey', number, 'type', `"${rawType}" closes the ${open.kind} "${open.id}" opened on row ${open.row}`, 'note');
      continue;
    }

    const begin = type.match(BEGIN);
    const rank = type.match(RANK);
    const fromFile = type.match(FROM_FILE);
    const select = rank ? ['', 'rank', rank[2]!] : fromFile ?? type.match(SELECT);
    let modelType: string | undefined;
    let choices: ChoiceRow[] | undefined;
    let listName = '';
    if (begin) modelType = begin[1] === 'group' ? 'group' : 'repeat';
    else if (select) {
      listName = select[2]!;
      const multiple = /all that apply|multiple|^select$/.test(select[1]!);
      const list = (fromFile ? fileLists : lists).get(listName.toLowerCase());
      if (fromFile && !fileLists.has(listName.toLowerCase())) {
        report('survey', number, 'type', `The list file "${listName}" was not uploaded with the form: choose it beside the XLSForm`, 'dropped');
        continue;
      }
      if (!list || list.length === 0) {
        report('survey', number, 'type', fromFile ? `The list file "${listName}" has no choices` : `The list "${listName}" is not in the choices sheet`, 'dropped');
        continue;
      }
      choices = list.map((c) => ({ ...c }));
      if (select[3]) {
        if (!choices.some((c) => c.name === 'other')) choices.push({ name: 'other', label: 'Other', row: 0, ...(others.length ? { labels: Object.fromEntries(others.map((l) => [l.code, 'Other'])) } : {}) });
      }
      if (rank) {
        if (choices.length < Limits.minOptions) {
          report('survey', number, 'type', `The list "${listName}" has fewer than ${Limits.minOptions} choices`, 'dropped');
          continue;
        }
        modelType = 'rank';
      } else if (choices.length > LARGE_LIST) {
        modelType = 'select (> 50 dataset)';
        if (multiple) report('survey', number, 'type', `A multiple choice of ${choices.length} options became a single choice from a large list (more than ${LARGE_LIST} options)`);
      } else if (choices.length < Limits.minOptions) {
        report('survey', number, 'type', `The list "${listName}" has fewer than ${Limits.minOptions} choices`, 'dropped');
        continue;
      } else modelType = multiple ? 'checkbox' : 'select';
    } else modelType = TYPES[type];
    if (!modelType) {
      report('survey', number, 'type', typeReason(rawType, type), 'dropped');
      continue;
    }

    // Appearances that name a type of its own here: a signature pad, a camera-only photo, the builder's phone and e-mail answers.
    let appearance = plain('appearance');
    const words = appearance.split(/\s+/).filter(Boolean);
    const take = (word: string) => {
      if (!words.includes(word)) return false;
      appearance = words.filter((w) => w !== word).join(' ');
      return true;
    };
    if (modelType === 'image' && take('signature')) modelType = 'signature';
    else if (modelType === 'image' && take('new')) modelType = 'live images';
    else if (modelType === 'text answer' && take('phone')) modelType = 'phone';
    else if (modelType === 'text answer' && take('email')) modelType = 'email';

    const label = texts(cols, cells, 'label');
    let text = label.main;
    const labelColumn = cols.names[cols.textIndex('label', defaultCode, true)] ?? 'label';
    if (!text) {
      const fallback = Object.entries(label.translated)[0];
      if (fallback) {
        text = fallback[1];
        report('survey', number, labelColumn, `No label in the default language; the ${languages.find((l) => l.code === fallback[0])?.label ?? fallback[0]} label is used`, 'note');
      } else if (LABEL_OPTIONAL.has(modelType) || modelType === 'group' || modelType === 'repeat') {
        text = name || rawType;
        if (modelType === 'group' || modelType === 'repeat') report('survey', number, labelColumn, `The ${modelType} "${name}" has no label; its name is its title`, 'note');
      } else {
        report('survey', number, labelColumn, `"${name || rawType}" has no label`, 'dropped');
        if (begin) stack.push({ id: name, kind: modelType as 'group' | 'repeat', row: number, word: 'dropped' });
        continue;
      }
    }

    const id = mintId(name, number, `${begin ? modelType : 'q'}${pending.length + 1}`);
    const q: DraftQuestion = { id, text: uniqueText(text, id, number, labelColumn, modelType === 'group'), type: modelType as DraftQuestion['type'], compulsory: false, options: [] };
    const parent = stack.at(-1);
    if (parent) {
      if (parent.word === 'dropped') {
        report('survey', number, 'type', `"${name || rawType}" is inside a ${parent.kind} that was not imported`, 'dropped');
        ids.delete(id);
        forgetText(q.text);
        if (begin) stack.push({ id, kind: modelType as 'group' | 'repeat', row: number, word: 'dropped' });
        continue;
      }
      q.parent = parent.id;
    }
    const item: Pending = { question: q, row: number, inRepeat: inRepeat(), expressions: [] };
    const expr = (field: ExpressionField, column: Parameters<Header['index']>[0]) => {
      const source = plain(column);
      if (source) item.expressions.push({ field, column, source });
    };

    // Texts in every language.
    const translations: Record<string, Translation> = {};
    for (const [code, value] of Object.entries(label.translated)) (translations[code] ??= {}).text = value;
    for (const column of ['hint', 'guidance_hint', 'constraint_message', 'required_message'] as const) {
      const field = TEXT_FIELDS[column];
      const { main, translated } = texts(cols, cells, column);
      if (main) q[field] = main;
      for (const [code, value] of Object.entries(translated)) (translations[code] ??= {})[field] = value;
    }
    if (Object.keys(translations).length > 0) q.translations = translations;
    if (appearance) q.appearance = appearance;
    // `personal` (or `sensitive`): yes marks the answers personal, no unmarks a photo or location.
    const personal = plain('personal').toLowerCase();
    if (YES.has(personal)) q.personal = true;
    else if (NO.has(personal) && personal !== '') q.personal = false;
    else if (personal) report('survey', number, 'personal', `"${personal}" is not yes or no; the question keeps its type's default`, 'note');
    const cut = (value: string, max: number, column: string) => {
      if (value.length <= max) return value;
      report('survey', number, column, `The text is longer than ${max} characters; it was cut to that length`);
      return value.slice(0, max);
    };
    for (const field of ['hint', 'guidanceHint', 'requiredMessage', 'constraintMessage'] as const) if (q[field]) q[field] = cut(q[field], MAX_FORM_TEXT, field);
    for (const [code, t] of Object.entries(translations)) for (const k of Object.keys(t) as (keyof Translation)[]) t[k] = cut(t[k]!, k === 'text' ? Limits.maxQuestionText : MAX_FORM_TEXT, `${k} (${code})`);
    if (q.appearance) q.appearance = cut(q.appearance, 200, 'appearance');

    const answerless = modelType === 'group' || modelType === 'repeat' || modelType === 'note' || modelType === 'calculate' || META.has(modelType);
    const required = plain('required');
    if (answerless) notFor('required', `a ${modelType === 'note' ? 'note' : modelType}`);
    else if (YES.has(required.toLowerCase())) q.compulsory = true;
    else if (!NO.has(required.toLowerCase())) expr('requiredExpr', 'required');

    expr('relevantExpr', 'relevant');
    if (modelType === 'group' || modelType === 'repeat') {
      for (const c of ['constraint', 'calculation', 'choice_filter', 'default', 'read_only'] as const) notFor(c, `a ${modelType}`);
      if (modelType === 'repeat') {
        expr('repeatCount', 'repeat_count');
        const params = parameters(plain('parameters'));
        const repeat: { min?: number; max?: number } = {};
        for (const [k, v] of params) {
          const n = Number(v);
          if ((k === 'min' || k === 'max') && Number.isInteger(n) && n >= 0) repeat[k] = n;
          else report('survey', number, 'parameters', `The parameter "${k}=${v}" of a repeat is not supported (min and max are)`);
        }
        if (repeat.min !== undefined || repeat.max !== undefined) q.repeat = repeat;
      } else {
        notFor('repeat_count', 'a group');
        notFor('parameters', 'a group');
      }
      stack.push({ id, kind: modelType, row: number, word: rawType });
    } else {
      notFor('repeat_count', 'a question');
      expr('constraintExpr', 'constraint');
      expr('calculation', 'calculation');
      const initial = plain('default');
      if (initial) q.default = cut(initial, MAX_FORM_TEXT, 'default');
      const readOnly = plain('read_only');
      if (YES.has(readOnly.toLowerCase())) q.readOnly = true;
      else if (!NO.has(readOnly.toLowerCase())) expr('readOnly', 'read_only');
      if (modelType === 'calculate' && !plain('calculation')) {
        report('survey', number, 'calculation', `The calculation "${name}" has no expression`, 'dropped');
        ids.delete(id);
        forgetText(q.text);
        continue;
      }
      if (choices) {
        q.options = choices.map((c) => c.label);
        // A list whose names are its labels, untranslated and without extra columns, is the
        // builder's kind: answers are the labels, so no `choices` is needed.
        if (choices.some((c) => c.name !== c.label || c.labels || c.columns)) q.choices = choices.map(({ row: _row, ...c }) => c);
        expr('choiceFilter', 'choice_filter');
      } else notFor('choice_filter', 'a question without a list');
      const params = parameters(plain('parameters'));
      if (modelType === 'range') {
        const range = { start: 1, end: 10, step: 1 };
        for (const [k, v] of params) {
          const n = Number(v);
          if ((k === 'start' || k === 'end' || k === 'step') && Number.isFinite(n) && v !== '') range[k] = n;
          else report('survey', number, 'parameters', `The parameter "${k}=${v}" of a range is not supported (start, end and step are)`);
        }
        if (range.step <= 0 || range.end === range.start) {
          report('survey', number, 'parameters', `The range ${range.start} to ${range.end} by ${range.step} cannot be answered`, 'dropped');
          ids.delete(id);
          forgetText(q.text);
          continue;
        }
        q.range = range;
      } else if (params.length > 0) report('survey', number, 'parameters', `The parameters "${plain('parameters')}" are not supported for "${rawType}"`);
    }
    if (META.has(modelType) || modelType === 'calculate') {
      for (const c of ['constraint', 'choice_filter', 'read_only'] as const) if (plain(c)) item.expressions = item.expressions.filter((e) => e.column !== c);
      for (const c of ['constraint', 'read_only'] as const) notFor(c, `"${rawType}"`);
    }
    reportLeftovers(cells, number, unused);
    pending.push(item);

    if (select?.[3]) {
      // ODK's `or_other`: an "Other" choice and a text question asked only when it is chosen.
      const otherId = mintId(`${id}_other`, number, `${id}_other`);
      const other: DraftQuestion = { id: otherId, text: uniqueText(`Specify other (${q.text.slice(0, 100)})`, otherId, number, 'type'), type: QuestionType.text, compulsory: false, options: [], relevantExpr: `selected(\${${id}}, 'other')` };
      if (q.parent) other.parent = q.parent;
      pending.push({ question: other, row: number, inRepeat: inRepeat(), expressions: [] });
      report('survey', number, 'type', `"or_other": an "Other" choice and the question "${other.text}" were added, as ODK does`, 'note');
    }
  }
  for (const open of stack) if (open.word !== 'dropped') report('survey', open.row, 'type', `The ${open.kind} "${open.id}" is never closed; it ends with the form`, 'note');
  for (const [i, count] of unknownColumns) report('survey', 1, cols.names[i]!, `The column "${cols.names[i]}" is not an XLSForm column Survey Bird reads; its ${count === 1 ? 'cell was' : `${count} cells were`} not carried over`, 'note');

  const questions = resolveExpressions(pending, idOfName, report);

  let title = settings.title || fallbackTitle;
  if (title.length > Limits.maxTitle) {
    report('settings', settings.row, 'form_title', `The title is longer than ${Limits.maxTitle} characters; it was cut to that length`);
    title = title.slice(0, Limits.maxTitle);
  }
  const draft: Draft = { title, description: '', questions };
  if (languages.length > 1 || (languages.length === 1 && languages[0]!.code !== 'default')) {
    draft.languages = languages;
    draft.defaultLanguage = defaultCode;
  }
  if (settings.formId) draft.formId = settings.formId;
  if (settings.version) report('settings', settings.row, 'version', `The version "${settings.version}" is not kept: Survey Bird numbers each published version itself (the export writes that number)`, 'note');
  if (settings.instanceName) {
    const text = settings.instanceName.replace(/\$\{([^}]*)\}/g, (whole, name: string) => (idOfName.has(name.trim()) ? `\${${idOfName.get(name.trim())!}}` : whole));
    const compiled = compileExpression(text);
    const missing = compiled.ok ? compiled.expr.references.find((r) => !questions.some((q) => q.id === r)) : undefined;
    if (!compiled.ok) report('settings', settings.row, 'instance_name', `The instance name "${settings.instanceName}" was not carried over: ${compiled.error.message}`);
    else if (missing !== undefined) report('settings', settings.row, 'instance_name', `The instance name "${settings.instanceName}" was not carried over: it names \${${missing}}, which is not a question of the imported form`);
    else if (text.length > MAX_EXPRESSION) report('settings', settings.row, 'instance_name', `The instance name is longer than ${MAX_EXPRESSION} characters; it was not carried over`);
    else draft.instanceName = text;
  }
  unsupported.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (SHEET_ORDER[a.sheet] ?? 3) - (SHEET_ORDER[b.sheet] ?? 3) || a.row - b.row);
  return { draft, unsupported };
}

/**
 * Expressions get their `${name}` references made ids and are compiled by the engine: one that does
 * not parse, or names a question that was not imported, is reported and left out (its question stays).
 * Conditions and constraints with a structured twin the builder edits are kept as that twin.
 */
function resolveExpressions(pending: Pending[], idOfName: Map<string, string>, report: Report): DraftQuestion[] {
  const known = new Set(pending.map((p) => p.question.id));
  const rename = (source: string) => source.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    const id = idOfName.get(name.trim());
    return id ? `\${${id}}` : whole;
  });
  const sources = new Map<string, ConditionSource>();
  for (const { question: q, row, inRepeat, expressions } of pending) {
    // Labels and hints may show answers: `${q}` in them follows the rename too.
    q.text = rename(q.text);
    for (const field of ['hint', 'guidanceHint', 'requiredMessage', 'constraintMessage', 'default'] as const) if (q[field]) q[field] = rename(q[field]);
    for (const t of Object.values(q.translations ?? {})) for (const k of Object.keys(t) as (keyof Translation)[]) if (t[k]) t[k] = rename(t[k]);

    for (const { field, column, source } of expressions) {
      const text = rename(source.trim());
      if (field === 'repeatCount' && /^\d+$/.test(text)) {
        const n = Number(text);
        if (n <= MAX_REPEAT_INSTANCES) q.repeatCount = n;
        else report('survey', row, column, `A repeat of ${n} instances was not carried over (at most ${MAX_REPEAT_INSTANCES})`);
        continue;
      }
      if (text.length > MAX_EXPRESSION) {
        report('survey', row, column, `The expression is longer than ${MAX_EXPRESSION} characters; it was not carried over`);
        continue;
      }
      const compiled = compileExpression(text);
      if (!compiled.ok) {
        report('survey', row, column, `The expression "${source}" was not carried over: ${compiled.error.message}`);
        continue;
      }
      const missing = compiled.expr.references.find((r) => !known.has(r));
      if (missing !== undefined) {
        report('survey', row, column, `The expression "${source}" was not carried over: it names \${${missing}}, which is not a question of the imported form`);
        continue;
      }
      if (field === 'relevantExpr' && q.type !== 'group' && q.type !== 'repeat' && !inRepeat) {
        const showIf = parseRelevant(text, sources);
        if (showIf) {
          q.showIf = showIf;
          continue;
        }
      }
      if (field === 'constraintExpr') {
        const parsed = parseConstraint(text, q.type);
        // The structured constraint's message holds 200 characters; a longer one keeps the expression.
        if (parsed && (q.constraintMessage?.length ?? 0) <= 200) {
          q.constraint = q.constraintMessage ? { ...parsed, message: q.constraintMessage } : parsed;
          delete q.constraintMessage;
          continue;
        }
      }
      if (field === 'readOnly') q.readOnly = text;
      else q[field] = text;
    }
    if (q.constraintMessage && q.constraint === undefined && q.constraintExpr === undefined) report('survey', row, 'constraint_message', 'A constraint message without a constraint', 'note');
    const labels = q.choices ? undefined : q.options.length > 0 ? new Map(q.options.map((o) => [o, o])) : undefined;
    sources.set(q.id, { id: q.id, structured: !inRepeat && !q.choices, ...(labels ? { labels } : {}) });
  }
  return pending.map((p) => p.question);
}

/** `start=1 end=10 step=1` (spaces or commas between) as pairs in order. */
function parameters(text: string): [string, string][] {
  if (!text.trim()) return [];
  return text.split(/[\s,;]+/).filter(Boolean).map((p) => {
    const at = p.indexOf('=');
    return at < 0 ? [p.toLowerCase(), ''] : [p.slice(0, at).trim().toLowerCase(), p.slice(at + 1).trim()];
  });
}

interface Settings {
  /** The settings row read (the one under the header). */
  row: number;
  title: string;
  formId: string;
  version: string;
  defaultLanguage: string;
  instanceName: string;
}

/** The settings sheet's first row under its header: form_title, form_id, version, default_language, instance_name. */
function readSettings(sheet: Sheet | undefined, report: Report): Settings {
  const out: Settings = { row: 2, title: '', formId: '', version: '', defaultLanguage: '', instanceName: '' };
  if (!sheet) return out;
  const [head, first, ...more] = sheet.rows;
  if (!head || !first) return out;
  out.row = first.number;
  const keys: Record<string, Exclude<keyof Settings, 'row'>> = { form_title: 'title', form_id: 'formId', id_string: 'formId', version: 'version', default_language: 'defaultLanguage', instance_name: 'instanceName' };
  head.cells.forEach((h, i) => {
    const column = h.trim();
    const value = cell(first.cells, i);
    if (!value || column.startsWith('#')) return;
    const key = keys[column.toLowerCase()];
    if (key) out[key] = value;
    else report('settings', first.number, column, `The setting "${column}" is not used by Survey Bird`, 'note');
  });
  for (const r of more) report('settings', r.number, '', 'Only the first row of the settings sheet is read', 'note');
  if (out.formId.length > 100) {
    report('settings', first.number, 'form_id', 'The form_id is longer than 100 characters; it was cut to that length');
    out.formId = out.formId.slice(0, 100);
  }
  return out;
}

type Texts = (h: Header, cells: string[], column: TextColumn) => { main: string; translated: Record<string, string> };

/** list_name (lower-cased) -> its choices in sheet order: name, label in every language, extra columns (for choice_filter). */
/**
 * The CSV lists sent with the form, by file name (lower-cased): each is a choices sheet of one list,
 * its heading `name`, `label` (and `label::Language (code)`, extra columns for choice filters) as
 * ODK reads them; a file without a `name` column is reported and not read.
 */
function readListFiles(files: readonly Sheet[], texts: Texts, read: Set<string>, report: Report): Map<string, ChoiceRow[]> {
  const lists = new Map<string, ChoiceRow[]>();
  for (const file of files) {
    const [heading, ...rows] = file.rows;
    const cols = heading ? new Header(['list_name', ...heading.cells]) : null;
    if (!cols || cols.index('name') < 0) {
      report(file.name, 1, 'name', `The list file "${file.name}" needs a "name" column in its first row (and a "label" column); it was not read`, 'dropped');
      // Sent but unread: its questions say the list has no choices, not that it is missing.
      lists.set(file.name.toLowerCase(), []);
      continue;
    }
    const sheet: Sheet = { name: file.name, rows: [{ number: heading!.number, cells: ['list_name', ...heading!.cells] }, ...rows.map((r) => ({ number: r.number, cells: [file.name, ...r.cells] }))] };
    lists.set(file.name.toLowerCase(), readChoices(sheet, cols, texts, read, report, file.name).get(file.name.toLowerCase()) ?? []);
  }
  return lists;
}

function readChoices(sheet: Sheet | undefined, cols: Header | null, texts: Texts, read: Set<string>, report: Report, sheetName = 'choices'): Map<string, ChoiceRow[]> {
  const lists = new Map<string, ChoiceRow[]>();
  if (!sheet || !cols) return lists;
  const rows = sheet.rows.slice(1);
  const listCol = cols.index('list_name');
  const nameCol = cols.index('name');
  if (listCol < 0 || nameCol < 0) throw badRequest('The "choices" sheet needs a "list_name" and a "name" column in its first row');
  const names = new Map<string, Set<string>>();
  for (const { number, cells } of rows) {
    const list = cell(cells, listCol);
    if (list.startsWith('#')) continue;
    const name = cell(cells, nameCol);
    if (!list) {
      if (cells.some((c) => c.trim())) report(sheetName, number, 'list_name', 'A choice without a list_name', 'dropped');
      continue;
    }
    const { main, translated } = texts(cols, cells, 'label');
    const label = main || name;
    if (!label) {
      report(sheetName, number, 'name', 'A choice without a name or label', 'dropped');
      continue;
    }
    const key = list.toLowerCase();
    let choices = lists.get(key);
    if (!choices) lists.set(key, (choices = []));
    let seen = names.get(key);
    if (!seen) names.set(key, (seen = new Set()));
    const choiceName = name || label;
    if (seen.has(choiceName)) {
      report(sheetName, number, 'name', `The name "${choiceName}" appears twice in the list "${list}"; the first was kept`, 'dropped');
      continue;
    }
    seen.add(choiceName);
    if (label.length > Limits.maxOptionLength) report(sheetName, number, 'label', `The label is longer than ${Limits.maxOptionLength} characters; it was cut to that length`);
    const choice: ChoiceRow = { name: choiceName.slice(0, Limits.maxOptionLength), label: label.slice(0, Limits.maxOptionLength), row: number };
    if (Object.keys(translated).length > 0) choice.labels = Object.fromEntries(Object.entries(translated).map(([k, v]) => [k, v.slice(0, Limits.maxOptionLength)]));
    const columns: Record<string, string> = {};
    cells.forEach((value, i) => {
      const v = value.trim();
      if (!v || i === listCol || i === nameCol) return;
      const kind = cols.kinds[i]!;
      const column = cols.names[i]!;
      if (kind.kind === 'text') {
        if (kind.column !== 'label') report(sheetName, number, column, `The column "${column}" is not read on the choices sheet`);
        else if (!cols.isRead(i, read)) report(sheetName, number, column, `The language "${kind.language?.label ?? ''}" is not read`);
      } else if (kind.kind === 'media') report(sheetName, number, column, 'Media in choices (images, audio, video) is not supported');
      else if (kind.kind !== 'comment') columns[column] = v.slice(0, Limits.maxOptionLength);
    });
    if (Object.keys(columns).length > 0) choice.columns = columns;
    choices.push(choice);
  }
  return lists;
}

function typeReason(raw: string, type: string): string {
  if (NOT_IN_BROWSER.has(type)) return `"${raw}" is not available in a browser (a web app cannot read the SIM or the phone number)`;
  if (type === 'audit') return 'Audit logs are not supported';
  if (type === 'start-geopoint') return '"start-geopoint" is not supported (add a geopoint question)';
  if (/^(select_one_from_file|select_multiple_from_file)\b/.test(type)) return 'Choices from a file are read from a CSV sent with the form (".csv"); XML and GeoJSON lists are not supported';
  if (/^(select_one_external|select one external)\b/.test(type)) return 'Choices from an external file are not supported yet';
  if (['background-audio', 'xml-external', 'csv-external', 'hidden'].includes(type)) return `"${raw}" questions are not supported yet`;
  if (BEGIN.test(type)) return `"${raw}" is not supported`;
  if (/^select/.test(type)) return `"${raw}" is not supported (select from a list of the choices sheet only)`;
  return `The question type "${raw}" is not supported`;
}
