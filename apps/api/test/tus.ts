import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { call, type TestApp } from './helpers.js';

/** The field-user side of tus uploads, as the phone's sync-tus.ts speaks it, for the API tests. */
export const PHOTO = 'Shelf photo';
export const TUS = '/api/v1/files/tus';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The field-user side of a tus upload against one app (inject), with the response it belongs to. */
export function tusClient(app: TestApp['app'], target: { surveyId: string; organizationId: string; token: string | null }) {
  const create = (clientId: string, size: number, token: string | null = target.token, question = PHOTO) => {
    const metadata = [`question ${b64(question)}`, `survey_id ${b64(target.surveyId)}`, `organization_id ${b64(target.organizationId)}`, `clientId ${b64(clientId)}`].join(',');
    return call(app, token, { method: 'POST', url: TUS, headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'upload-metadata': metadata } });
  };
  return {
    async respondWith(bytes: Buffer): Promise<string> {
      const clientId = uuidv7();
      const res = await call(app, target.token, {
        method: 'POST', url: '/api/v1/survey/respond',
        payload: { survey_id: target.surveyId, organization_id: target.organizationId, clientId, answers: { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' }, photos: [{ question: PHOTO, clientId: uuidv7(), size: bytes.length, sha256: sha(bytes) }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return clientId;
    },
    create,
    patch: (location: string, offset: number, data: Buffer, token: string | null = target.token) =>
      call(app, token, { method: 'PATCH', url: location, payload: data, headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' } }),
    head: (location: string, token: string | null = target.token) => call(app, token, { method: 'HEAD', url: location, headers: { 'tus-resumable': '1.0.0' } }),
    cancel: (location: string, token: string | null = target.token) => call(app, token, { method: 'DELETE', url: location, headers: { 'tus-resumable': '1.0.0' } }),
    stored: (clientId: string) => app.db.kysely.selectFrom('responses').select(['answers', 'pending_photos']).where('client_id', '=', clientId).executeTakeFirstOrThrow(),
  };
}

/**
 * A PATCH over a real socket that sends `sent` bytes of `data` (declaring all of it) and then
 * either hangs up or, with `stall`, keeps the connection open and silent: call the answer's end().
 */
export async function cutPatch(app: TestApp['app'], token: string | null, location: string, offset: number, data: Buffer, sent: number, opts: { stall?: boolean } = {}): Promise<{ end(): void; status: Promise<number> }> {
  const { port } = app.server.address() as AddressInfo;
  const req = http.request({
    host: '127.0.0.1', port, method: 'PATCH', path: location, agent: false,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': String(data.length) },
  });
  const status = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.on('close', () => resolve(0));
  });
  // Handed to the kernel, and a moment for the server to read it, before the link goes quiet or away.
  await new Promise<void>((resolve) => req.write(data.subarray(0, sent), () => resolve()));
  await new Promise((r) => setTimeout(r, 200));
  if (!opts.stall) req.destroy();
  return { end: () => req.destroy(), status };
}

/** Bytes the database holds of an upload, in order. */
export async function storedChunks(app: TestApp['app'], id: string): Promise<Buffer> {
  const rows = await app.db.kysely.selectFrom('resumable_upload_chunks').select(['chunk_offset', 'bytes']).where('upload_id', '=', id).orderBy('chunk_offset').execute();
  return Buffer.concat(rows.map((r) => Buffer.from(r.bytes)));
}

