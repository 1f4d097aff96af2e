import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiMsg, MAX_UPLOAD_BYTES, Msg, Role, routes } from '@survey-bird/contracts';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors.js';
import { checkFileLink, fileLinkKey } from './file-links.js';
import { route } from '../../http/route.js';
import { type ReceivedUpload } from './upload-service.js';

export async function fileRoutes(app: FastifyInstance): Promise<void> {
  const { uploads, resumable } = app.services;

  route(app, 'uploadImage', async (req) => {
    const upload = await receive(req, uploads.tempPath());
    return uploads.store(req.auth.user.id, upload);
  });

  // tus: the bytes of a PATCH are read by tus itself, from the raw request (resumable.ts).
  app.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null, undefined));
  route(app, 'resumableCreate', (req, reply) => resumable.handle(req, reply));
  route(app, 'resumableOffset', (req, reply) => resumable.handle(req, reply, req.params.id));
  route(app, 'resumableAppend', (req, reply) => resumable.handle(req, reply, req.params.id));
  route(app, 'resumableTerminate', (req, reply) => resumable.handle(req, reply, req.params.id));

  route(app, 'getImage', async (req, reply) => {
    const { id } = req.params;
    const { exp, sig } = req.query;
    let file: Awaited<ReturnType<typeof uploads.open>>;
    let maxAge = 31_536_000;
    if (exp !== undefined || sig !== undefined) {
      // A link from an export or webhook: the signature is the key, whoever holds it.
      const check = checkFileLink(fileLinkKey(app.config.jwtSecret, app.config.fileLinkSecret), id, exp ?? '', sig ?? '');
      if (check === 'bad') throw forbidden(ApiMsg.imageLinkInvalid);
      if (check === 'expired') throw forbidden(ApiMsg.imageLinkExpired);
      file = await uploads.open(id);
      // A cache must not keep serving it past the link's own expiry.
      maxAge = Math.max(0, Number(exp) - Math.floor(Date.now() / 1000));
    } else {
      const caller = await app.identify(req, routes.getImage.token);
      if (!caller) {
        if (await uploads.exists(id)) throw new HttpError(410, ApiMsg.imageLinkUnsigned);
        throw notFound(ApiMsg.imageNotFound);
      }
      const office = caller.actor?.role === Role.organization ? caller.actor : null;
      file = await uploads.open(id, { userId: caller.user.id, role: caller.user.role, organizationId: office?.organizationId ?? null, surveys: office?.surveys ?? 'all' });
    }
    // Undefined also when the bytes went missing under the row: a 404, not a broken 200.
    if (!file) throw notFound(ApiMsg.imageNotFound);
    // A document is saved, never shown in our origin's tab (the sniffer keeps markup out; this keeps a PDF viewer's scripts out too).
    if (!/^(image|audio|video)\//.test(file.mime)) void reply.header('content-disposition', 'attachment');
    return reply
      .type(file.mime)
      .header('content-length', file.size)
      .header('cache-control', `private, max-age=${maxAge}${maxAge === 31_536_000 ? ', immutable' : ''}`)
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  });
}

/** Reads the multipart body: text fields, and the one file part streamed to a temp file (hashed, counted, synced). */
async function receive(req: FastifyRequest, tempPath: string): Promise<ReceivedUpload> {
  const fields: Record<string, string> = {};
  let file: ReceivedUpload['file'] = null;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.valueTruncated || typeof part.value !== 'string') throw badRequest(`The field "${part.fieldname}" is too long or not text`);
        fields[part.fieldname] = part.value;
        continue;
      }
      const hash = createHash('sha256');
      let size = 0;
      await pipeline(
        part.file,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        // flush: the reply promises the photo is kept, so it is on disk (fsync) before we say so.
        createWriteStream(tempPath, { flags: 'wx', mode: 0o600, flush: true }),
      );
      file = { tempPath, fieldname: part.fieldname, size, sha256: hash.digest('hex'), truncated: part.file.truncated };
    }
  } catch (err) {
    discardRest(req);
    await unlink(tempPath).catch(() => undefined);
    throw isBrokenMultipart(err) ? badRequest(Msg.uploadIncomplete) : err;
  }
  return { fields, file };
}

/**
 * After a failure mid-body (a full disk, a field too long) the rest of the upload is still on the
 * socket and nobody reads it: the reply goes out, but the next request on that keep-alive connection
 * would wait forever behind the unread bytes. Read and drop them (at most an upload's worth, then
 * the connection is closed instead).
 */
function discardRest(req: FastifyRequest): void {
  const raw = req.raw;
  if (raw.readableEnded || raw.destroyed) return;
  let budget = MAX_UPLOAD_BYTES + 1024 * 1024;
  raw.on('data', (chunk: Buffer) => {
    budget -= chunk.length;
    if (budget < 0) raw.destroy();
  });
  raw.resume();
}

/** The parser's own complaints about a body that ended early or is not well-formed multipart (they carry no code). */
function isBrokenMultipart(err: unknown): boolean {
  if (!(err instanceof Error) || (err as { code?: string }).code) return false;
  return /multipart|end of form|part header|boundary/i.test(err.message);
}
