import { posix } from 'node:path';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ApiMsg } from '@survey-bird/contracts';
import { HttpError } from '../../http/errors.js';
import { notXlsx, type XlsxZip } from './xlsform-zip.js';
import type { Sheet } from './xlsform.js';

/** Sheets an XLSForm is made of; any other sheet is never inflated. */
const SHEETS = new Set(['survey', 'choices', 'settings']);
/** A cell's text kept: the longest a question text, option, or expression could use, with room to spare. */
const MAX_CELL = 10_000;
/**
 * Text between two tags the parser may gather: it holds a text run whole before handing it over, so
 * one 40 MB cell cost the thread 100 MB of heap. No XLSForm cell comes near 1 MB.
 */
const MAX_RUN = 1 << 20;

type Open = (tag: SaxesTagPlain) => void;
/** The element's name without a namespace prefix (some writers use `x:row`). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Streams one part through a SAX parser: the part is never held whole, as bytes or as text. */
async function parse(zip: XlsxZip, path: string, open: Open, close?: (name: string) => void, onText?: (t: string) => void): Promise<void> {
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  let failed: unknown;
  /** Characters written since the last tag. */
  let run = 0;
  parser.on('error', (err) => (failed ??= err));
  parser.on('opentag', (tag) => {
    run = 0;
    open({ ...tag, name: local(tag.name) });
  });
  parser.on('closetag', (tag) => {
    run = 0;
    close?.(local(tag.name));
  });
  if (onText) {
    parser.on('text', onText);
    parser.on('cdata', onText);
  }
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of zip.read(path)) {
    const text = decoder.decode(chunk, { stream: true });
    run += text.length;
    parser.write(text);
    if (failed) throw notXlsx();
    if (run > MAX_RUN) throw new HttpError(413, ApiMsg.xlsformCellTooLong);
  }
  parser.write(decoder.decode());
  parser.close();
  if (failed) throw notXlsx();
}

/** A relationship part: id -> target, resolved against the folder of the part it belongs to. */
async function relationships(zip: XlsxZip, owner: string): Promise<Map<string, { type: string; target: string }>> {
  const dir = posix.dirname(owner);
  const path = posix.join(dir, '_rels', `${posix.basename(owner)}.rels`);
  const out = new Map<string, { type: string; target: string }>();
  await parse(zip, path, (tag) => {
    if (tag.name !== 'Relationship') return;
    const target = String(tag.attributes.Target ?? '');
    const resolved = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(dir, target));
    // A relationship without an Id can be named by no sheet.
    const relationship = tag.attributes.Id;
    if (relationship === undefined) return;
    out.set(String(relationship), { type: String(tag.attributes.Type ?? ''), target: resolved });
  });
  return out;
}

/** Shared strings in order: each `si`'s text runs joined, phonetic guides (`rPh`) left out. */
async function sharedStrings(zip: XlsxZip, path: string | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (!path) return strings;
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  await parse(
    zip,
    path,
    (tag) => {
      if (tag.name === 'si') current = '';
      else if (tag.name === 'rPh') phonetic++;
      else if (tag.name === 't') inText = phonetic === 0 && current !== null;
    },
    (name) => {
      if (name === 'si') {
        strings.push(current ?? '');
        current = null;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    },
    (t) => {
      if (inText && current !== null && current.length < MAX_CELL) current += t;
    },
  );
  return strings;
}

/** `BC12` -> 54 (0-based column index); no letters -> -1. */
function columnOf(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return n - 1;
}

/** A sheet's non-empty rows as shown text: shared and inline strings, a formula's cached result, a number as written. */
async function worksheet(zip: XlsxZip, path: string, strings: string[]): Promise<Sheet['rows']> {
  const rows: Sheet['rows'] = [];
  let row: { number: number; cells: string[] } | null = null;
  let nextRow = 1;
  let col = 0;
  let type = '';
  let value = '';
  let reading: 'v' | 't' | null = null;
  await parse(
    zip,
    path,
    (tag) => {
      const a = tag.attributes;
      if (tag.name === 'row') {
        const number = Number(a.r) || nextRow;
        nextRow = number + 1;
        row = { number, cells: [] };
        col = 0;
      } else if (tag.name === 'c' && row) {
        const at = columnOf(String(a.r ?? ''));
        if (at >= 0) col = at;
        type = String(a.t ?? 'n');
        value = '';
      } else if (tag.name === 'v' || (tag.name === 't' && type === 'inlineStr')) reading = tag.name;
    },
    (name) => {
      if (name === 'v' || name === 't') reading = null;
      else if (name === 'c' && row) {
        const text = type === 's' ? (strings[Number(value)] ?? '') : type === 'b' ? (value === '1' ? 'true' : 'false') : value;
        // A column past XFD (16384) is no spreadsheet's; it would only make a sparse array huge.
        if (col < 16_384) row.cells[col] = text;
        col++;
      } else if (name === 'row' && row) {
        const { cells } = row;
        for (let i = 0; i < cells.length; i++) cells[i] ??= '';
        if (cells.some((c) => c.trim())) rows.push(row);
        row = null;
      }
    },
    (t) => {
      if (reading && value.length < MAX_CELL) value += t;
    },
  );
  return rows;
}

/**
 * The survey, choices and settings sheets of a workbook (or, `firstOnly`, its first sheet: a bulk
 * invitation file), read part by part from the zip: the workbook's sheet list, its relationships,
 * the shared strings, then only those sheets.
 */
export async function readSheets(zip: XlsxZip, firstOnly = false): Promise<Sheet[]> {
  const root = await relationships(zip, '');
  const workbookPath = [...root.values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  if (!zip.has(workbookPath)) throw notXlsx();
  const named: { name: string; id: string }[] = [];
  await parse(zip, workbookPath, (tag) => {
    if (tag.name !== 'sheet') return;
    const id = Object.entries(tag.attributes).find(([k]) => local(k) === 'id' && k !== 'sheetId')?.[1];
    // A sheet without a relationship id has no part to read.
    if (id !== undefined) named.push({ name: String(tag.attributes.name ?? ''), id: String(id) });
  });
  const rels = await relationships(zip, workbookPath);
  const wanted = (firstOnly ? named.slice(0, 1) : named.filter((s) => SHEETS.has(s.name.trim().toLowerCase()))).filter((s) => rels.has(s.id));
  const stringsPath = [...rels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target;
  zip.checkDeclared([...(stringsPath ? [stringsPath] : []), ...wanted.map((s) => rels.get(s.id)!.target)]);
  const strings = await sharedStrings(zip, stringsPath);
  const sheets: Sheet[] = [];
  for (const s of wanted) sheets.push({ name: s.name, rows: await worksheet(zip, rels.get(s.id)!.target, strings) });
  // Other sheets are never inflated, only named, so the report lists them.
  for (const s of named) if (!wanted.includes(s)) sheets.push({ name: s.name, rows: [], skipped: true });
  return sheets;
}
