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
  return [Buffer.concat(chunks), part.filename || 'Imported form'];
}
