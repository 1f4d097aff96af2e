import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import type { S3Config } from '../src/config.js';

/**
 * A real S3-compatible server on loopback (s3rver: the S3 REST API over a folder, SigV4 checked
 * with its fixed key pair), with one bucket. See docs/decisions.md for why this one.
 */
export async function startS3(bucket = 'photos'): Promise<{ config: S3Config; close(): Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 'sb-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    config: { endpoint: `http://127.0.0.1:${port}`, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
