import type { ExportFormat } from '@survey-bird/contracts';
import { XLSX_MIME } from '../../lib/spreadsheet.js';

// Kept apart from workbook.ts and export-formats.ts so the request thread never loads exceljs or
// archiver: only the export worker does.
export { XLSX_MIME };

/** Each format's content type and file extension: Stata and SPSS come as a zip of the CSV and the syntax file. */
export const DOWNLOADS: Record<ExportFormat, { mime: string; extension: string }> = {
  xlsx: { mime: XLSX_MIME, extension: 'xlsx' },
  csv: { mime: 'text/csv; charset=utf-8', extension: 'csv' },
  stata: { mime: 'application/zip', extension: 'stata.zip' },
  spss: { mime: 'application/zip', extension: 'spss.zip' },
  geojson: { mime: 'application/geo+json', extension: 'geojson' },
  kml: { mime: 'application/vnd.google-earth.kml+xml', extension: 'kml' },
};

/** The CSV download of a survey with repeats: a zip of one CSV per table (the responses, then each repeat). */
export const CSV_TABLES_DOWNLOAD = { mime: 'application/zip', extension: 'csv.zip' };

/** `{title}_responses.{extension}` as an attachment; RFC 5987 `filename*` carries a non-ASCII title. */
export function attachmentHeader(title: string, extension = 'xlsx'): string {
  const name = `${title.replace(/\p{Cc}/gu, '').trim() || 'survey'}_responses.${extension}`;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === name ? `attachment; filename="${name}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
