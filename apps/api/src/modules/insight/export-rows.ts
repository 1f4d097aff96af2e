import type { Answer } from '@survey-bird/contracts';
import { answerScopes, geoMeasure, isChoiceList, isRepeatAnswer, repeatSummary } from '@survey-bird/contracts/form-engine';
import { IMAGE_PATH, httpsHref } from '@survey-bird/contracts/links';
import { Role } from '@survey-bird/contracts/roles';
import { plainText } from '../../lib/spreadsheet.js';

export { plainText };

// Loaded by the export's threads, so free of exceljs and of the contracts' schemas (zod weighs
// ~15 MB of RSS per thread): the contracts come in through their zod-free entry points.
export const FIELD_USER_ROLE = Role.fieldUser;
export const MISSING = 'N/A';

/** Between the cells of a batch: plainText never leaves a control character in a cell, nor does a URL's href. */
export const CELL_SEP = '\u0000';
/** Leads a cell that is a hyperlink to its own text. */
export const LINK_MARK = '\u0001';
/**
 * Lead a typed cell, so the sheet holds numbers and dates a spreadsheet can sum and sort, not
 * text: a number as written; a moment as epoch ms; a date answer as yyyy-mm-dd; a time answer as
 * hh:mm. plainText turns these control characters into U+FFFD, so no answer can forge a mark.
 */
export const NUMBER_MARK = '\u0002';
export const MOMENT_MARK = '\u0003';
export const DATE_MARK = '\u0004';
export const TIME_MARK = '\u0005';
/** A question not answered (or not asked in the response's version): 'N/A' in the workbook and the CSV, empty for Stata and SPSS. */
export const MISSING_MARK = '\u0006';

/**
 * Rows on their way from the export's reader thread to its writer thread: per row the field user's
 * name, e-mail, captured_at and created_at (epoch ms; captured_at empty when unknown), the version, the revision,
 * the review's status, reviewer, reviewed_at (epoch ms or empty) and paid payout reference, and one
 * cell per export column, all joined by CELL_SEP. One string
 * crosses threads as one copy; an array of cells would be cloned cell by cell (about 8 us a row here,
 * a tenth of the writer's own work per row).
 */
export interface RowBatch {
  count: number;
  cells: string;
  /**
   * Per repeat table (ExportColumns.repeats), the instances of this batch's rows: per instance the
   * index of its response's row in the batch, the key of the instance around it ('' for the
   * response), its own key (`members[2]`), its number, then one cell per column of the table.
   */
  repeats?: { count: number; cells: string }[];
}

/** The query string that signs a link to the stored photo `id` (files/file-links.ts signedQuery). */
export type SignLink = (id: string) => string;

/**
 * The address an answer links to: an https URL, or a photo stored by this server (signed with
 * `sign` when given: a bare photo address needs a session); else null.
 */
export function linkOf(value: string, publicUrl: string, sign?: SignLink): string | null {
  const own = `${publicUrl}${IMAGE_PATH}`;
  const id = value.startsWith(IMAGE_PATH) ? value.slice(IMAGE_PATH.length) : value.startsWith(own) ? value.slice(own.length) : null;
  if (id !== null && /^[\w.-]+$/.test(id)) return `${own}${id}${sign ? `?${sign(id)}` : ''}`;
  return httpsHref(value);
}

/**
 * The export's question columns across every version of a survey: one per question,
 * identified by its stable id (its text for a question stored before ids), headed by its latest
 * text; the latest version's order first, then questions removed since (newest version first).
 * `keys[v][c]` is the answer key (question text) and type of column c in version v, null when
 * version v did not have that question, so a renamed question stays one column.
 */
export interface ExportColumns {
  headers: string[];
  /** Each column's question id, latest type, and options: the latest version's, then any removed since (newest version first). */
  ids: string[];
  types: string[];
  options: string[][];
  keys: Record<number, ({ text: string; type: string } | null)[]>;
  latest: number;
  /** The main table's only: one table per repeat, in form order (exportColumns). */
  repeats?: RepeatTable[];
}

export interface VersionQuestions {
  version: number;
  questions: readonly { id?: string | undefined; text: string; type: string; parent?: string | undefined; options?: readonly string[] }[];
}

const GROUP = 'group';
const REPEAT = 'repeat';

/**
 * The entries answered in one scope ('' the response, else a repeat's id): a group is a title, a
 * repeat's members answer in its instances (its own table), a nested repeat's cell is its count.
 */
