import type { FastifyRequest } from 'fastify';
import { ApiMsg, Limits, Msg } from '@survey-bird/contracts';
import { HttpError, badRequest } from '../../http/errors.js';

/**
 * The uploaded XLSForm's bytes and file name. Counted as they arrive: past Limits.maxXlsformBytes
 * the upload is a 413 with its own message (the rest of the body is read and dropped by the
 * multipart parser, so the connection stays usable).
 */
export async function receiveXlsform(req: FastifyRequest): Promise<[Buffer, string]> {
  let part;
  try {
    part = await req.file({ limits: { fileSize: Limits.maxXlsformBytes, files: 1 }, throwFileSizeLimit: false });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw badRequest(ApiMsg.xlsformMissing);
  }
  if (!part) throw badRequest(ApiMsg.xlsformMissing);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= Limits.maxXlsformBytes) chunks.push(chunk);
    }
  } catch {
    throw badRequest(Msg.uploadIncomplete);
  }
  if (part.file.truncated || size > Limits.maxXlsformBytes) throw new HttpError(413, ApiMsg.xlsformTooLarge);
  if (size === 0) throw badRequest(ApiMsg.xlsformMissing);
  const bytes = Buffer.concat(chunks);
  sniffXlsx(bytes);
  return [bytes, part.filename || 'Imported form'];
}

/** What is no zip at all is a 415 at once, before a thread or the zip reader is spent on it. */
function sniffXlsx(bytes: Buffer): void {
  // An OLE2 compound file: Excel 97-2003 .xls.
  if (bytes.subarray(0, 8).toString('hex') === 'd0cf11e0a1b11ae1') throw new HttpError(415, ApiMsg.xlsformOldXls);
  if (bytes.subarray(0, 4).toString('hex') !== '504b0304') throw new HttpError(415, ApiMsg.xlsformNotXlsx);
}
