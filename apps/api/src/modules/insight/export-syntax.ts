// The Stata (.do) and SPSS (.sps) files that turn the export's CSV into a labelled dataset, the
// approach of SurveyCTO's templates: no binary writer, and the syntax can be read and changed.

/** What a column holds once typed: the syntax converts the CSV's text to it. */
export type StatKind = 'number' | 'moment' | 'date' | 'time' | 'text';

export interface StatColumn {
  /** A legal, unique variable name (variableNames). */
  name: string;
  /** The column's header: the question text for a question. */
  label: string;
  /** What the column should hold; it stays text when a cell does not fit (ColumnStats.fits). */
  kind: StatKind;
  /** Value labels: a select's option numbers, or No/Yes for an option's 0/1 column. */
  valueLabels?: readonly (readonly [number, string])[];
}

/** What the CSV writer saw of a column, so the syntax declares types and widths the data fits. */
export interface ColumnStats {
  /** Longest cell in UTF-8 bytes (SPSS string widths are bytes). */
  maxBytes: number;
  /** Every non-empty cell is of the column's kind. */
  fits: boolean;
  /** Most digits after the decimal point among its numbers. */
  decimals: number;
}

/** Stata's variable names are at most 32 characters; SPSS allows 64, so 32 serves both. */
export const MAX_NAME = 32;
/** Stata's and SPSS's reserved words (compared lower-cased: SPSS names ignore case). */
const RESERVED = new Set([
  'all', 'and', 'by', 'eq', 'ge', 'gt', 'le', 'lt', 'ne', 'not', 'or', 'to', 'with',
  '_all', '_b', 'byte', '_coef', '_cons', 'double', 'float', 'if', 'in', 'int', 'long', '_n', '_pi', '_pred', '_rc', '_skip', 'strl', 'using',
]);

/**
 * One variable name per raw name (a question id, a header): lower-case ASCII letters, digits and
 * underscores, starting with a letter, at most 32 characters, no reserved word, unique ignoring
 * case (SPSS); a clash gets _2, _3... within the 32 characters.
 */
export function variableNames(raw: readonly string[]): string[] {
  const taken = new Set<string>();
  return raw.map((r) => {
    let base = r.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
    if (!/^[a-z]/.test(base)) base = `v_${base}`.replace(/_+$/, '');
    if (RESERVED.has(base) || /^str\d*$/.test(base)) base = `${base}_v`;
    base = base.slice(0, MAX_NAME);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
    taken.add(name);
    return name;
  });
}

const lines = (body: string[]) => `${body.join('\n')}\n`;

/**
 * Text inside Stata's compound quotes `"..."': a backquote or a dollar would start a macro and "'
 * would close the quotes early, so they are neutralised; a line break would end the command.
 */