function scopeQuestions(questions: VersionQuestions['questions'], scope: string): VersionQuestions['questions'] {
  if (scope === '' && !questions.some((q) => q.parent !== undefined || q.type === GROUP)) return questions;
  const scopes = answerScopes(questions);
  return questions.filter((q, i) => q.type !== GROUP && scopes[i] === scope);
}

const columnId = (q: { id?: string | undefined; text: string }) => q.id ?? `\u0000${q.text}`;

/**
 * One repeat's table (a sheet of the workbook, a CSV of the zip): one row per instance, joined to
 * the response's row by its S/N and to the instance around it by its key, as ODK and Kobo export.
 */
export interface RepeatTable {
  /** The repeat's id (its XLSForm name), which its rows' keys are made of: `members[2]/plots[1]`. */
  id: string;
  /** Its latest text, the sheet's name before it is made a valid one. */
  header: string;
  /** The index of the table of the repeat around it; null for a repeat at the response's level. */
  parent: number | null;
  /** Per version, the repeat's answer key (its text then); null when that version had no such repeat. */
  keys: Record<number, string | null>;
  /** Its members' columns across versions. */
  columns: ExportColumns;
}

export function exportColumns(versions: readonly VersionQuestions[], scope = ''): ExportColumns {
  const all = versions;
  versions = versions.map((v) => ({ version: v.version, questions: scopeQuestions(v.questions, scope) }));
  const newestFirst = [...versions].sort((a, b) => b.version - a.version);
  const order: string[] = [];
  const headers = new Map<string, string>();
  const latest = new Map<string, { id: string; type: string; options: string[] }>();
  for (const v of newestFirst) {
    for (const q of v.questions) {
      const id = columnId(q);
      const known = latest.get(id);
      if (known) {
        for (const o of q.options ?? []) if (!known.options.includes(o)) known.options.push(o);
        continue;
      }
      headers.set(id, q.text);
      latest.set(id, { id: q.id ?? `q${order.length + 1}`, type: q.type, options: [...(q.options ?? [])] });
      order.push(id);
    }
  }
  const keys: ExportColumns['keys'] = {};
  for (const v of versions) {
    const keyOf = new Map(v.questions.map((q) => [columnId(q), { text: q.text, type: q.type }]));
    keys[v.version] = order.map((id) => keyOf.get(id) ?? null);
  }
  const about = order.map((id) => latest.get(id)!);
  const columns: ExportColumns = { headers: order.map((id) => headers.get(id)!), ids: about.map((a) => a.id), types: about.map((a) => a.type), options: about.map((a) => a.options), keys, latest: newestFirst[0]?.version ?? 1 };
  if (scope === '') columns.repeats = repeatTables(all);
  return columns;
}

/**
 * The repeats of every version, each with its table: the latest version's in form order, then
 * those removed since; a table's parent always comes before it.
 */
function repeatTables(versions: readonly VersionQuestions[]): RepeatTable[] {
  const newestFirst = [...versions].sort((a, b) => b.version - a.version);
  const found = new Map<string, { header: string; parentId: string }>();
  for (const v of newestFirst) {
    const scopes = answerScopes(v.questions);
    v.questions.forEach((q, i) => {
      if (q.type === REPEAT && q.id !== undefined && !found.has(q.id)) found.set(q.id, { header: q.text, parentId: scopes[i]! });
    });
  }
  // Parents first: a repeat removed in a later version may have nested one still found earlier.
  const ordered: string[] = [];
  const visit = (id: string) => {
    if (ordered.includes(id)) return;
    const parent = found.get(id)!.parentId;
    if (parent !== '' && found.has(parent)) visit(parent);
    ordered.push(id);
  };
  for (const id of found.keys()) visit(id);
  return ordered.map((id) => {
    const { header, parentId } = found.get(id)!;
    const keys: Record<number, string | null> = {};
    for (const v of versions) keys[v.version] = v.questions.find((q) => q.type === REPEAT && q.id === id)?.text ?? null;
    return { id, header, parent: parentId === '' ? null : ordered.indexOf(parentId), keys, columns: exportColumns(versions, id) };
  });
}

/** The answer keys of a response's own version, one per column (a version unknown here reads as the latest). */
export function keysOf(columns: ExportColumns, version: number): ExportColumns['keys'][number] {
  return columns.keys[version] ?? columns.keys[columns.latest] ?? [];
}

/**
 * A response's answers keyed as the export heads them: each question's latest text, found through
 * its id in the response's own version, so a version-1 answer to a question renamed in version 2
 * sits under the new name. An answer its version names no column for keeps its own key.
 */
