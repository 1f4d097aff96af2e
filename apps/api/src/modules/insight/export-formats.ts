import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import archiver from 'archiver';
import { closedRing, geoJsonCoordinates, geoProblem, parseGeoPoints, type GeoPoint } from '@survey-bird/contracts/form-engine';
import { GEO_TYPES, GEOSHAPE_TYPE, LEADING_HEADER, LEADING_MOMENTS, LOCATION_TYPE, NUMBER_TYPES, QUALITY_HEADER, QUALITY_MOMENTS, CHECKBOX_TYPE, DATE_TYPE, SELECT_TYPE, TIME_TYPE, questionSlots, type ExportOptions, type QuestionSlot } from './export-layout.js';
import { REPEAT_LEADING, tableFileNames, type RepeatSpool } from './export-spool.js';
import { CELL_SEP, DATE_MARK, LINK_MARK, MISSING, MISSING_MARK, MOMENT_MARK, NUMBER_MARK, TIME_MARK, plainText, type ExportColumns, type RowBatch } from './export-rows.js';
import { spssSyntax, stataSyntax, variableNames, type ColumnStats, type StatColumn, type StatKind } from './export-syntax.js';

// The export's formats other than the workbook (workbook.ts), written in the export's writer thread
// from the reader's batches (export-reader.ts): CSV, Stata and SPSS (a zip of the CSV and its
// syntax file), GeoJSON and KML. Each writes as rows come and waits while `out` is full.

/** The CSV's and the syntax file's names inside a Stata or SPSS zip: `do survey.do`. */
export const STAT_CSV = 'survey.csv';

type Kind = 'number' | 'moment' | 'date' | 'time' | 'link' | 'text' | 'missing';
/** One cell of a row, typed by its mark; a moment's text is epoch ms. */
export interface Cell {
  kind: Kind;
  text: string;
}

export interface FormatInput {
  columns: ExportColumns;
  slots: QuestionSlot[];
  options: ExportOptions;
  rows: AsyncIterable<RowBatch>;
  title: string;
  /** Set when the survey has repeats and the format writes their tables (CSV, Stata, SPSS). */
  spool?: RepeatSpool;
}

const UTC = ' (UTC)';

/** Every header of a row in order, the moments' saying their zone, a question's quoted against formulas. */
export function csvHeaders(slots: readonly QuestionSlot[]): string[] {
  const zoned = (header: readonly string[], moments: readonly number[]) => header.map((h, i) => (moments.includes(i) ? `${h}${UTC}` : h));
  return [...zoned(LEADING_HEADER, LEADING_MOMENTS), ...slots.map((s) => plainText(s.header)), ...zoned(QUALITY_HEADER, QUALITY_MOMENTS)];
}

const text = (t: string | undefined): Cell => ({ kind: 'text', text: t ?? '' });

function marked(cell: string): Cell {
  switch (cell.charAt(0)) {
    case LINK_MARK:
      return { kind: 'link', text: cell.slice(1) };
    case NUMBER_MARK:
      return { kind: 'number', text: cell.slice(1) };
    case MOMENT_MARK:
      return { kind: 'moment', text: cell.slice(1) };
    case DATE_MARK:
      return { kind: 'date', text: cell.slice(1) };
    case TIME_MARK:
      return { kind: 'time', text: cell.slice(1) };
    case MISSING_MARK:
      return { kind: 'missing', text: '' };
    default:
      return text(cell);
  }
}

/** Each row of a batch as typed cells, S/N first (the reader's layout: export-reader.ts). */
export function* decodeRows(batch: RowBatch, width: number, serialBefore: number): Generator<Cell[]> {
  const cells = batch.count === 0 ? [] : batch.cells.split(CELL_SEP);
  if (cells.length !== batch.count * width) throw new Error(`export: a batch of ${batch.count} rows came with ${cells.length} cells`);
  let serial = serialBefore;
  for (let i = 0; i < cells.length; i += width) {
    const row: Cell[] = [
      { kind: 'number', text: String(++serial) }, text(cells[i]), text(cells[i + 1]),
      cells[i + 2] ? { kind: 'moment', text: cells[i + 2]! } : { kind: 'missing', text: '' },
      { kind: 'moment', text: cells[i + 3]! }, { kind: 'number', text: cells[i + 4]! }, { kind: 'number', text: cells[i + 5]! },
      text(cells[i + 6]), text(cells[i + 7]), cells[i + 8] ? { kind: 'moment', text: cells[i + 8]! } : text(''), text(cells[i + 9]),
    ];
    for (let c = i + 10; c < i + width; c++) row.push(marked(cells[c]!));
    yield row;
  }
}

