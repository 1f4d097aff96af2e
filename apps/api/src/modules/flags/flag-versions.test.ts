import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QualityFlag, type ResponseDetailReply } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization, createSurvey, sampleQuestions } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg } from '../../../test/images.js';

/**
 * The checks of a response read the questions of the version it was filled on, never the
 * latest's: version 2 renames the photo, select and location questions (same ids, as the builder
 * keeps them), and a version 1 response is still seen by every check. On the engine the run is on
 * (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
const PHOTO = 'Shelf photo';
const TYPE = 'Outlet type';
const LOCATION = 'Location';
const RENAMED: Record<string, string> = { [PHOTO]: 'Shelf picture', [TYPE]: 'Kind of outlet', [LOCATION]: 'Where you stand' };

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await buildTestApp();
  // The tests work the queue themselves (drain).
  await t.app.services.flags.worker.stop();
  org = await createOrganization(t.app);
});
afterAll(() => t.close());

const drain = () => t.app.services.flags.worker.drain();
/** Responses are checked in id order (UUIDv7): two stored in one millisecond may be checked in either order. */
const nextMs = () => new Promise((resolve) => setTimeout(resolve, 2));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function setup() {
  const survey = await createSurvey(t.app, org.id);
  const member = await addMember(t.app, survey.id, org.id, { fullName: 'Ngozi Eze' });
  return { surveyId: survey.id, member };
}

