import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, mkdirSync } from 'node:fs';
import { open, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileConfigstore, FileStore } from '@tus/file-store';
import { ERRORS, MemoryLocker, Server, type DataStore, type Locker, type ServerOptions } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiMsg, AUDIO_AUDIT_KIND, AudioLimits, MAX_UPLOAD_BYTES, Msg, PhotoMsg, routes } from '@survey-bird/contracts';
import type { AudioService } from '../audio/service.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { HttpError, errorBody, notFound, storageStatus } from '../../http/errors.js';
import { PgLocker } from './pg-locker.js';
import { ResumableClaims } from './resumable-claims.js';
import { DatabaseUploadStore, type FinishedFile } from './resumable-store.js';
import type { UploadService } from './upload-service.js';

type Upload = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[1];

/** Set by this server on the request it hands to tus (any copy the client sent is dropped first). */
const CALLER = 'x-survey-bird-caller';
/** The last PATCH's reply names the stored photo, as the photo route's reply does. */
export const REFERENCE_HEADER = 'photo-reference';
/** Expiry is counted in hours: a sweep every 10 minutes keeps an expired upload at most that much longer. */
export const CLEAN_UP_EVERY_MS = 10 * 60 * 1000;
/** How long creating an upload waits to take over the placeholder's previous one (its PATCH is asked to stop, tus lets it drain 3 s). */
const REPLACE_WAIT_MS = 5000;

/** Where unfinished uploads live: tus's DataStore, and how a finished one is read out and removed. */
export interface PartialUploads {
  readonly store: DataStore;
  /** The finished upload as a synced file that UploadService.store takes over; undefined when its bytes are not all there. */
  finished(id: string, size: number): Promise<FinishedFile | undefined>;
  discard(id: string): Promise<void>;
}

/**
 * Photos are personal data: a partial upload's bytes and its .json are created 0600 (the server
 * user's only, whatever the umask), not tus's default 0666 less the umask. Ids are ours (32 hex
 * digits: namingFunction, and the route's check of `:id`), so the paths stay inside `dir`.
 */
class PrivateFileStore extends FileStore {
  constructor(private readonly dir: string, expiryMs: number) {
    super({ directory: dir, configstore: new PrivateConfigstore(dir), expirationPeriodInMilliseconds: expiryMs });
  }

  override async create(upload: Upload): Promise<Upload> {
    const path = join(this.dir, upload.id);
    await writeFile(path, '', { mode: 0o600, flag: 'wx' });
    await this.configstore.set(upload.id, upload);
    upload.storage = { type: 'file', path };
    return upload;
  }
}

class PrivateConfigstore extends FileConfigstore {
  constructor(private readonly dir: string) {
    super(dir);
  }

  override async set(key: string, value: Upload): Promise<void> {
    await writeFile(join(this.dir, `${key}.json`), JSON.stringify(value), { mode: 0o600 });
  }
}

/** DATA_DIR/resumable with tus's file store: one instance (the disk photo store). */
function partialsOnDisk(config: Config): PartialUploads {
  const dir = join(config.dataDir, 'resumable');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return {
    store: new PrivateFileStore(dir, config.resumableExpiryMs),
    async finished(id, size) {
      const path = join(dir, id);
      // The reply promises the photo is kept: on disk before we say so.
      const handle = await open(path, 'r+').catch(() => undefined);
      if (!handle) return undefined;
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
      return { path, size, sha256: hash.digest('hex') };
    },
    async discard(id) {
      await unlink(join(dir, id)).catch(() => undefined);
      await unlink(join(dir, `${id}.json`)).catch(() => undefined);
    },
  };
}

/** The `resumable_uploads` tables: every instance on the database sees every upload (photo stores postgres and s3). */
function partialsInDatabase(db: Db, config: Config, uploads: UploadService): PartialUploads {
  const store = new DatabaseUploadStore(db.kysely, config.resumableExpiryMs);
  return {
    store,
    finished: (id, size) => store.copyTo(id, size, uploads.tempPath()),
    discard: (id) => store.remove(id).catch(() => undefined),
  };
}

