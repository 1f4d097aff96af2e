import type { FastifyRequest } from 'fastify';
import { ApiMsg, Limits, Msg } from '@survey-bird/contracts';
import { HttpError, badRequest } from '../../http/errors.js';

/** A row of the file with its number as a spreadsheet shows it (the headings are row 1). */
export interface FileRow {
  number: number;
  cells: string[];
}

/**
 * The uploaded file and the survey_id field, in either order. The file is counted as it arrives:
 * past Limits.maxBulkInviteBytes it is a 413 (the rest is read and dropped, so the connection stays usable).
 */
export async function receiveBulkFile(req: FastifyRequest): Promise<{ bytes: Buffer; surveyId: string | undefined }> {
  let bytes: Buffer | undefined;
  let surveyId: string | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: Limits.maxBulkInviteBytes, files: 1 } })) {
      if (part.type === 'field') {
        if (part.fieldname === 'survey_id' && typeof part.value === 'string') surveyId = part.value.trim();
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size <= Limits.maxBulkInviteBytes) chunks.push(chunk);
      }
      if (part.file.truncated || size > Limits.maxBulkInviteBytes) throw new HttpError(413, ApiMsg.bulkFileTooLarge);
      bytes = Buffer.concat(chunks);
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if ((err as { statusCode?: number }).statusCode === 413) throw new HttpError(413, ApiMsg.bulkFileTooLarge);
    throw badRequest(bytes ? Msg.uploadIncomplete : ApiMsg.bulkFileMissing);
  }
  if (!bytes || bytes.length === 0) throw badRequest(ApiMsg.bulkFileMissing);
  return { bytes, surveyId };
}

/** The rows of a CSV (UTF-8, comma or semicolon) or of an xlsx's first sheet; at most Limits.maxBulkInviteRows people. */
export async function readBulkFile(bytes: Buffer): Promise<FileRow[]> {
  const isZip = bytes.subarray(0, 4).toString('hex') === '504b0304';
  const rows = isZip ? await readXlsx(bytes) : readCsv(bytes);
  // The headings and up to the limit of people.
  if (rows.length > Limits.maxBulkInviteRows + 1) throw new HttpError(413, ApiMsg.bulkTooManyRows);
  return rows;
}

async function readXlsx(bytes: Buffer): Promise<FileRow[]> {
  try {
    // Loaded on first use: jszip, pako and saxes hold about 1.2 MB of heap a server at rest need not
    // (docs/benchmarks.md, target 10); XLSForms are read on a worker thread of their own.
    const [{ readSheets }, { XlsxZip }] = await Promise.all([import('../surveys/xlsform-xml.js'), import('../surveys/xlsform-zip.js')]);
    const [sheet] = await readSheets(await XlsxZip.open(bytes), true);
    return sheet?.rows ?? [];
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 413) throw err;
    throw new HttpError(415, ApiMsg.bulkNotReadable);
  }
}

const MAX_CELL = 1000;

/**
 * RFC 4180 with what spreadsheets write: an optional byte-order mark, CRLF or LF, quoted fields with
 * doubled quotes and line breaks, and `;` as the separator when the heading line has more of them
 * than commas (a European Excel). Stops past `maxRows` (a bulk invite's heading and rows by default)
 * instead of reading the rest.
 */
export function readCsv(bytes: Buffer, maxRows = Limits.maxBulkInviteRows + 1): FileRow[] {
  if (bytes.includes(0)) throw new HttpError(415, ApiMsg.bulkNotReadable);
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const sep = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: FileRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowStart = 1;
  const endCell = () => {
    cells.push(cell.trim().slice(0, MAX_CELL));
    cell = '';
  };
  const endRow = () => {
    endCell();
    if (cells.some((c) => c !== '')) rows.push({ number: rowStart, cells });
    cells = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      cell = '';
      quoted = true;
    } else if (ch === sep) endCell();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowStart = line;
      if (rows.length > maxRows) return rows;
    } else cell += ch;
  }
  endRow();
  return rows;
}
