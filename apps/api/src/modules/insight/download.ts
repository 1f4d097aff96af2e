// Kept apart from workbook.ts so the request thread never loads exceljs: only the export worker does.
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `{title}_responses.xlsx` as an attachment; RFC 5987 `filename*` carries a non-ASCII title. */
export function attachmentHeader(title: string): string {
  const name = `${title.replace(/\p{Cc}/gu, '').trim() || 'survey'}_responses.xlsx`;
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === name ? `attachment; filename="${name}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
