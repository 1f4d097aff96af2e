import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, mkdirSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, type ServerOptions } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Limits, PhotoMsg, routes } from '@survey-bird/contracts';
import type { Config } from '../../config.js';
import { HttpError, notFound } from '../../http/errors.js';
import type { UploadService } from './upload-service.js';

type Upload = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[1];

/** Set by this server on the request it hands to tus (any copy the client sent is dropped first). */
const CALLER = 'x-survey-bird-caller';
/** The last PATCH's reply names the stored photo, as the photo route's reply does. */
export const REFERENCE_HEADER = 'photo-reference';
const CLEAN_UP_EVERY_MS = 60 * 60 * 1000;

/**
 * Resumable photo uploads (issue 19) with the tus 1.0 protocol (`@tus/server` and its file store
 * in DATA_DIR/resumable): a photo cut off at 90% goes on from the last byte stored. The caller's
 * token is checked by the route (field users only) and its ownership of the upload here, on every
 * request; the upload names the response (clientId) and question its placeholder was sent with.
 * The finished file is synced, then handed to the same checks and attach logic as a photo sent
 * whole (UploadService.store), all before the last PATCH is answered. Unfinished uploads are
 * removed after `resumableExpiryMs` (RESUMABLE_UPLOAD_EXPIRY_DAYS, default 7).
 */
export class ResumableUploads {
  readonly dir: string;
  private readonly datastore: FileStore;
  private readonly tus: Server;
  private cleanUpTimer: NodeJS.Timeout | undefined;

  constructor(config: Config, private readonly uploads: UploadService, private readonly log: { info(o: object, msg: string): void }) {
    this.dir = join(config.dataDir, 'resumable');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    this.datastore = new FileStore({ directory: this.dir, expirationPeriodInMilliseconds: config.resumableExpiryMs });
    this.tus = new Server({
      path: routes.resumableCreate.path,
      datastore: this.datastore,
      maxSize: Limits.maxImageBytes,
      relativeLocation: true,
      disableTerminationForFinishedUploads: true,
      namingFunction: () => randomBytes(16).toString('hex'),
      onUploadCreate: async (req, upload) => {
        const caller = req.headers.get(CALLER) ?? '';
        await tusErrors(() => this.uploads.checkResumable(caller, fieldsOf(upload), upload.size));
        return { metadata: { ...upload.metadata, owner: caller } };
      },
      onUploadFinish: async (_req, upload) => {
        const reference = await tusErrors(() => this.finish(upload));
        return { headers: { [REFERENCE_HEADER]: reference } };
      },
    });
  }

  /** Removes partial uploads older than the expiry; answers how many. */
  cleanUp(): Promise<number> {
    return this.tus.cleanUpExpiredUploads();
  }

  /** cleanUp now and every hour. */
  startCleanUp(): void {
    const run = () => void this.cleanUp().catch(() => undefined);
    run();
    this.cleanUpTimer = setInterval(run, CLEAN_UP_EVERY_MS).unref();
  }

  stop(): void {
    clearInterval(this.cleanUpTimer);
  }

  /** Hands the request to tus, once the caller is known to own the upload it names (404 otherwise, as for a missing one). */
  async handle(req: FastifyRequest & { auth: { user: { id: string } } }, reply: FastifyReply, id?: string): Promise<FastifyReply> {
    const caller = req.auth.user.id;
    if (id !== undefined) {
      if (req.method === 'GET') throw notFound(PhotoMsg.uploadNotFound);
      const upload = await this.datastore.getUpload(id).catch(() => undefined);
      if (!upload || upload.metadata?.owner !== caller) throw notFound(PhotoMsg.uploadNotFound);
      const offset = Number(req.headers['upload-offset']);
      if (req.method === 'PATCH' && offset > 0) this.log.info({ upload: id, offset, size: upload.size }, 'resumable upload resumed');
    }
    // tus reads headers from both forms of the Node request; only ours may name the caller.
    const raw = req.raw.rawHeaders;
    for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i]!.toLowerCase() === CALLER) raw.splice(i, 2);
    raw.push(CALLER, caller);
    req.raw.headers[CALLER] = caller;
    await reply.hijack();
    await this.tus.handle(req.raw, reply.raw);
    return reply;
  }

  private async finish(upload: Upload): Promise<string> {
    const path = join(this.dir, upload.id);
    try {
      // The reply promises the photo is kept: on disk before we say so.
      const handle = await open(path, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
      const size = upload.size ?? upload.offset;
      const fields = fieldsOf(upload);
      const reply = await this.uploads.store(upload.metadata?.owner ?? '', { fields, file: { tempPath: path, fieldname: fields.question ?? '', size, sha256: hash.digest('hex'), truncated: false } });
      return Object.values(reply)[0] ?? '';
    } finally {
      // Stored (the file moved into the photo store) or refused: this upload is over either way.
      await unlink(path).catch(() => undefined);
      await unlink(`${path}.json`).catch(() => undefined);
    }
  }
}

/** The upload's metadata as the photo route's form fields. */
function fieldsOf(upload: Upload): Record<string, string> {
  const m = upload.metadata ?? {};
  const fields: Record<string, string> = {};
  for (const [key, name] of [['question', 'question'], ['survey_id', 'survey_name'], ['organization_id', 'organization_name'], ['clientId', 'clientId']] as const) {
    const value = m[key];
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

/** Our HttpErrors as tus answers them: the status and the `{ msg }` body every route uses. */
async function tusErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    // @tus/server answers a thrown `{ status_code, body }` as that response (its own error shape, not an Error).
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (err instanceof HttpError) throw { status_code: err.statusCode, body: JSON.stringify({ msg: err.message }) };
    throw err;
  }
}