export function answersUnderHeaders<A>(columns: ExportColumns, version: number, answers: Record<string, A>): Record<string, A> {
  const keys = keysOf(columns, version);
  const entries: [string, A][] = [];
  const placed = new Set<string>();
  keys.forEach((key, c) => {
    // Own properties only: a question named constructor or toString has no inherited answer.
    if (key === null || !Object.hasOwn(answers, key.text)) return;
    entries.push([columns.headers[c]!, answers[key.text]!]);
    placed.add(key.text);
  });
  const taken = new Set(entries.map(([header]) => header));
  for (const [key, value] of Object.entries(answers)) if (!placed.has(key) && !taken.has(key)) entries.push([key, value]);
  // fromEntries defines each key as an own property, "__proto__" included.
  return Object.fromEntries(entries);
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;
/** Excel keeps 15 significant digits: a longer number (an ID typed in a number question) stays text. */
const EXACT_DIGITS = 15;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

/** A moment (epoch ms) as a date cell, '' when unknown. */
export const momentCell = (ms: number | undefined | null): string => (ms === undefined || ms === null || !Number.isFinite(ms) ? '' : `${MOMENT_MARK}${ms}`);
/** A measure as a number cell, '' when unknown. */
export const numberCell = (n: number | undefined): string => (n === undefined || !Number.isFinite(n) ? '' : `${NUMBER_MARK}${n}`);

/**
 * One answer's cell: N/A when missing, a checkbox list joined by commas, a link marked by LINK_MARK
 * (a photo's, a signature's). A number or decimal question's valid answer is a number cell, a date
 * or time question's a date cell (its marks above); anything else, or an answer in another shape
 * (stored before the type checked it), is text. A note has no answer.
 */
export function answerCell(answer: Answer | undefined, publicUrl: string, type?: string, sign?: SignLink): string {
  if (answer === undefined || answer === null || type === 'note') return MISSING_MARK;
  // A repeat is its number of instances here (as in the responses table); its answers are the instances'.
  if (isRepeatAnswer(answer)) return plainText(repeatSummary(answer.length));
  if (isChoiceList(answer)) return plainText(answer.join(', '));
  const text = String(answer);
  if ((type === 'number' || type === 'decimal') && NUMBER.test(text)) return text.replace(/\D/g, '').replace(/^0+/, '').length <= EXACT_DIGITS ? `${NUMBER_MARK}${text}` : text;
  if (type === 'date' && DATE.test(text)) return `${DATE_MARK}${text}`;
  if (type === 'time' && TIME.test(text)) return `${TIME_MARK}${text}`;
  const link = linkOf(text, publicUrl, sign);
  return link ? `${LINK_MARK}${link}` : plainText(text);
}

/** A geotrace's length or a geoshape's area (m, m²) as a number cell; N/A when unanswered, empty when the answer is no valid line or area. */
export function measureCell(answer: Answer | undefined, shape: boolean): string {
  if (answer === undefined || answer === null) return MISSING_MARK;
  return typeof answer === 'string' ? numberCell(geoMeasure(answer, shape)) : '';
}

/**
 * A select's or checkbox's answer as its option numbers (1 = the column's first option), the
 * `values` switch: a number cell for a select, the numbers joined by spaces for a checkbox (as
 * ODK and Kobo write them). An answer that is no option of the column keeps its text.
 */
export function choiceValueCell(answer: Answer | undefined, options: readonly string[], type: string | undefined, publicUrl: string): string {
  if (answer === undefined || answer === null) return MISSING_MARK;
  if (isRepeatAnswer(answer)) return answerCell(answer, publicUrl, type);
  if (isChoiceList(answer)) {
    const codes = answer.map((a) => options.indexOf(a) + 1);
    return codes.every((c) => c > 0) ? codes.join(' ') : plainText(answer.join(', '));
  }
  const code = options.indexOf(String(answer)) + 1;
  return code > 0 ? `${NUMBER_MARK}${code}` : answerCell(answer, publicUrl, type);
}

/** One 0/1 cell per option of a checkbox column (the `splitMultiple` switch); missing when the question went unanswered. */
export function optionCells(answer: Answer | undefined, options: readonly string[]): string[] {
  if (answer === undefined || answer === null) return options.map(() => MISSING_MARK);
  if (isRepeatAnswer(answer)) return options.map(() => MISSING_MARK);
  const ticked = new Set(isChoiceList(answer) ? answer : [String(answer)]);
  return options.map((o) => `${NUMBER_MARK}${ticked.has(o) ? 1 : 0}`);
}
