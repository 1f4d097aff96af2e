import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { open, readFile, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { ApiMsg, ClientId, IMAGE_QUESTION_TYPES, Limits, lowerUuid, Msg, PhotoMsg, routes, UPLOAD_QUESTION_TYPES, uploadCap, type QuestionType } from '@survey-bird/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { HttpError, badRequest } from '../../http/errors.js';
import type { IngestService } from '../responses/ingest-service.js';
import { PendingPhotosRepository, photoMismatch, photoQuestionOf, type PhotoKey } from '../responses/pending-photos.js';
import { FilesRepository } from './files-repository.js';
import { sniffImage, type ImageInfo, type ReadAt } from './image-sniff.js';
import { sniffMedia } from './media-sniff.js';
import { hasImageData } from './image-structure.js';
import { STORE_KINDS, type FileStores, type StoreKind } from './store/index.js';
import { withoutMetadata } from './strip-metadata.js';

/** A multipart upload as received: its text fields and the file part, already written to a temp file. */
export interface ReceivedUpload {
  fields: Record<string, string>;
  file: { tempPath: string; fieldname: string; size: number; sha256: string; truncated: boolean } | null;
}

/** 32 random bytes, base64url: the id is the capability, so it must be unguessable. */
const IMAGE_ID = /^[A-Za-z0-9_-]{43}$/;
const TEMP_PREFIX = '.tmp-';
const STALE_TEMP_MS = 60 * 60 * 1000;

const UploadFields = z.object({
  question: z.string().trim().min(1, ApiMsg.uploadFieldsMissing).max(Limits.maxQuestionText),
  survey_name: z.string().min(1, ApiMsg.uploadFieldsMissing).max(64).overwrite(lowerUuid),
  organization_name: z.string().min(1, ApiMsg.uploadFieldsMissing).max(64).overwrite(lowerUuid),
  clientId: ClientId.optional(),
});

/**
 * Photo answers. An upload arrives in a synced temp file in DATA_DIR/uploads, is checked and
 * cleaned there, then handed to the configured file store (store/) under a generated name (never
 * the client's) with its row. One photo is kept per (user, clientId, question): a retry gets the
 * first upload's reference back.
 */
export class UploadService {
  readonly dir: string;
  private readonly repo: FilesRepository;
  private readonly pending: PendingPhotosRepository;

  constructor(
    private readonly config: Config,
    db: Db,
    private readonly ingest: IngestService,
    private readonly stores: FileStores,
  ) {
    this.dir = join(config.dataDir, 'uploads');
    // Photos are personal data: the folder is the server user's only, whatever the umask.
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    this.repo = new FilesRepository(db.kysely);
    this.pending = new PendingPhotosRepository(db.kysely);
  }

  tempPath(): string {
    return join(this.dir, `${TEMP_PREFIX}${randomBytes(16).toString('hex')}`);
  }

  /** Temp files a crashed process left behind (a live upload's temp file is minutes old at most). */
  async sweepTemps(now = Date.now()): Promise<void> {
    for (const name of await readdir(this.dir)) {
      if (!name.startsWith(TEMP_PREFIX)) continue;
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > STALE_TEMP_MS) await unlink(path).catch(() => undefined);
    }
  }

  /**
   * Finished files with no row: a crash between the rename and the insert leaves one. Only files
   * older than an hour are candidates, so an upload between those two steps is never touched.
   */
  async sweepOrphans(now = Date.now()): Promise<number> {
    let removed = 0;
    const candidates: { id: string; path: string }[] = [];
    const flush = async () => {
      const known = await this.repo.existing(candidates.map((c) => c.id));
      for (const c of candidates) {
        if (known.has(c.id)) continue;
        await unlink(c.path).catch(() => undefined);
        removed++;
      }
      candidates.length = 0;
    };
    for (const name of await readdir(this.dir)) {
      const id = name.replace(/\..*$/s, '');
      if (name.startsWith(TEMP_PREFIX) || !IMAGE_ID.test(id)) continue;
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => null);
      if (!info || now - info.mtimeMs <= STALE_TEMP_MS) continue;
      candidates.push({ id, path });
      if (candidates.length === 500) await flush();
    }
    await flush();
    return removed;
  }

  /** Answers `{ [question]: reference }`; the temp file is always gone afterwards. */
  async store(userId: string, upload: ReceivedUpload): Promise<Record<string, string>> {
    try {
      return await this.accept(userId, upload);
    } finally {
      if (upload.file) await unlink(upload.file.tempPath).catch(() => undefined);
    }
  }

  /**
   * Before a resumable upload starts: the same access and question checks as a photo
   * sent whole, and a placeholder of this size waiting for it, so nothing is sent in vain.
   */
  async checkResumable(userId: string, fields: Record<string, string>, size: number | undefined): Promise<PhotoKey> {
    const { survey, question, clientId, type } = await this.target(userId, fields, undefined);
    if (size === undefined || size > uploadCap(type)) throw new HttpError(413, Msg.payloadTooLarge);
    const placeholder = await this.pending.find({ userId, surveyId: survey.id, clientId, question });
    // The phone may not know (the reply to its last byte was lost): 409, and it stops sending.
    if (!placeholder && (await this.pending.settled({ userId, surveyId: survey.id, clientId, question }))) throw new HttpError(409, PhotoMsg.alreadyAttached);
    if (!placeholder) throw badRequest(PhotoMsg.noPlaceholder);
    if (placeholder.size !== size) throw badRequest(PhotoMsg.mismatch);
    return { userId, surveyId: survey.id, clientId, question };
  }

  /** The survey, question and response clientId an upload names, checked against the caller's access. */
  private async target(userId: string, fields: Record<string, string>, fieldname: string | undefined) {
    const parsed = UploadFields.safeParse({ ...fields, question: fields.question ?? fieldname });
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? ApiMsg.uploadFieldsMissing);
    const { question, survey_name: surveyId, organization_name: organizationId } = parsed.data;
    const clientId = parsed.data.clientId ?? randomUUID();

    const { survey } = await this.ingest.access(userId, surveyId);
    if (organizationId !== survey.organizationId) throw badRequest(ApiMsg.organizationMismatch);
    // A photo belongs to the form its response was filled on: a response queued on version 1 keeps
    // version 1's question texts (and its placeholders are keyed by them) after version 2 renames
    // or removes the question. No stored response yet (a photo sent ahead of it): the latest form.
    const version = await this.pending.versionOf({ userId, surveyId: survey.id, clientId });
    const form = version === undefined ? survey : await this.ingest.surveys.form(survey, version);
    const q = form && photoQuestionOf(form, question);
    if (!q) throw badRequest(`"${question}" is not a question of this survey`);
    if (!UPLOAD_QUESTION_TYPES.includes(q.type)) throw badRequest(`"${question}" does not take a photo`);
    return { survey, question, clientId, type: q.type };
  }

  private async accept(userId: string, { fields, file }: ReceivedUpload): Promise<Record<string, string>> {
    if (!file) throw badRequest(ApiMsg.uploadFieldsMissing);
    const { survey, question, clientId, type } = await this.target(userId, fields, file.fieldname);

    if (file.truncated || file.size > uploadCap(type)) throw new HttpError(413, Msg.payloadTooLarge);
    // A response sent ahead of this photo named its size and SHA-256: other bytes are refused.
    const photoKey = { userId, surveyId: survey.id, clientId, question };
    const placeholder = await this.pending.find(photoKey);
    const mismatch = placeholder && photoMismatch(placeholder, file.size, file.sha256);
    if (mismatch) throw badRequest(mismatch);
    const kind = await this.kindOf(type, file);
    const stored = kind.image ? await this.cleaned(file, await readFile(file.tempPath), kind.image) : file;
    const id = randomBytes(32).toString('base64url');
    const target = { id, path: `uploads/${id}.${kind.ext}` };
    const store = this.stores.current;
    try {
      const { row } = await store.save(target, stored.tempPath, (db) => new FilesRepository(db).insertOnce({
        ...target,
        user_id: userId,
        client_id: clientId,
        question,
        survey_id: survey.id,
        mime: kind.mime,
        size: stored.size,
        sha256: stored.sha256,
        created_at: Date.now(),
        store: store.kind,
      }));
      const reference = this.referenceOf(row.id);
      // Also when the row was there already: a retry after a crash between the insert and this attach.
      if (placeholder) await this.pending.attach(photoKey, reference);
      return { [question]: reference };
    } finally {
      if (stored.tempPath !== file.tempPath) await unlink(stored.tempPath).catch(() => undefined);
    }
  }

  /**
   * What the stored bytes are (415 when the question's type does not take them): a photo of an
   * image question, or a picture given as a document, checked down to its pixel data and cleaned of
   * camera metadata; a recording, video or other document by its signature (media-sniff.ts).
   */
  private async kindOf(type: string, file: NonNullable<ReceivedUpload['file']>): Promise<{ mime: string; ext: string; image?: ImageInfo }> {
    const reader = await readerOf(file.tempPath);
    const isImage = IMAGE_QUESTION_TYPES.includes(type as QuestionType);
    const media = isImage ? null : await reader.read((readAt) => sniffMedia(type, readAt));
    if (!media && !isImage) throw new HttpError(415, ApiMsg.unsupportedUpload);
    if (media && !media.mime.startsWith('image/')) return media;
    const image = await reader.read(sniffImage);
    if (!image) throw new HttpError(415, ApiMsg.unsupportedImage);
    if (image.width * image.height > Limits.maxImagePixels) throw badRequest(ApiMsg.imageTooManyPixels);
    if (!hasImageData(await readFile(file.tempPath), image.mime)) throw new HttpError(415, ApiMsg.unsupportedImage);
    return { mime: image.mime, ext: image.ext, image };
  }

  /**
   * The upload without camera metadata (strip-metadata.ts), written and synced to a temp file of its
   * own; the upload itself when there was nothing to drop.
   */
  private async cleaned(file: NonNullable<ReceivedUpload['file']>, original: Buffer, image: ImageInfo): Promise<{ tempPath: string; size: number; sha256: string }> {
    const bytes = withoutMetadata(original, image.mime);
    if (!bytes) return file;
    const tempPath = this.tempPath();
    try {
      await writeFile(tempPath, bytes, { flag: 'wx', mode: 0o600, flush: true });
    } catch (err) {
      await unlink(tempPath).catch(() => undefined);
      throw err;
    }
    return { tempPath, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  referenceOf(id: string): string {
    return `${this.config.publicUrl}${routes.getImage.path.replace(':id', id)}`;
  }

  /** Whether a photo of that id is stored (whoever may see it). */
  async exists(id: string): Promise<boolean> {
    return IMAGE_ID.test(id) && (await this.repo.existing([id])).size > 0;
  }

  /** The stored photo of a id, streamed from its store, or undefined (also for ids that could never be ours); with `caller`, only a photo they may see. */
  async open(id: string, caller?: { userId: string; role: string; organizationId: string | null; surveys?: 'all' | readonly string[] }): Promise<{ stream: Readable; mime: string; size: number } | undefined> {
    if (!IMAGE_ID.test(id)) return undefined;
    const row = caller ? await this.repo.findFor(id, caller) : await this.repo.find(id);
    if (!row || !isStoreKind(row.store)) return undefined;
    const stream = await this.stores.get(row.store).open(row);
    return stream && { stream, mime: row.mime, size: row.size };
  }
}

const isStoreKind = (kind: string): kind is StoreKind => (STORE_KINDS as readonly string[]).includes(kind);

/** Reads a file's head through one open handle per sniff. */
async function readerOf(path: string) {
  return {
    async read<T>(sniff: (readAt: ReadAt) => Promise<T>): Promise<T> {
      const handle = await open(path, 'r');
      try {
        return await sniff(async (offset, length) => {
          const buffer = Buffer.alloc(length);
          const { bytesRead } = await handle.read(buffer, 0, length, offset);
          return buffer.subarray(0, bytesRead);
        });
      } finally {
        await handle.close();
      }
    },
  };
}
