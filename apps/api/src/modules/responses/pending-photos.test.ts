import { createHash, randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhotoMsg, PENDING_PHOTO_ANSWER, QuestionType } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization, createSurvey, sampleQuestions } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg } from '../../../test/images.js';

/** A response is stored before its photos, and each photo attaches when it arrives. */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string };
let member: Awaited<ReturnType<typeof addMember>>;
const PHOTO = 'Shelf photo';
const LIVE = 'Storefront (live)';
const TEXT = { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' };

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app);
  survey = await createSurvey(t.app, org.id, { questions: [...sampleQuestions, { text: LIVE, type: QuestionType.liveImages, compulsory: false, options: [] }] });
  member = await addMember(t.app, survey.id, org.id, { rate: 150 });
});
afterAll(() => t.close());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const placeholder = (question: string, bytes: Buffer) => ({ question, clientId: uuidv7(), size: bytes.length, sha256: sha(bytes) });

function respond(body: Record<string, unknown>, token = member.token) {
  return call(t.app, token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: survey.id, organization_id: org.id, answers: { ...TEXT }, ...body } });
}

function upload(clientId: string, question: string, data: Buffer, token = member.token) {
  const boundary = `----sb${randomUUID()}`;
  const fields = { question, survey_name: survey.id, organization_name: org.id, clientId };
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${question}"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return call(t.app, token, { method: 'POST', url: '/api/v1/files/image', payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

const stored = (clientId: string) =>
  t.app.db.kysely.selectFrom('responses').select(['id', 'answers', 'pending_photos']).where('client_id', '=', clientId).executeTakeFirstOrThrow();
const tableRow = async (id: string) => {
  const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${survey.id}` });
  return (res.json().responses as { _id: string; answers: Record<string, string> }[]).find((r) => r._id === id);
};

describe('responses first, photos after', () => {
  it('stores the response at once with its photo pending, counts it, and attaches the photo when it arrives', async () => {
    const bytes = tinyJpeg(4, 4);
    const clientId = uuidv7();
    const res = await respond({ clientId, photos: [placeholder(PHOTO, bytes)] });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json()._id as string;

    expect((await tableRow(id))?.answers[PHOTO]).toBe(PENDING_PHOTO_ANSWER);
    const top = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/top-performer/${survey.id}` });
    expect(top.json().totalResponses).toBeGreaterThanOrEqual(1);
    const earnings = await call(t.app, member.token, { method: 'GET', url: '/api/v1/me/earnings' });
    expect(JSON.stringify(earnings.json())).toContain('150');

    const photo = await upload(clientId, PHOTO, bytes);
    expect(photo.statusCode, photo.body).toBe(200);
    const reference = photo.json()[PHOTO] as string;
    const row = await stored(clientId);
    expect(JSON.parse(row.answers)[PHOTO]).toBe(reference);
    expect(row.pending_photos).toBeNull();
    expect((await tableRow(id))?.answers[PHOTO]).toBe(reference);

    // Idempotent: the same photo again answers the same reference and changes nothing.
    const again = await upload(clientId, PHOTO, bytes);
    expect(again.json()[PHOTO]).toBe(reference);
    expect(JSON.parse((await stored(clientId)).answers)[PHOTO]).toBe(reference);
  });

  it('refuses a photo whose bytes are not the placeholder\'s, and keeps the placeholder', async () => {
    const clientId = uuidv7();
    expect((await respond({ clientId, photos: [placeholder(PHOTO, tinyJpeg(4, 4))] })).statusCode).toBe(200);
    const wrong = await upload(clientId, PHOTO, tinyJpeg(6, 6));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe(PhotoMsg.mismatch);
    expect(JSON.parse((await stored(clientId)).answers)[PHOTO]).toBe(PENDING_PHOTO_ANSWER);
  });

  it('attaches two photos of one response arriving together, each once', async () => {
    const a = tinyJpeg(4, 4);
    const b = tinyJpeg(8, 8);
    const clientId = uuidv7();
    expect((await respond({ clientId, photos: [placeholder(PHOTO, a), placeholder(LIVE, b)] })).statusCode).toBe(200);
    const [ra, rb] = await Promise.all([upload(clientId, PHOTO, a), upload(clientId, LIVE, b)]);
    expect([ra.statusCode, rb.statusCode]).toEqual([200, 200]);
    const row = await stored(clientId);
    const answers = JSON.parse(row.answers);
    expect(answers[PHOTO]).toBe(ra.json()[PHOTO]);
    expect(answers[LIVE]).toBe(rb.json()[LIVE]);
    expect(row.pending_photos).toBeNull();
  });

  it('takes placeholders in a batch; a replay is 200, other placeholders under the same clientId 409', async () => {
    const bytes = tinyJpeg(4, 4);
    const item = { survey_id: survey.id, organization_id: org.id, answers: { ...TEXT }, clientId: uuidv7(), photos: [placeholder(PHOTO, bytes)] };
    const sync = (items: unknown[]) => call(t.app, member.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: items } });
    const first = await sync([item]);
    expect(first.json().results[0].status).toBe(200);
    expect((await sync([item])).json().results[0].status).toBe(200);
    const other = { ...item, answers: { ...TEXT }, photos: [placeholder(PHOTO, tinyJpeg(6, 6))] };
    expect((await sync([other])).json().results[0].status).toBe(409);
  });

  it('refuses a placeholder for a question that takes no photo, twice for one question, or on a fix', async () => {
    const bytes = tinyJpeg();
    const notPhoto = await respond({ clientId: uuidv7(), photos: [placeholder('Name of outlet', bytes)] });
    expect(notPhoto.statusCode).toBe(400);
    expect(notPhoto.json().msg).toBe('"Name of outlet" does not take a photo');
    expect((await respond({ clientId: uuidv7(), photos: [placeholder(PHOTO, bytes), placeholder(PHOTO, bytes)] })).statusCode).toBe(400);
    expect((await respond({ clientId: uuidv7(), photos: [{ ...placeholder(PHOTO, bytes), sha256: 'xyz' }] })).statusCode).toBe(400);
    const fix = await respond({ clientId: uuidv7(), revisionOf: randomUUID(), photos: [placeholder(PHOTO, bytes)] });
    expect(fix.statusCode).toBe(400);
    expect(fix.json().msg).toBe(PhotoMsg.withRevision);
  });

  it('never attaches to another field user\'s response', async () => {
    const other = await addMember(t.app, survey.id, org.id);
    const bytes = tinyJpeg(4, 4);
    const clientId = uuidv7();
    expect((await respond({ clientId, photos: [placeholder(PHOTO, bytes)] })).statusCode).toBe(200);
    expect((await upload(clientId, PHOTO, bytes, other.token)).statusCode).toBe(200);
    expect(JSON.parse((await stored(clientId)).answers)[PHOTO]).toBe(PENDING_PHOTO_ANSWER);
  });

  it('an older phone (photo first, then the response with its reference) works as before', async () => {
    const clientId = uuidv7();
    const photo = await upload(clientId, PHOTO, tinyJpeg(4, 4));
    const reference = photo.json()[PHOTO] as string;
    const res = await respond({ clientId, answers: { ...TEXT, [PHOTO]: reference } });
    expect(res.statusCode).toBe(200);
    const row = await stored(clientId);
    expect(JSON.parse(row.answers)[PHOTO]).toBe(reference);
    expect(row.pending_photos).toBeNull();
  });

  it('the export writes "pending upload" for a photo still to come', async () => {
    const clientId = uuidv7();
    expect((await respond({ clientId, answers: { ...TEXT, 'Name of outlet': 'Pending Kiosk' }, photos: [placeholder(PHOTO, tinyJpeg(4, 4))] })).statusCode).toBe(200);
    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${survey.id}?searchQuery=Pending Kiosk` });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Responses')!;
    const header = (sheet.getRow(1).values as unknown[]).indexOf(PHOTO);
    const values = [2, 3].map((n) => sheet.getRow(n).getCell(header).value);
    expect(values).toContain(PENDING_PHOTO_ANSWER);
  });
});