/**
 * Resumable photo uploads with the tus 1.0 protocol (`@tus/server`): a photo cut off at
 * 90% goes on from the last byte stored. Where the partial uploads live follows the photo store:
 * DATA_DIR/resumable for disk, the database for postgres and s3, so that on several
 * instances an upload started through one resumes through any other; on PostgreSQL the instances
 * also share the per-upload lock (pg-locker.ts), elsewhere it is tus's in-memory one. The caller's
 * token is checked by the route (field users only) and its ownership of the upload here, on every
 * request; the upload names the response (clientId) and question its placeholder was sent with.
 * The finished file is synced, then handed to the same checks and attach logic as a photo sent
 * whole (UploadService.store), all before the last PATCH is answered.
 *
 * Unfinished uploads are bounded (resumable-claims.ts): one per photo placeholder (creating another
 * replaces it: the phone only creates when it has lost or been refused the old one's URL, so it
 * sends from byte 0 either way, and the old bytes would only hold disk), at most
 * `resumableUserMaxBytes` declared per user (413 past it), cancelled by the phone with DELETE (tus
 * termination), and removed `resumableExpiryMs` after creation (RESUMABLE_UPLOAD_EXPIRY_HOURS,
 * default 6).
 */
export class ResumableUploads {
  readonly partials: PartialUploads;
  readonly locker: Locker;
  readonly claims: ResumableClaims;
  private readonly tus: Server;

  constructor(private readonly config: Config, db: Db, private readonly uploads: UploadService, private readonly log: { info(o: object, msg: string): void; warn(o: object, msg: string): void }, private readonly audio?: AudioService) {
    this.partials = config.fileStore === 'disk' ? partialsOnDisk(config) : partialsInDatabase(db, config, uploads);
    this.locker = db.engine === 'postgres' && config.databaseUrl
      ? new PgLocker({ connectionString: config.databaseUrl, schema: db.pgSchema, onConnectionLost: (err) => log.warn({ err: err?.message }, 'upload lock connection dropped') })
      : new MemoryLocker();
    this.claims = new ResumableClaims(db.kysely, db.engine);
    // A cancelled upload's declared bytes stop counting before its 204 is written, so the phone's
    // next creation right after a cancel finds the share free (releasing after tus answered raced it).
    const store = this.partials.store;
    const remove = store.remove.bind(store);
    store.remove = async (id: string) => {
      await remove(id);
      await this.claims.release(id);
    };
    this.tus = new Server({
      path: routes.resumableCreate.path,
      datastore: this.partials.store,
      locker: this.locker,
      // The largest of an upload question's cap and an audit clip's; each kind's own bound is checked at creation.
      maxSize: Math.max(MAX_UPLOAD_BYTES, AudioLimits.maxBytes),
      relativeLocation: true,
      disableTerminationForFinishedUploads: true,
      namingFunction: () => randomBytes(16).toString('hex'),
      onUploadCreate: async (req, upload) => {
        const caller = req.headers.get(CALLER);
        await tusErrors(async () => {
          // handle() sets it from the verified session on every request it passes on; never absent here.
          if (!caller) throw new HttpError(401, Msg.authenticationInvalid);
          const placeholder = isAudio(upload) ? await this.audioService().checkUpload(caller, upload.metadata ?? {}, upload.size) : await this.uploads.checkResumable(caller, fieldsOf(upload), upload.size);
          const claimed = await this.claims.claim(placeholder, upload.id, upload.size ?? 0, this.config.resumableUserMaxBytes, Date.now());
          if (!claimed.ok) throw new HttpError(413, PhotoMsg.unfinishedUploadsFull);
          if (claimed.replaced) await this.terminate(claimed.replaced);
        });
        return { metadata: { ...upload.metadata, owner: caller } };
      },
      onUploadFinish: async (_req, upload) => {
        const reference = await tusErrors(() => this.finish(upload));
        return reference ? { headers: { [REFERENCE_HEADER]: reference } } : {};
      },
      onResponseError: (_req, err) => {
        // Busy (another request holds the upload past the wait) or storage failing: try again, in our { msg } shape.
        if (err === ERRORS.ERR_LOCK_TIMEOUT) return { status_code: 503, body: msgBody(ApiMsg.serviceUnavailable, 503) };
        const storage = storageStatus(err as { code?: string; message?: string });
        return storage ? { status_code: storage[0], body: msgBody(storage[1], storage[0]) } : undefined;
      },
    });
  }

