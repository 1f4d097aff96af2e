import type { FastifyRequest } from 'fastify';
import { ApiMsg, Limits, Msg } from '@survey-bird/contracts';
import { HttpError, badRequest } from '../../http/errors.js';

/** A file sent beside the form: the CSV of a `select_one_from_file` list, by its base name. */
export interface XlsformAttachment {
  name: string;
  bytes: Uint8Array;
}

/** CSV lists a form may bring (ODK forms use a handful: states, LGAs, wards, facilities). */
export const MAX_XLSFORM_ATTACHMENTS = 20;

/**
 * The uploaded XLSForm's bytes and file name, and the CSV files sent with it (`.csv` parts, for
 * `select_one_from_file`). Each file is counted as it arrives: past Limits.maxXlsformBytes the
 * upload is a 413 with its own message (the rest of the body is read and dropped by the multipart
 * parser, so the connection stays usable); the route's body limit caps them together.
 */
export async function receiveXlsform(req: FastifyRequest): Promise<{ bytes: Buffer; fileName: string; attachments: XlsformAttachment[] }> {
  let form: { bytes: Buffer; fileName: string } | undefined;
  const attachments: XlsformAttachment[] = [];
  try {
    for await (const part of req.parts({ limits: { fileSize: Limits.maxXlsformBytes, files: MAX_XLSFORM_ATTACHMENTS + 1 } })) {
      if (part.type !== 'file') continue;
      const bytes = await readPart(part.file);
      const name = (part.filename ?? '').split(/[\\/]/).pop()!.trim();
      if (/\.csv$/i.test(name)) attachments.push({ name, bytes });
      else if (!form) form = { bytes, fileName: part.filename || 'Imported form' };
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (tooLarge(err)) throw new HttpError(413, ApiMsg.xlsformTooLarge);
    throw badRequest(ApiMsg.xlsformMissing);
  }
  // A lone CSV is a form saved as CSV (refused as no .xlsx below), not a list without its form.
  const lone = !form ? attachments.shift() : undefined;
  if (lone) form = { bytes: Buffer.from(lone.bytes), fileName: lone.name };
  if (!form || form.bytes.length === 0) throw badRequest(ApiMsg.xlsformMissing);
  sniffXlsx(form.bytes);
  return { ...form, attachments };
}

/** The multipart parser's refusal of a file past its size limit. */
const tooLarge = (err: unknown) => (err as { code?: string } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';

async function readPart(file: AsyncIterable<Buffer> & { truncated: boolean }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of file) {
      size += chunk.length;
      if (size <= Limits.maxXlsformBytes) chunks.push(chunk);
    }
  } catch (err) {
    if (tooLarge(err)) throw new HttpError(413, ApiMsg.xlsformTooLarge);
    throw badRequest(Msg.uploadIncomplete);
  }
  if (file.truncated || size > Limits.maxXlsformBytes) throw new HttpError(413, ApiMsg.xlsformTooLarge);
  return Buffer.concat(chunks);
}

/** What is no zip at all is a 415 at once, before a thread or the zip reader is spent on it. */
function sniffXlsx(bytes: Buffer): void {
  // An OLE2 compound file: Excel 97-2003 .xls.
  if (bytes.subarray(0, 8).toString('hex') === 'd0cf11e0a1b11ae1') throw new HttpError(415, ApiMsg.xlsformOldXls);
  if (bytes.subarray(0, 4).toString('hex') !== '504b0304') throw new HttpError(415, ApiMsg.xlsformNotXlsx);
}