async function publishRenames(surveyId: string): Promise<void> {
  const questions = sampleQuestions.map((q) => ({ ...q, text: RENAMED[q.text] ?? q.text }));
  const res = await call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${surveyId}`, payload: { title: 'Retail audit', questions } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().survey.version).toBe(2);
}

type Member = Awaited<ReturnType<typeof setup>>['member'];

async function upload(m: Member, surveyId: string, clientId: string, question: string, data: Buffer): Promise<string> {
  const boundary = `----sb${randomUUID()}`;
  const fields = { question, survey_name: surveyId, organization_name: org.id, clientId };
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${question}"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  const res = await call(t.app, m.token, { method: 'POST', url: '/api/v1/files/image', payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[question] as string;
}

async function respond(m: Member, surveyId: string, version: number, answers: Record<string, string>, extra: Record<string, unknown> = {}, clientId = uuidv7()): Promise<string> {
  await nextMs();
  // The outlet type is compulsory: answered under its text in the response's version unless given.
  const typed = { [version === 1 ? TYPE : RENAMED[TYPE]!]: 'Kiosk', ...answers };
  const res = await call(t.app, m.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: surveyId, organization_id: org.id, version, clientId, answers: typed, ...extra } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

/** A response with `bytes` as its photo, uploaded first as the phone does when online. */
async function respondWithPhoto(m: Member, surveyId: string, version: number, bytes: Buffer): Promise<string> {
  const clientId = uuidv7();
  const question = version === 1 ? PHOTO : RENAMED[PHOTO]!;
  return respond(m, surveyId, version, { 'Name of outlet': `Outlet ${randomUUID()}`, [question]: await upload(m, surveyId, clientId, question, bytes) }, {}, clientId);
}

const flagOf = async (id: string, flag: QualityFlag) => t.app.db.kysely.selectFrom('response_flags').selectAll().where('response_id', '=', id).where('flag', '=', flag).executeTakeFirst();
async function detail(id: string): Promise<ResponseDetailReply> {
  const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const photosOf = async (id: string) => t.app.db.kysely.selectFrom('response_photos').select('question').where('response_id', '=', id).execute();

describe('duplicate_photo across a rename of the photo question', () => {
  it('a version 1 response checked after version 2 was published: its photo is seen, and the version 2 response with the same photo is flagged', async () => {
    const { surveyId, member } = await setup();
    const bytes = tinyJpeg(48, 40);
    const first = await respondWithPhoto(member, surveyId, 1, bytes);
    await publishRenames(surveyId);
    const second = await respondWithPhoto(member, surveyId, 2, bytes);
    await drain();
    expect(await photosOf(first)).toEqual([{ question: PHOTO }]);
    expect(await photosOf(second)).toEqual([{ question: RENAMED[PHOTO] }]);
    expect((await flagOf(second, QualityFlag.duplicatePhoto))?.other_response_id).toBe(first);
    // The detail heads the version 1 photo by its new name, as it does its answer: the office finds the pair.
    for (const id of [first, second]) {
      const d = await detail(id);
      expect(d.meta.photos.map((p) => p.question)).toEqual([RENAMED[PHOTO]]);
      expect(d.answers[RENAMED[PHOTO]!]).toMatch(/\/files\/image\//);
    }
  });

  it('a version 1 response queued offline, its photo sent after version 2 was published: the version 1 response is flagged', async () => {
    const { surveyId, member } = await setup();
    const bytes = tinyJpeg(56, 40);
    await publishRenames(surveyId);
    const newer = await respondWithPhoto(member, surveyId, 2, bytes);
    await drain();
    const clientId = uuidv7();
    const older = await respond(member, surveyId, 1, { 'Name of outlet': 'Queued offline' }, { photos: [{ question: PHOTO, clientId: uuidv7(), size: bytes.length, sha256: sha(bytes) }], photoHashes: { [PHOTO]: '0f0f0f0f0f0f0f0f' } }, clientId);
    // Before its check, the phone's hash, under the question's new name too.
    expect((await detail(older)).meta.photos).toEqual([{ question: RENAMED[PHOTO], sha256: null, phash: '0f0f0f0f0f0f0f0f' }]);
    await drain();
    await upload(member, surveyId, clientId, PHOTO, bytes);
    await drain();
    expect(await photosOf(older)).toEqual([{ question: PHOTO }]);
    expect((await flagOf(older, QualityFlag.duplicatePhoto))?.other_response_id).toBe(newer);
  });
});

describe('duplicate_answers across a rename of a question', () => {
  it('version 1 and version 2 responses answered alike are duplicates; a different answer to the renamed question is not', async () => {
    const { surveyId, member } = await setup();
    const first = await respond(member, surveyId, 1, { 'Name of outlet': 'Mama Put  Kiosk', [TYPE]: 'Kiosk' });
    const otherType = await respond(member, surveyId, 1, { 'Name of outlet': 'Mama Put Kiosk', [TYPE]: 'Supermarket' });
    await publishRenames(surveyId);
    const second = await respond(member, surveyId, 2, { 'Name of outlet': 'mama put kiosk', [RENAMED[TYPE]!]: 'Kiosk' });
    await drain();
    expect(await flagOf(first, QualityFlag.duplicateAnswers)).toBeUndefined();
    expect(await flagOf(otherType, QualityFlag.duplicateAnswers)).toBeUndefined();
    expect((await flagOf(second, QualityFlag.duplicateAnswers))?.other_response_id).toBe(first);
  });

  it('a version 1 response arriving after a version 2 one answered alike is flagged', async () => {
    const { surveyId, member } = await setup();
    await publishRenames(surveyId);
    const newer = await respond(member, surveyId, 2, { 'Name of outlet': 'Iya Basira Stores', [RENAMED[TYPE]!]: 'Open market' });
    await drain();
    const older = await respond(member, surveyId, 1, { 'Name of outlet': 'iya basira stores', [TYPE]: 'Open market' });
    await drain();
    expect((await flagOf(older, QualityFlag.duplicateAnswers))?.other_response_id).toBe(newer);
  });
});

describe('the location checks across a rename of the location question', () => {
  it('a version 1 response with an 800 m fix, checked after version 2 renamed the location question, is flagged low_gps_accuracy', async () => {
    const { surveyId, member } = await setup();
    const id = await respond(member, surveyId, 1, { 'Name of outlet': `Outlet ${randomUUID()}`, [LOCATION]: '6.5, 3.3 (±800 m)' });
    await publishRenames(surveyId);
    await drain();
    expect((await flagOf(id, QualityFlag.lowGpsAccuracy))?.reason).toBe('Location accurate to 800 m, worse than 100 m');
  });
});