  /** Removes partial uploads older than the expiry, and their claims; answers how many uploads. */
  async cleanUp(): Promise<number> {
    const removed = await this.tus.cleanUpExpiredUploads();
    await this.claims.releaseCreatedBefore(Date.now() - this.config.resumableExpiryMs);
    return removed;
  }

  async stop(): Promise<void> {
    if (this.locker instanceof PgLocker) await this.locker.close();
  }

  /** Hands the request to tus, once the caller is known to own the upload it names (404 otherwise, as for a missing one). */
  async handle(req: FastifyRequest & { auth: { user: { id: string } } }, reply: FastifyReply, id?: string): Promise<FastifyReply> {
    const caller = req.auth.user.id;
    if (id !== undefined) {
      if (req.method === 'GET') throw notFound(PhotoMsg.uploadNotFound);
      const upload = await this.partials.store.getUpload(id).catch((err: unknown) => {
        if (storageStatus(err as { code?: string })) throw err;
        return undefined;
      });
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

  /**
   * Removes the placeholder's previous upload: its lock is taken first (a PATCH still writing it is
   * asked to stop), then its bytes go. A PATCH that would not let go in time is cut off all the
   * same: its next write finds the upload gone (404, or 409 on the offset check).
   */
  private async terminate(id: string): Promise<void> {
    const lock = this.locker.newLock(id);
    const locked = await lock.lock(AbortSignal.timeout(REPLACE_WAIT_MS), async () => undefined).then(() => true, () => false);
    try {
      await this.partials.discard(id);
    } finally {
      if (locked) await lock.unlock().catch(() => undefined);
    }
  }

  private audioService(): AudioService {
    if (!this.audio) throw new HttpError(400, 'Audio uploads are not taken here');
    return this.audio;
  }

  private async finish(upload: Upload): Promise<string> {
    try {
      const file = await this.partials.finished(upload.id, upload.size ?? upload.offset);
      // Another request finished (and removed) it meanwhile: the phone's HEAD then finds nothing and asks again.
      if (!file) throw notFound(PhotoMsg.uploadNotFound);
      const fields = fieldsOf(upload);
      // The owner was written at creation from the verified session: an upload without one is nobody's.
      const owner = upload.metadata?.owner;
      if (!owner) throw notFound(PhotoMsg.uploadNotFound);
      // The audit clip's reply names nothing: the field user who recorded it never gets it back.
      if (isAudio(upload)) {
        await this.audioService().store(owner, upload.metadata ?? {}, { tempPath: file.path, size: file.size, sha256: file.sha256 });
        return '';
      }
      const reply = await this.uploads.store(owner, { fields, file: { tempPath: file.path, fieldname: fields.question ?? '', size: file.size, sha256: file.sha256, truncated: false } });
      const [stored] = Object.values(reply);
      if (stored === undefined) throw new Error('the photo store answered no photo');
      return stored;
    } finally {
      // Stored (the file moved into the photo store) or refused: this upload is over either way.
      await this.partials.discard(upload.id);
      await this.claims.release(upload.id);
    }
  }
}

const msgBody = (msg: string, status: number) => JSON.stringify(errorBody(msg, status));

/** An audio audit clip (Upload-Metadata `kind`), else a photo. */
const isAudio = (upload: Upload) => upload.metadata?.kind === AUDIO_AUDIT_KIND;

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
    if (err instanceof HttpError) throw { status_code: err.statusCode, body: msgBody(err.message, err.statusCode) };
    throw err;
  }
}
