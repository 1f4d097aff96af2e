import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, createSurvey } from '../../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../../test/helpers.js';
import { startS3 } from '../../../../test/s3-server.js';
import { withoutMetadata } from '../strip-metadata.js';
import { exifBody, tinyJpeg } from '../../../../test/images.js';
import type { StoreKind } from './index.js';

let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3.close());

function multipart(fields: Record<string, string>, data: Buffer) {
  const boundary = `----sb${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="Shelf photo"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A JPEG with camera metadata (GPS in EXIF) and enough scan data to span several 256 KB slices. */
function cameraJpeg(extraBytes = 0): Buffer {
  const plain = tinyJpeg(16, 16);
  const app0End = 2 + 2 + plain.readUInt16BE(4);
  const exif = exifBody(6);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, (exif.length + 2) >> 8, (exif.length + 2) & 0xff]), exif]);
  // ICC profile segments are kept by the metadata stripping: they make the photo span several slices.
  const pads: Buffer[] = [];
  for (let left = extraBytes; left > 0; left -= 65_000) {
    const body = Buffer.concat([Buffer.from('ICC_PROFILE\0\x01\x01', 'latin1'), Buffer.alloc(Math.min(left, 65_000), 7)]);
    pads.push(Buffer.from([0xff, 0xe2, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body);
  }
  return Buffer.concat([plain.subarray(0, app0End), app1, ...pads, plain.subarray(app0End)]);
}

for (const kind of ['disk', 'postgres', 's3'] as StoreKind[]) {
  describe(`the ${kind} file store`, () => {
    let t: TestApp;
    let org: Awaited<ReturnType<typeof createOrganization>>;
    let survey: { id: string };
    let member: Awaited<ReturnType<typeof addMember>>;
    beforeAll(async () => {
      t = await buildTestApp({ fileStore: kind, s3: s3.config });
      org = await createOrganization(t.app);
      survey = await createSurvey(t.app, org.id);
      member = await addMember(t.app, survey.id, org.id);
    });
    afterAll(() => t.close());

    const upload = (clientId: string, data: Buffer) => call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', ...multipart({ question: 'Shelf photo', survey_name: survey.id, organization_name: org.id, clientId }, data) });

    it('keeps a photo without its camera metadata, serves it streamed with the caching rule, once per clientId and question', async () => {
      const sent = cameraJpeg(600_000);
      const clientId = randomUUID();
      const first = await upload(clientId, sent);
      expect(first.statusCode).toBe(200);
      const reference = first.json()['Shelf photo'] as string;
      const id = reference.split('/').pop()!;
      const row = await t.app.db.kysely.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.store).toBe(kind);
      expect(row.size).toBeLessThan(sent.length);

      const got = await call(t.app, member.token, { method: 'GET', url: new URL(reference).pathname });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('image/jpeg');
      expect(got.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      expect(Number(got.headers['content-length'])).toBe(row.size);
      expect(got.rawPayload.length).toBe(row.size);
      expect(createHash('sha256').update(got.rawPayload).digest('hex')).toBe(row.sha256);
      expect(got.rawPayload.equals(withoutMetadata(sent, 'image/jpeg')!)).toBe(true);

      const retry = await upload(clientId, tinyJpeg());
      expect(retry.json()).toEqual(first.json());
      const rows = await t.app.db.kysely.selectFrom('files').select('id').where('client_id', '=', clientId).execute();
      expect(rows).toHaveLength(1);
      const blobs = await t.app.db.kysely.selectFrom('file_blobs').select('file_id').execute();
      expect(blobs.length).toBe(kind === 'postgres' ? 1 : 0);
      expect(existsSync(join(t.config.dataDir, row.path))).toBe(kind === 'disk');
    });

    it('answers 404 when the bytes went missing under the row', async () => {
      const res = await upload(randomUUID(), tinyJpeg());
      const id = (res.json()['Shelf photo'] as string).split('/').pop()!;
      const row = await t.app.db.kysely.selectFrom('files').select(['id', 'path']).where('id', '=', id).executeTakeFirstOrThrow();
      const { FileStores } = await import('./index.js');
      await new FileStores(t.config, t.app.db).get(kind).remove(row);
      const got = await call(t.app, member.token, { method: 'GET', url: `/api/v1/files/image/${id}` });
      expect(got.statusCode).toBe(404);
    });
  });
}