/** The reader's cells per row: the row less its S/N. */
const readerWidth = (slots: readonly QuestionSlot[]) => LEADING_HEADER.length - 1 + slots.length + QUALITY_HEADER.length;

/** A moment as ISO 8601 in UTC to the second (`Z`), or as Stata and SPSS read it (`yyyy-mm-dd hh:mm:ss`, UTC said in the header). */
const isoMoment = (ms: string) => `${new Date(Number(ms)).toISOString().slice(0, 19)}Z`;
const statMoment = (ms: string) => new Date(Number(ms)).toISOString().slice(0, 19).replace('T', ' ');

/** A field in RFC 4180 quotes when it needs them. */
const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** Writes `chunk`, then waits while `out` is full (or resolves at once when it has closed). */
/**
 * Text written in pieces of about 64K characters: a map layer's rows (1.7 KB of KML each, 4x a CSV's)
 * never sit in memory a whole batch at a time; at 200k rows the GeoJSON and KML peaks were 160 MB over idle.
 */
class Pending {
  private text = '';
  constructor(private readonly out: Writable, private readonly size = 65_536) {}
  async add(piece: string): Promise<void> {
    this.text += piece;
    if (this.text.length >= this.size) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.text === '') return;
    const text = this.text;
    this.text = '';
    await put(this.out, text);
  }
}

