/* eslint-disable @typescript-eslint/only-throw-error -- tus answers the `{ status_code, body }` objects of its ERRORS, which it throws itself too */
import { createHash } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/server';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ResumableRepository, type ResumableUploadRow } from './resumable-repository.js';

/** Bytes committed per chunk row: a 10 MB photo is 40 rows, and a request holds at most this much. */
const CHUNK = 256 * 1024;
/** On a slow link a chunk takes long to fill (10 s on 2G): what arrived is committed at least this often. */
const COMMIT_EVERY_MS = 1000;

/** A finished upload copied out of the store: a synced temp file, with what UploadService.store checks. */
export interface FinishedFile {
  path: string;
  size: number;
  sha256: string;
}

/**
 * A tus DataStore over the application database: every instance on one PostgreSQL sees
 * every partial upload, so a photo started through one instance resumes through another. The
 * bytes of a PATCH are streamed into chunk rows, each committed with the upload's new offset
 * before tus reports that offset; an offset that moved under us (another writer) refuses the
 * write instead of interleaving bytes. The same SQL runs on SQLite (FILE_STORE=postgres or s3 there).
 */
export class DatabaseUploadStore extends DataStore {
  private readonly repo: ResumableRepository;

  constructor(db: Kysely<Database>, private readonly expiryMs: number) {
    super();
    this.repo = new ResumableRepository(db);
    this.extensions = ['creation', 'creation-with-upload', 'creation-defer-length', 'termination', 'expiration'];
  }

  override async create(upload: Upload): Promise<Upload> {
    const createdAt = upload.creation_date ? Date.parse(upload.creation_date) : Date.now();
    await this.repo.create({ id: upload.id, metadata: JSON.stringify(upload.metadata ?? {}), size: upload.size ?? null, created_at: createdAt });
    upload.storage = { type: 'database', path: upload.id };
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.repo.find(id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return uploadOf(row);
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    let at = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let lastCommit = Date.now();
    const commit = async () => {
      if (pendingBytes === 0) return;
      const bytes = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      if (!(await this.repo.append(id, at, bytes))) throw ERRORS.INVALID_OFFSET;
      at += bytes.length;
      lastCommit = Date.now();
    };
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= CHUNK || Date.now() - lastCommit >= COMMIT_EVERY_MS) await commit();
      }
    } catch (err) {
      // The body broke off (or outgrew its length): what did arrive is kept, as a file would keep it.
      if (err !== ERRORS.INVALID_OFFSET) await commit().catch(() => undefined);
      throw err;
    }
    await commit();
    return at;
  }

  override async remove(id: string): Promise<void> {
    if (!(await this.repo.remove(id))) throw ERRORS.FILE_NOT_FOUND;
  }

  override async declareUploadLength(id: string, size: number): Promise<void> {
    if (!(await this.repo.setSize(id, size))) throw ERRORS.FILE_NOT_FOUND;
  }

  override async deleteExpired(): Promise<number> {
    if (this.expiryMs <= 0) return 0;
    return this.repo.removeCreatedBefore(Date.now() - this.expiryMs);
  }

  override getExpiration(): number {
    return this.expiryMs;
  }

  /**
   * Copies a finished upload to `path`, one chunk row in memory at a time, synced before it
   * resolves; undefined (and no file) when the rows do not hold exactly `size` contiguous bytes
   * (the upload was removed under us, or never finished).
   */
  async copyTo(id: string, size: number, path: string): Promise<FinishedFile | undefined> {
    const hash = createHash('sha256');
    let at = 0;
    try {
      const file = await open(path, 'wx', 0o600);
      try {
        for (let row = await this.repo.chunkFrom(id, 0); row && Number(row.chunk_offset) === at; row = await this.repo.chunkFrom(id, at)) {
          const bytes = Buffer.from(row.bytes);
          await file.write(bytes);
          hash.update(bytes);
          at += bytes.length;
        }
        await file.sync();
      } finally {
        await file.close();
      }
    } catch (err) {
      await unlink(path).catch(() => undefined);
      throw err;
    }
    if (at !== size) {
      await unlink(path).catch(() => undefined);
      return undefined;
    }
    return { path, size, sha256: hash.digest('hex') };
  }
}

function uploadOf(row: ResumableUploadRow): Upload {
  return new Upload({
    id: row.id,
    size: row.size ?? undefined,
    offset: Number(row.upload_offset),
    metadata: JSON.parse(row.metadata) as Record<string, string | null>,
    creation_date: new Date(Number(row.created_at)).toISOString(),
    storage: { type: 'database', path: row.id },
  });
}
