import type { ExportFormat, QuestionType } from '@survey-bird/contracts';
import type { ExportColumns } from './export-rows.js';

// Loaded by the export's threads: type imports only from the contracts' main entry (zod stays out).

/** How an export is written: its format and the two switches of the download routes. */
export interface ExportOptions {
  format: ExportFormat;
  choices: 'labels' | 'values';
  splitMultiple: boolean;
}

export const XLSX_OPTIONS: ExportOptions = { format: 'xlsx', choices: 'labels', splitMultiple: false };

export const SELECT_TYPE = 'select' satisfies QuestionType;
export const CHECKBOX_TYPE = 'checkbox' satisfies QuestionType;
export const LOCATION_TYPE = 'live location' satisfies QuestionType;
export const NUMBER_TYPES: readonly string[] = ['number', 'decimal'] satisfies QuestionType[];
export const DATE_TYPE = 'date' satisfies QuestionType;
export const TIME_TYPE = 'time' satisfies QuestionType;
export const GEOTRACE_TYPE = 'geotrace' satisfies QuestionType;
export const GEOSHAPE_TYPE = 'geoshape' satisfies QuestionType;
/** Answers drawn on a map: a point, a line, an area. */
export const GEO_TYPES: readonly string[] = [LOCATION_TYPE, GEOTRACE_TYPE, GEOSHAPE_TYPE];

/**
 * Stata and SPSS get what an analyst labels: option numbers with value labels, and a 0/1 column
 * per option of a checkbox, whatever the switches say; the other formats take the switches as sent.
 */
export function effectiveOptions(options: ExportOptions): ExportOptions {
  return options.format === 'stata' || options.format === 'spss' ? { ...options, choices: 'values', splitMultiple: true } : options;
}

/** The row's leading columns, before the questions. Captured at, Received at and Reviewed at are moments. */
export const LEADING_HEADER = ['S/N', 'Field user', 'Field user email', 'Captured at', 'Received at', 'Version', 'Revision', 'Status', 'Reviewed by', 'Reviewed at', 'Payout reference'];
/** Last, after the questions, quality: open flags with their reasons and what the phone recorded. Opened at and Location fix time are moments. */
export const QUALITY_HEADER = ['Flags', 'Opened at', 'Duration (s)', 'Location accuracy (m)', 'Location fix time', 'Device id', 'App version', 'Photo hashes'];
/** Positions of the moment columns in LEADING_HEADER and in QUALITY_HEADER. */
export const LEADING_MOMENTS: readonly number[] = [3, 4, 9];
export const QUALITY_MOMENTS: readonly number[] = [1, 4];

/** One question-side column of the export: a question's own, or (split) one of its options' 0/1. */
export interface QuestionSlot {
  header: string;
  /** Index into ExportColumns' columns. */
  column: number;
  /** The option's index when this is a 0/1 column, else null. */
  option: number | null;
  /** A geotrace's length (m) or a geoshape's area (m²), computed from the answer beside it. */
  measure?: 'length' | 'area';
}

/** The measure column that follows a geotrace's or geoshape's own. */
const MEASURES: Partial<Record<string, { kind: 'length' | 'area'; unit: string }>> = {
  [GEOTRACE_TYPE]: { kind: 'length', unit: 'length m' },
  [GEOSHAPE_TYPE]: { kind: 'area', unit: 'area m²' },
};

/** The question-side columns in order: each question, then its options' 0/1 columns when split. */
export function questionSlots(columns: ExportColumns, options: ExportOptions): QuestionSlot[] {
  const slots: QuestionSlot[] = [];
  columns.headers.forEach((header, column) => {
    slots.push({ header, column, option: null });
    const measure = MEASURES[columns.types[column] ?? ''];
    if (measure) slots.push({ header: `${header} (${measure.unit})`, column, option: null, measure: measure.kind });
    if (options.splitMultiple && columns.types[column] === CHECKBOX_TYPE) {
      (columns.options[column] ?? []).forEach((o, option) => slots.push({ header: `${header}: ${o}`, column, option }));
    }
  });
  return slots;
}
