import type { Answer } from '@survey-bird/contracts';
import { IMAGE_PATH, httpsHref } from '@survey-bird/contracts/links';
import { Role } from '@survey-bird/contracts/roles';

// Loaded by the export's threads, so free of exceljs and of the contracts' schemas (zod weighs
// ~15 MB of RSS per thread): the contracts come in through their zod-free entry points.
export const FIELD_USER_ROLE = Role.fieldUser;
export const MISSING = 'N/A';

/** Between the cells of a batch: plainText never leaves a control character in a cell, nor does a URL's href. */
export const CELL_SEP = '\u0000';
/** Leads a cell that is a hyperlink to its own text. */
export const LINK_MARK = '\u0001';

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
}

// eslint-disable-next-line no-control-regex -- matching those control characters is the point
const ILL_FORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex -- as above; a cheap test before the replace
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text as a spreadsheet must get it: never a formula. A leading = + - @ tab or CR gets a quote
 * so Excel, LibreOffice and a later CSV save all keep it as text.
 */
export function plainText(value: string): string {
  // Lone surrogates and the control characters XML 1.0 forbids become U+FFFD here: the writer
  // would silently drop the latter, and "\u0000=1" would then reach the sheet as "=1" unquoted.
  const wellFormed = SUSPECT.test(value) ? value.replace(ILL_FORMED, '\uFFFD') : value;
  return FORMULA_START.test(wellFormed) ? `'${wellFormed}` : wellFormed;
}

/** The address an answer links to: an https URL, or a photo stored by this server; else null. */
export function linkOf(value: string, publicUrl: string): string | null {
  if (value.startsWith(IMAGE_PATH) && /^[\w.-]+$/.test(value.slice(IMAGE_PATH.length))) return `${publicUrl}${value}`;
  const own = `${publicUrl}${IMAGE_PATH}`;
  if (value.startsWith(own) && /^[\w.-]+$/.test(value.slice(own.length))) return value;
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
  keys: Record<number, ({ text: string; type: string } | null)[]>;
  latest: number;
}

export interface VersionQuestions {
  version: number;
  questions: readonly { id?: string | undefined; text: string; type: string }[];
}

const columnId = (q: { id?: string | undefined; text: string }) => q.id ?? `\u0000${q.text}`;

export function exportColumns(versions: readonly VersionQuestions[]): ExportColumns {
  const newestFirst = [...versions].sort((a, b) => b.version - a.version);
  const order: string[] = [];
  const headers = new Map<string, string>();
  for (const v of newestFirst) {
    for (const q of v.questions) {
      const id = columnId(q);
      if (headers.has(id)) continue;
      headers.set(id, q.text);
      order.push(id);
    }
  }
  const keys: ExportColumns['keys'] = {};
  for (const v of versions) {
    const keyOf = new Map(v.questions.map((q) => [columnId(q), { text: q.text, type: q.type }]));
    keys[v.version] = order.map((id) => keyOf.get(id) ?? null);
  }
  return { headers: order.map((id) => headers.get(id)!), keys, latest: newestFirst[0]?.version ?? 1 };
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;

/**
 * One answer's cell: N/A when missing, a checkbox list joined by commas, a link marked by LINK_MARK
 * (a photo's, a signature's). A number or decimal question's valid answer is kept as written, even
 * negative: "-5" is no formula, and quoting it would make it text in the sheet. A note has no answer.
 */
export function answerCell(answer: Answer | undefined, publicUrl: string, type?: string): string {
  if (answer === undefined || answer === null || type === 'note') return MISSING;
  if (Array.isArray(answer)) return plainText(answer.join(', '));
  const text = String(answer);
  if ((type === 'number' || type === 'decimal') && NUMBER.test(text)) return text;
  const link = linkOf(text, publicUrl);
  return link ? `${LINK_MARK}${link}` : plainText(text);
}