async function put(out: Writable, chunk: string): Promise<void> {
  if (out.destroyed) throw new Error('export aborted: the client went away');
  if (out.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * The CSV: UTF-8 with a byte-order mark (Excel then reads Hausa and Yoruba text right), the
 * workbook's columns and cells, moments in ISO 8601 UTC. `statistical` writes it for Stata and
 * SPSS: empty for N/A, moments as they read them, line breaks in text as spaces (SPSS reads a
 * case per line). Returns what it saw of each column.
 */
export async function writeCsv(out: Writable, input: FormatInput, statistical = false): Promise<ColumnStats[]> {
  const headers = csvHeaders(input.slots);
  const stats: ColumnStats[] = headers.map(() => ({ maxBytes: 1, fits: true, decimals: 0 }));
  const expected = statKinds(input.columns, input.slots, input.options);
  await put(out, `\uFEFF${headers.map(csvField).join(',')}\r\n`);
  const width = readerWidth(input.slots);
  let serial = 0;
  for await (const batch of input.rows) {
    await input.spool?.add(batch, serial);
    const lines: string[] = [];
    for (const row of decodeRows(batch, width, serial)) {
      serial++;
      lines.push(row.map((cell, c) => {
        const value = csvValue(cell, statistical);
        if (statistical) observe(stats[c]!, expected[c]!, cell, value);
        return csvField(value);
      }).join(','));
    }
    if (lines.length > 0) await put(out, `${lines.join('\r\n')}\r\n`);
  }
  return stats;
}

function observe(stats: ColumnStats, kind: StatKind, cell: Cell, value: string): void {
  const bytes = Buffer.byteLength(value);
  if (bytes > stats.maxBytes) stats.maxBytes = bytes;
  if (value === '' || kind === 'text') return;
  if (cell.kind !== kind) stats.fits = false;
  else if (kind === 'number') stats.decimals = Math.max(stats.decimals, value.includes('.') ? value.length - value.indexOf('.') - 1 : 0);
}

/** What each CSV column holds for Stata and SPSS, in csvHeaders' order. */
function statKinds(columns: ExportColumns, slots: readonly QuestionSlot[], options: ExportOptions, table: TableLayout = MAIN_LAYOUT): StatKind[] {
  const question = (s: QuestionSlot): StatKind => {
    const type = columns.types[s.column];
    if (s.option !== null || s.measure !== undefined) return 'number';
    if (NUMBER_TYPES.includes(type ?? '') || (type === SELECT_TYPE && options.choices === 'values')) return 'number';
    if (type === DATE_TYPE) return 'date';
    if (type === TIME_TYPE) return 'time';
    return 'text';
  };
  return [...table.leadingKinds, ...slots.map(question), ...table.trailingKinds];
}

/** The columns around a table's questions: the main table's, or a repeat's (REPEAT_LAYOUT). */
interface TableLayout {
  leading: readonly string[];
  leadingKinds: readonly StatKind[];
  trailing: readonly string[];
  trailingKinds: readonly StatKind[];
  /** The headers as the CSV writes them. */
  headers: (slots: readonly QuestionSlot[]) => string[];
}
const MAIN_LAYOUT: TableLayout = {
  leading: LEADING_HEADER,
  leadingKinds: ['number', 'text', 'text', 'moment', 'moment', 'number', 'number', 'text', 'text', 'moment', 'text'],
  trailing: QUALITY_HEADER,
  trailingKinds: ['text', 'moment', 'number', 'number', 'moment', 'text', 'text', 'text'],
  headers: csvHeaders,
};
const REPEAT_LAYOUT: TableLayout = {
  leading: REPEAT_LEADING,
  leadingKinds: ['number', 'text', 'text', 'number'],
  trailing: [],
  trailingKinds: [],
  headers: (slots) => [...REPEAT_LEADING, ...slots.map((s) => plainText(s.header))],
};

/** Names, labels, kinds and value labels of the CSV's columns, for the syntax files. */
export function statColumns(columns: ExportColumns, slots: readonly QuestionSlot[], options: ExportOptions, table: TableLayout = MAIN_LAYOUT): StatColumn[] {
  const kinds = statKinds(columns, slots, options, table);
  const raw = [
    ...table.leading.map((h) => (h === 'S/N' ? 'sn' : h)),
    ...slots.map((s) => (s.measure !== undefined ? `${columns.ids[s.column]}_${s.measure}` : s.option === null ? columns.ids[s.column]! : `${columns.ids[s.column]}_${s.option + 1}`)),
    ...table.trailing,
  ];
  const names = variableNames(raw);
  const labels = table.headers(slots).map((h) => (h.startsWith("'") ? h.slice(1) : h));
  return names.map((name, i) => {
    const slot = i >= table.leading.length ? slots[i - table.leading.length] : undefined;
    const type = slot ? columns.types[slot.column] : undefined;
    let valueLabels: StatColumn['valueLabels'];
    if (slot?.option !== null && slot?.option !== undefined) valueLabels = [[0, 'No'], [1, 'Yes']];
    else if (slot && type === SELECT_TYPE && options.choices === 'values') valueLabels = (columns.options[slot.column] ?? []).map((o, k) => [k + 1, o] as const);
    const label = slot && type === CHECKBOX_TYPE && slot.option === null && slot.measure === undefined && options.choices === 'values' ? `${labels[i]!} (option numbers)` : labels[i]!;
    return { name, label, kind: kinds[i]!, ...(valueLabels ? { valueLabels } : {}) };
  });
}

/** Stata or SPSS: a zip of the statistical CSV and the syntax file written after it (types and widths from the data). */
export async function writeStatZip(out: Writable, input: FormatInput): Promise<void> {
  const stata = input.options.format === 'stata';
  const archive = archiver('zip', { zlib: { level: 6 } });
  const failed = new Promise<never>((_resolve, reject) => archive.once('error', reject));
  failed.catch(() => undefined);
  archive.pipe(out);
  const csv = new PassThrough();
  archive.append(csv, { name: STAT_CSV });
  const stats = await Promise.race([writeCsv(csv, input, true), failed]);
  csv.end();
  const columns = statColumns(input.columns, input.slots, input.options);
  const syntax = stata ? stataSyntax(columns, stats, STAT_CSV, input.title) : spssSyntax(columns, stats, STAT_CSV, input.title);
  archive.append(syntax, { name: STAT_CSV.replace(/\.csv$/, stata ? '.do' : '.sps') });
  // Each repeat: its CSV and its own syntax file, joined to survey.csv by sn (and parent_key to the instance around it).
  if (input.spool) {
    await input.spool.finish();
    const tables = input.columns.repeats ?? [];
    const names = tableFileNames(tables, [STAT_CSV]);
    for (const [t, table] of tables.entries()) {
      const slots = questionSlots(table.columns, input.options);
      const file = new PassThrough();
      archive.append(file, { name: names[t]! });
      const tableStats = await Promise.race([writeRepeatCsv(file, input.spool, t, table.columns, slots, input.options, true), failed]);
      file.end();
      const tableColumns = statColumns(table.columns, slots, input.options, REPEAT_LAYOUT);
      const title = `${input.title}: ${table.header}`;
      archive.append(stata ? stataSyntax(tableColumns, tableStats, names[t]!, title) : spssSyntax(tableColumns, tableStats, names[t]!, title), { name: names[t]!.replace(/\.csv$/, stata ? '.do' : '.sps') });
    }
  }
  await Promise.race([archive.finalize(), failed]);
  await finished(out);
}

/**
 * One repeat's CSV from the spool: S/N, parent key, key, instance number, then its answers as
 * the main CSV writes them. Returns what it saw of each column (for the syntax files).
 */
async function writeRepeatCsv(out: Writable, spool: RepeatSpool, t: number, columns: ExportColumns, slots: QuestionSlot[], options: ExportOptions, statistical: boolean): Promise<ColumnStats[]> {
  const headers = REPEAT_LAYOUT.headers(slots);
  const stats: ColumnStats[] = headers.map(() => ({ maxBytes: 1, fits: true, decimals: 0 }));
  const expected = statKinds(columns, slots, options, REPEAT_LAYOUT);
  await put(out, `\uFEFF${headers.map(csvField).join(',')}\r\n`);
  let lines: string[] = [];
  for await (const raw of spool.rows(t)) {
    const row: Cell[] = [{ kind: 'number', text: raw[0]! }, text(raw[1]), text(raw[2]), ...raw.slice(3).map(marked)];
    lines.push(row.map((cell, c) => {
      const value = csvValue(cell, statistical);
      if (statistical) observe(stats[c]!, expected[c]!, cell, value);
      return csvField(value);
    }).join(','));
    if (lines.length >= 500) {
      await put(out, `${lines.join('\r\n')}\r\n`);
      lines = [];
    }
  }
  if (lines.length > 0) await put(out, `${lines.join('\r\n')}\r\n`);
  return stats;
}

/** A cell as the CSV writes it: moments ISO 8601 UTC (as Stata and SPSS read them when `statistical`), N/A (empty when statistical). */
function csvValue(cell: Cell, statistical: boolean): string {
  switch (cell.kind) {
    case 'moment':
      return statistical ? statMoment(cell.text) : isoMoment(cell.text);
    case 'missing':
      return statistical ? '' : MISSING;
    default:
      return statistical ? cell.text.replace(/[\r\n]+/g, ' ') : cell.text;
  }
}

type Geometry = { type: 'Point'; coordinates: [number, number] } | { type: 'LineString'; coordinates: [number, number][] } | { type: 'Polygon'; coordinates: [number, number][][] };

/**
 * The first geographic answer of a row: a location (the answer reads "lat, lng (±n m)") as a
 * Point, a geotrace as a LineString, a geoshape as a Polygon (its ring closed, RFC 7946 3.1.6).
 */
function geometryOf(row: readonly Cell[], geoCells: readonly GeoCell[]): Geometry | null {
  for (const { at, type } of geoCells) {
    // A negative latitude first reaches the sheet quoted (plainText): the quote is no part of it.
    const text = (row[at]?.text ?? '').replace(/^'/, '');
    if (type === LOCATION_TYPE) {
      const match = /^(-?\d{1,3}(?:\.\d+)?),\s*(-?\d{1,3}(?:\.\d+)?)/.exec(text);
      if (!match) continue;
      const lat = Number(match[1]);
      const lng = Number(match[2]);
      if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) return { type: 'Point', coordinates: [lng, lat] };
      continue;
    }
    const shape = type === GEOSHAPE_TYPE;
    if (geoProblem(text, shape) !== null) continue;
    const points = parseGeoPoints(text) as GeoPoint[];
    return shape ? { type: 'Polygon', coordinates: [geoJsonCoordinates(closedRing(points))] } : { type: 'LineString', coordinates: geoJsonCoordinates(points) };
  }
  return null;
}

/** KML's coordinates of a geometry (`lng,lat` tuples separated by spaces). */
function kmlGeometry(g: Geometry): string {
  const tuples = (cs: readonly [number, number][]) => cs.map(([lng, lat]) => `${lng},${lat}`).join(' ');
  if (g.type === 'Point') return `<Point><coordinates>${g.coordinates[0]},${g.coordinates[1]}</coordinates></Point>`;
  if (g.type === 'LineString') return `<LineString><coordinates>${tuples(g.coordinates)}</coordinates></LineString>`;
  return `<Polygon><outerBoundaryIs><LinearRing><coordinates>${tuples(g.coordinates[0]!)}</coordinates></LinearRing></outerBoundaryIs></Polygon>`;
}

/** A row's properties: numbers as numbers, moments as ISO 8601 UTC, N/A as null; each header once. */
function properties(headers: readonly string[], row: readonly Cell[]): [string, string | number | null][] {
  return row.map((cell, c) => {
    const value = cell.kind === 'number' ? Number(cell.text) : cell.kind === 'moment' ? isoMoment(cell.text) : cell.kind === 'missing' ? null : cell.text;
    return [headers[c]!, value];
  });
}

/** Headers made unique (a repeated question text gets " (2)"), as a map layer's property names must be. */
function uniqueHeaders(slots: readonly QuestionSlot[]): string[] {
  const seen = new Map<string, number>();
  return csvHeaders(slots).map((h) => {
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return n === 1 ? h : `${h} (${n})`;
  });
}

interface GeoCell {
  at: number;
  type: string;
}
/** Where the location, geotrace and geoshape answers sit in a decoded row. */
const geoCellsOf = (columns: ExportColumns, slots: readonly QuestionSlot[]): GeoCell[] =>
  slots.flatMap((s, i) => (s.option === null && s.measure === undefined && GEO_TYPES.includes(columns.types[s.column] ?? '') ? [{ at: LEADING_HEADER.length + i, type: columns.types[s.column]! }] : []));

/** GeoJSON (RFC 7946): a FeatureCollection with one Feature per response that has a geographic answer (Point, LineString or Polygon). */
export async function writeGeoJson(out: Writable, input: FormatInput): Promise<void> {
  const headers = uniqueHeaders(input.slots);
  const at = geoCellsOf(input.columns, input.slots);
  await put(out, `{"type":"FeatureCollection","name":${JSON.stringify(input.title)},"features":[`);
  const width = readerWidth(input.slots);
  let serial = 0;
  let first = true;
  const pending = new Pending(out);
  for await (const batch of input.rows) {
    for (const row of decodeRows(batch, width, serial)) {
      serial++;
      const geometry = geometryOf(row, at);
      if (!geometry) continue;
      await pending.add(`${first ? '' : ','}\n${JSON.stringify({ type: 'Feature', geometry, properties: Object.fromEntries(properties(headers, row)) })}`);
      first = false;
    }
  }
  await pending.add('\n]}\n');
  await pending.flush();
  out.end();
  await finished(out);
}

const xml = (value: string) => value.replace(/[<>&"']/g, (c) => `&${({ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' } as Record<string, string>)[c]!};`);

/** KML 2.2: one Placemark per response with a location answer, its answers as ExtendedData. */
export async function writeKml(out: Writable, input: FormatInput): Promise<void> {
  const headers = uniqueHeaders(input.slots);
  const at = geoCellsOf(input.columns, input.slots);
  await put(out, `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${xml(plainText(input.title))}</name>\n`);
  const width = readerWidth(input.slots);
  let serial = 0;
  const pending = new Pending(out);
  for await (const batch of input.rows) {
    for (const row of decodeRows(batch, width, serial)) {
      serial++;
      const geometry = geometryOf(row, at);
      if (!geometry) continue;
      const data = properties(headers, row).map(([name, value]) => `<Data name="${xml(name)}"><value>${value === null ? '' : xml(String(value))}</value></Data>`).join('');
      await pending.add(`<Placemark><name>${serial}</name><ExtendedData>${data}</ExtendedData>${kmlGeometry(geometry)}</Placemark>\n`);
    }
  }
  await pending.add('</Document></kml>\n');
  await pending.flush();
  out.end();
  await finished(out);
}

/** The main table's CSV inside a zip of a survey with repeats. */
export const MAIN_CSV = 'responses.csv';

/**
 * The plain CSV download; for a survey with repeats, a zip of one CSV per table (responses.csv,
 * then one per repeat named by its id, joined by S/N and the parent key) as ODK and Kobo give.
 */
export async function writePlainCsv(out: Writable, input: FormatInput): Promise<void> {
  if (!input.spool) {
    await writeCsv(out, input);
    out.end();
    await finished(out);
    return;
  }
  const archive = archiver('zip', { zlib: { level: 6 } });
  const failed = new Promise<never>((_resolve, reject) => archive.once('error', reject));
  failed.catch(() => undefined);
  archive.pipe(out);
  const main = new PassThrough();
  archive.append(main, { name: MAIN_CSV });
  await Promise.race([writeCsv(main, input), failed]);
  main.end();
  await input.spool.finish();
  const tables = input.columns.repeats ?? [];
  const names = tableFileNames(tables, [MAIN_CSV]);
  for (const [t, table] of tables.entries()) {
    const file = new PassThrough();
    archive.append(file, { name: names[t]! });
    await Promise.race([writeRepeatCsv(file, input.spool, t, table.columns, questionSlots(table.columns, input.options), input.options, false), failed]);
    file.end();
  }
  await Promise.race([archive.finalize(), failed]);
  await finished(out);
}
