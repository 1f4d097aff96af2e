import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, createSurvey } from '../../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../../test/helpers.js';
import { startS3 } from '../../../../test/s3-server.js';
import { tinyJpeg, tinyPng } from '../../../../test/images.js';
import { FileStores } from './index.js';
import { moveFiles } from './move-files.js';

let s3: Awaited<ReturnType<typeof startS3>>;
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string };
let member: Awaited<ReturnType<typeof addMember>>;
const sent = new Map<string, Buffer>();

beforeAll(async () => {
  s3 = await startS3();
  t = await buildTestApp({ fileStore: 'disk', s3: s3.config });
  org = await createOrganization(t.app);
  survey = await createSurvey(t.app, org.id);
  member = await addMember(t.app, survey.id, org.id);
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

async function upload(data: Buffer, type = 'image/jpeg'): Promise<string> {
  const boundary = `----sb${randomUUID()}`;
  const fields = { question: 'Shelf photo', survey_name: survey.id, organization_name: org.id, clientId: randomUUID() };
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="Shelf photo"; filename="p"\r\nContent-Type: ${type}\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  const res = await call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  expect(res.statusCode).toBe(200);
  const id = (res.json()['Shelf photo'] as string).split('/').pop()!;
  sent.set(id, data);
  return id;
}

const storeOf = async (id: string) => (await t.app.db.kysely.selectFrom('files').select('store').where('id', '=', id).executeTakeFirstOrThrow()).store;
async function expectReadable() {
  for (const [id, bytes] of sent) {
    const got = await call(t.app, member.token, { method: 'GET', url: `/api/v1/files/image/${id}` });
    expect(got.statusCode, id).toBe(200);
    expect(got.rawPayload.equals(bytes), id).toBe(true);
  }
}

describe('moving photos between stores (files:migrate)', () => {
  it('moves disk photos into PostgreSQL, resumes after a stop, and a second run has nothing to do', async () => {
    const ids = [await upload(tinyJpeg(8, 8)), await upload(tinyPng(9, 9), 'image/png'), await upload(tinyJpeg(10, 10))];
    const stores = new FileStores(t.config, t.app.db);
    // Stopped after the first photo (a crash, Ctrl-C): everything stays readable.
    await expect(moveFiles(t.app.db, stores, 'postgres', () => { throw new Error('stopped'); })).rejects.toThrow('stopped');
    await expectReadable();
    const report = await moveFiles(t.app.db, stores, 'postgres');
    expect(report).toEqual({ moved: 2, failed: [] });
    for (const id of ids) expect(await storeOf(id)).toBe('postgres');
    for (const id of ids) expect(existsSync(join(t.config.dataDir, 'uploads', `${id}.jpg`)) || existsSync(join(t.config.dataDir, 'uploads', `${id}.png`))).toBe(false);
    await expectReadable();
    expect(await moveFiles(t.app.db, stores, 'postgres')).toEqual({ moved: 0, failed: [] });
  });

  it('leaves a photo whose bytes do not match its SHA-256 where it is, and says so', async () => {
    const id = await upload(tinyJpeg(11, 11));
    writeFileSync(join(t.config.dataDir, 'uploads', `${id}.jpg`), tinyJpeg(12, 12));
    const report = await moveFiles(t.app.db, new FileStores(t.config, t.app.db), 'postgres');
    expect(report.moved).toBe(0);
    expect(report.failed).toEqual([{ id, reason: 'bytes in disk do not match the SHA-256 of the row' }]);
    expect(await storeOf(id)).toBe('disk');
    sent.set(id, tinyJpeg(12, 12));
  });

  it('the command moves everything on to S3, checked by SHA-256 (exit 1 while a photo cannot move)', async () => {
    const run = promisify(execFile);
    const env = {
      ...process.env,
      DATA_DIR: t.config.dataDir,
      DATABASE_URL: t.config.databaseUrl ? `${t.config.databaseUrl}?options=-c%20search_path%3D${t.app.db.pgSchema}` : '',
      JWT_SECRET: 'x'.repeat(48),
      S3_ENDPOINT: s3.config.endpoint, S3_BUCKET: s3.config.bucket, S3_REGION: s3.config.region, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    // From source, as `npm test` runs before any build: the contracts' `source` export condition.
    const cli = join(import.meta.dirname, '../../../cli/files-migrate.ts');
    const failed = await run(process.execPath, ['--conditions=source', '--import', 'tsx', cli, '--to', 's3'], { env }).catch((err: { code: number; stdout: string }) => err);
    expect('code' in failed ? failed.code : 0).toBe(1);
    expect(failed.stdout).toMatch(/3 photos moved to s3; 1 left where they were/);
    await expectReadable();
  }, 60_000);
});
