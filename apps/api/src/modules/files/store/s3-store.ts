import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Kysely } from 'kysely';
import type { S3Config } from '../../../config.js';
import type { Database } from '../../../db/schema.js';
import type { FileStore, StoredFile } from './file-store.js';

/**
 * An S3-compatible bucket (AWS S3, MinIO, Ceph, Garage...). The object is written before the row: S3
 * answers a PUT only once the object is durable, so an acknowledged photo is kept. A crash between
 * the PUT and the row leaves an object nobody references (its id was never answered).
 * The AWS SDK is imported on first use: it costs about 20 MB of RSS, which an instance on disk or
 * PostgreSQL should not carry (docs/benchmarks.md, target 10).
 */
const sdk = () => import('@aws-sdk/client-s3');

export class S3Store implements FileStore {
  readonly kind = 's3' as const;
  private readonly bucket: string;
  private built: Promise<S3Client> | undefined;
  private made: S3Client | undefined;

  constructor(
    private readonly config: S3Config,
    private readonly db: Kysely<Database>,
  ) {
    this.bucket = config.bucket;
  }

  private client(): Promise<S3Client> {
    const config = this.config;
    this.built ??= sdk().then(({ S3Client }) => {
      this.made = new S3Client({
        region: config.region,
        // Checksums only where S3 requires them: the SDK's default (CRC32 trailers in aws-chunked
        // bodies) is not understood by several S3-compatible servers; PUTs are still signed (SigV4).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
        ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
      });
      return this.made;
    });
    return this.built;
  }

  async save<T extends { inserted: boolean }>(file: StoredFile, tempPath: string, insertRow: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    const { size } = await stat(tempPath);
    const { PutObjectCommand } = await sdk();
    await (await this.client()).send(new PutObjectCommand({ Bucket: this.bucket, Key: file.path, Body: createReadStream(tempPath), ContentLength: size }));
    try {
      const result = await insertRow(this.db);
      if (!result.inserted) await this.remove(file);
      return result;
    } catch (err) {
      await this.remove(file).catch(() => undefined);
      throw err;
    }
  }

  async open(file: StoredFile): Promise<Readable | undefined> {
    const { GetObjectCommand, NoSuchKey } = await sdk();
    try {
      const res = await (await this.client()).send(new GetObjectCommand({ Bucket: this.bucket, Key: file.path }));
      return res.Body as Readable | undefined;
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }

  /** Writes a file that is not a photo (a basemap) under `key`, streamed from its temp file. */
  async putObject(key: string, tempPath: string): Promise<void> {
    const { size } = await stat(tempPath);
    const { PutObjectCommand } = await sdk();
    await (await this.client()).send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: createReadStream(tempPath), ContentLength: size }));
  }

  /** Bytes `start` to `end` (inclusive) of the object at `key`; undefined when it is missing. */
  async openRange(key: string, start: number, end: number): Promise<Readable | undefined> {
    const { GetObjectCommand, NoSuchKey } = await sdk();
    try {
      const res = await (await this.client()).send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${end}` }));
      return res.Body as Readable | undefined;
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }

  async write(file: StoredFile, bytes: Buffer): Promise<void> {
    const { PutObjectCommand } = await sdk();
    await (await this.client()).send(new PutObjectCommand({ Bucket: this.bucket, Key: file.path, Body: bytes, ContentLength: bytes.length }));
  }

  async remove(file: StoredFile): Promise<void> {
    const { DeleteObjectCommand } = await sdk();
    await (await this.client()).send(new DeleteObjectCommand({ Bucket: this.bucket, Key: file.path }));
  }

  close(): void {
    this.made?.destroy();
  }
}
