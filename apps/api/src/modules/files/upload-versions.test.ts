import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_PHOTO_ANSWER, QuestionType } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization, createSurvey, sampleQuestions } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg } from '../../../test/images.js';
import { PHOTO, tusClient } from '../../../test/tus.js';

/**
 * A response queued on version 1 with its photo still on the phone; version 2 renames the photo
 * question. The photo, named by its version 1 text, must still upload and attach (multipart and
 * tus), on the engine the run is on (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
const RENAMED = 'Shelf picture';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let member: Awaited<ReturnType<typeof addMember>>;
let surveyId: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app);
  surveyId = (await createSurvey(t.app, org.id)).id;
  member = await addMember(t.app, surveyId, org.id);
});
afterAll(() => t.close());

/** A version 1 response with `bytes` as its pending photo; answers its clientId. */
async function respondOnV1(bytes: Buffer): Promise<string> {
  const clientId = uuidv7();
  const res = await call(t.app, member.token, {
    method: 'POST', url: '/api/v1/survey/respond',
    payload: { survey_id: surveyId, organization_id: org.id, version: 1, clientId, answers: { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' }, photos: [{ question: PHOTO, clientId: uuidv7(), size: bytes.length, sha256: sha(bytes) }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return clientId;
}

/** Version 2: the photo question renamed (same id, as the builder keeps it), and a new question. */
async function publishRename(): Promise<void> {
  const questions = [...sampleQuestions.map((q) => (q.text === PHOTO ? { ...q, text: RENAMED } : q)), { text: 'Owner phone', type: QuestionType.text, compulsory: false, options: [] }];
  const res = await call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${surveyId}`, payload: { title: 'Retail audit', questions } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().survey.version).toBeGreaterThan(1);
}

const stored = (clientId: string) => t.app.db.kysely.selectFrom('responses').select(['answers', 'pending_photos', 'version']).where('client_id', '=', clientId).executeTakeFirstOrThrow();

function multipart(fields: Record<string, string>, data: Buffer) {
  const boundary = `----sb${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${PHOTO}"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('a photo of a response filled on an older version, after a newer version renamed its question', () => {
  const whole = tinyJpeg(20, 20);
  const resumable = tinyJpeg(24, 24);
  let viaMultipart: string;
  let viaTus: string;
  beforeAll(async () => {
    viaMultipart = await respondOnV1(whole);
    viaTus = await respondOnV1(resumable);
    await publishRename();
  });

  it('uploads whole (multipart) and attaches', async () => {
    const res = await call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', ...multipart({ question: PHOTO, survey_name: surveyId, organization_name: org.id, clientId: viaMultipart }, whole) });
    expect(res.statusCode, res.body).toBe(200);
    const row = await stored(viaMultipart);
    expect(Number(row.version)).toBe(1);
    expect(row.pending_photos).toBeNull();
    expect(JSON.parse(row.answers)[PHOTO]).toBe(res.json()[PHOTO]);
  });

  it('uploads resumable (tus) and attaches', async () => {
    const c = tusClient(t.app, { surveyId, organizationId: org.id, token: member.token });
    const created = await c.create(viaTus, resumable.length);
    expect(created.statusCode, created.body).toBe(201);
    const done = await c.patch(created.headers.location as string, 0, resumable);
    expect(done.statusCode, done.body).toBe(204);
    const row = await stored(viaTus);
    expect(row.pending_photos).toBeNull();
    expect(JSON.parse(row.answers)[PHOTO]).toBe(done.headers['photo-reference']);
    expect(JSON.parse(row.answers)[PHOTO]).not.toBe(PENDING_PHOTO_ANSWER);
  });

  it('a photo sent ahead of its response still goes by the latest version', async () => {
    const res = await call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', ...multipart({ question: PHOTO, survey_name: surveyId, organization_name: org.id, clientId: uuidv7() }, tinyJpeg(8, 8)) });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(`"${PHOTO}" is not a question of this survey`);
  });
});