function stataText(text: string, max: number): string {
  const safe = text.replace(/[\r\n]+/g, ' ').replace(/`/g, "'").replace(/\$/g, '\\$').replace(/"'/g, '" \'');
  return `\`"${[...safe].slice(0, max).join('').replace(/\\$/, '')}"'`;
}

/** Stata's variable labels hold 80 characters, value labels many more (kept to SPSS's 120 bytes' worth). */
const STATA_VARIABLE_LABEL = 80;
const STATA_VALUE_LABEL = 120;

/** The .do file: imports `csvName` (every column as text), names, types and labels each variable. */
export function stataSyntax(columns: readonly StatColumn[], stats: readonly ColumnStats[], csvName: string, title: string): string {
  const out: string[] = [
    `* ${title.replace(/[\r\n]+/g, ' ')}: responses exported by Survey Bird; times are UTC.`,
    `* Run it from the folder holding ${csvName}:  do ${csvName.replace(/\.csv$/, '.do')}`,
    'version 14',
    'clear',
    `import delimited using "${csvName}", varnames(nonames) rowrange(2) stringcols(_all) encoding("utf-8") bindquotes(strict) delimiters(",") clear`,
  ];
  columns.forEach((c, i) => out.push(`rename v${i + 1} ${c.name}`));
  let temp = 0;
  columns.forEach((c, i) => {
    const kind = stats[i]?.fits === false ? 'text' : c.kind;
    if (kind === 'number') out.push(`destring ${c.name}, replace`);
    if (kind === 'moment' || kind === 'date') {
      const t = `__sb${++temp}`;
      out.push(kind === 'moment' ? `generate double ${t} = clock(${c.name}, "YMDhms")` : `generate ${t} = date(${c.name}, "YMD")`);
      out.push(`format ${t} ${kind === 'moment' ? '%tcCCYY-NN-DD_HH:MM:SS' : '%tdCCYY-NN-DD'}`, `drop ${c.name}`, `rename ${t} ${c.name}`);
    }
  });
  columns.forEach((c) => out.push(`label variable ${c.name} ${stataText(c.label, STATA_VARIABLE_LABEL)}`));
  let yesNo = false;
  columns.forEach((c, i) => {
    if (!c.valueLabels || stats[i]?.fits === false) return;
    const isYesNo = c.valueLabels.length === 2 && c.valueLabels[0]![1] === 'No' && c.valueLabels[1]![1] === 'Yes';
    if (isYesNo) {
      if (!yesNo) out.push('label define sb_yesno 0 "No" 1 "Yes", replace');
      yesNo = true;
      out.push(`label values ${c.name} sb_yesno`);
      return;
    }
    out.push(`capture label drop ${c.name}`);
    for (const [code, label] of c.valueLabels) out.push(`label define ${c.name} ${code} ${stataText(label, STATA_VALUE_LABEL)}, add`);
    out.push(`label values ${c.name} ${c.name}`);
  });
  out.push(`order ${columns.map((c) => c.name).join(' ')}`, 'compress');
  return lines(out);
}

/** Text in SPSS's single quotes (a quote doubled), cut to `maxBytes` of UTF-8 without splitting a character. */
function spssText(text: string, maxBytes: number): string {
  let kept = '';
  let bytes = 0;
  for (const ch of text.replace(/[\r\n]+/g, ' ')) {
    bytes += Buffer.byteLength(ch);
    if (bytes > maxBytes) break;
    kept += ch;
  }
  return `'${kept.replace(/'/g, "''")}'`;
}

/** SPSS: variable labels up to 255 bytes, value labels up to 120, strings up to 32767 bytes wide. */
const SPSS_VARIABLE_LABEL = 255;
const SPSS_VALUE_LABEL = 120;
const SPSS_MAX_WIDTH = 32767;

function spssFormat(kind: StatKind, stats: ColumnStats | undefined): string {
  switch (kind) {
    // Read with no implied decimals ("12" is 12); the print format shows the decimals the data has.
    case 'number':
      return 'F20.0';
    case 'moment':
      return 'YMDHMS19';
    case 'date':
      return 'SDATE10';
    case 'time':
      return 'TIME8';
    default:
      return `A${Math.min(SPSS_MAX_WIDTH, Math.max(1, stats?.maxBytes ?? 1))}`;
  }
}

/** The .sps file: reads `csvName` with each variable's type, then labels the variables and their values. */
export function spssSyntax(columns: readonly StatColumn[], stats: readonly ColumnStats[], csvName: string, title: string): string {
  const kinds = columns.map((c, i) => (stats[i]?.fits === false ? 'text' : c.kind));
  const out: string[] = [
    '* Encoding: UTF-8.',
    `* ${title.replace(/[\r\n]+/g, ' ')}: responses exported by Survey Bird; times are UTC.`,
    `* Run it with the working folder holding ${csvName} (CD 'that folder'. first).`,
    `GET DATA /TYPE=TXT /FILE='${csvName}' /ENCODING='UTF8' /ARRANGEMENT=DELIMITED /DELCASE=LINE /FIRSTCASE=2 /DELIMITERS=',' /QUALIFIER='"'`,
    '  /VARIABLES=',
    ...columns.map((c, i) => `  ${c.name} ${spssFormat(kinds[i]!, stats[i])}`),
    '.',
  ];
  const decimals = columns.flatMap((c, i) => (kinds[i] === 'number' && (stats[i]?.decimals ?? 0) > 0 ? [`${c.name} (F20.${Math.min(16, stats[i]!.decimals)})`] : []));
  if (decimals.length > 0) out.push(`FORMATS ${decimals.join(' /')}.`);
  out.push('VARIABLE LABELS', ...columns.map((c, i) => `  ${i === 0 ? '' : '/'}${c.name} ${spssText(c.label, SPSS_VARIABLE_LABEL)}`), '.');
  const labelled = columns.filter((c, i) => c.valueLabels && kinds[i] === 'number');
  if (labelled.length > 0) {
    out.push('VALUE LABELS');
    labelled.forEach((c, i) => out.push(`  ${i === 0 ? '' : '/'}${c.name} ${c.valueLabels!.map(([code, label]) => `${code} ${spssText(label, SPSS_VALUE_LABEL)}`).join(' ')}`));
    out.push('.');
  }
  out.push('EXECUTE.');
  return lines(out);
}
