import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_PHOTO_ANSWER, QualityFlag, QuestionType, RuleMsg } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg } from '../../../test/images.js';

// Repeats end to end on the server: a photo of a roster member is keyed as the phone keys it
// (`Member#2/Photo`), stored in that instance, checked like any photo; typed answers inside
// instances are stored in their normal form; a large select inside a repeat is one of its dataset.
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
let member: Awaited<ReturnType<typeof addMember>>;

const WARDS = Array.from({ length: 60 }, (_, i) => `Ward ${i + 1}`);
const QUESTIONS = [
  { id: 'village', text: 'Village', type: QuestionType.text },
  { id: 'members', text: 'Member', type: QuestionType.repeat },
  { id: 'name', text: 'Name', type: QuestionType.text, parent: 'members' },
  { id: 'phone', text: 'Phone', type: QuestionType.phone, parent: 'members', compulsory: false },
  { id: 'ward', text: 'Ward', type: QuestionType.largeSelect, parent: 'members', compulsory: false, options: WARDS },
  { id: 'photo', text: 'Photo', type: QuestionType.image, parent: 'members', compulsory: false },
];

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.services.flags.worker.stop();
  org = await createOrganization(t.app, 'Roster Photographers');
  const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Roster with photos', questions: QUESTIONS } });
  expect(res.statusCode, res.body).toBe(200);
  surveyId = res.json().survey._id;
  member = await addMember(t.app, surveyId, org.id, { fullName: 'Ngozi Eze' });
});
afterAll(() => t.close());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const placeholder = (question: string, bytes: Buffer) => ({ question, clientId: uuidv7(), size: bytes.length, sha256: sha(bytes) });
const roster = () => ({ Village: 'Kura', Member: [{ Name: 'Amina' }, { Name: 'Bala', Phone: '0803 123 4567', Ward: 'Ward 7' }] });
const body = (answers: Record<string, unknown>, extra: object = {}) => ({ survey_id: surveyId, organization_id: org.id, answers, clientId: uuidv7(), ...extra });
const respond = (payload: object) => call(t.app, member.token, { method: 'POST', url: '/api/v1/survey/respond', payload });
const sync = (items: object[]) => call(t.app, member.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: items } });
const stored = async (clientId: string) => {
  const row = await t.app.db.kysely.selectFrom('responses').select(['id', 'answers', 'pending_photos']).where('client_id', '=', clientId).executeTakeFirstOrThrow();
  return { ...row, answers: JSON.parse(row.answers) as { Member: Record<string, string>[] } };
};

function upload(clientId: string, question: string, data: Buffer) {
  const boundary = `----sb${randomUUID()}`;
  const fields = { question, survey_name: surveyId, organization_name: org.id, clientId };
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

describe('photos inside repeat instances', () => {
  it('takes a placeholder keyed Member#2/Photo, stores it in the second member, and attaches the photo there', async () => {
    const bytes = tinyJpeg(8, 8);
    const clientId = uuidv7();
    const res = await sync([body(roster(), { clientId, photos: [placeholder('Member#2/Photo', bytes)] })]);
    expect(res.json().results[0]).toMatchObject({ status: 200 });
    const before = await stored(clientId);
    expect(before.answers.Member[1]!.Photo).toBe(PENDING_PHOTO_ANSWER);
    expect(before.answers.Member[0]).toEqual({ Name: 'Amina' });
    expect(Object.keys(before.answers)).not.toContain('Member#2/Photo');

    const photo = await upload(clientId, 'Member#2/Photo', bytes);
    expect(photo.statusCode, photo.body).toBe(200);
    const reference = photo.json()['Member#2/Photo'] as string;
    expect(reference).toMatch(/\/files\/image\//);
    const after = await stored(clientId);
    expect(after.answers.Member[1]!.Photo).toBe(reference);
    expect(after.pending_photos).toBeNull();
    // Sent again (the reply was lost): the same reference, nothing changed.
    expect((await upload(clientId, 'Member#2/Photo', bytes)).json()['Member#2/Photo']).toBe(reference);
    expect((await stored(clientId)).answers.Member[1]!.Photo).toBe(reference);

    // The detail reply carries the instance with its photo, which the office may open.
    const detail = await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${after.id}` });
    expect(detail.json().answers.Member[1].Photo).toBe(reference);
  });

  it('checks the photo of an instance like any photo: the same photo in another response is flagged, under its instance key', async () => {
    const bytes = tinyJpeg(16, 8);
    const first = uuidv7();
    const second = uuidv7();
    for (const clientId of [first, second]) {
      expect((await respond(body(roster(), { clientId, photos: [placeholder('Member#1/Photo', bytes)] }))).statusCode).toBe(200);
      expect((await upload(clientId, 'Member#1/Photo', bytes)).statusCode).toBe(200);
    }
    await t.app.services.flags.worker.drain();
    const id = (await stored(second)).id;
    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${id}` });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json();
    expect(detail.flags.map((f: { flag: string }) => f.flag)).toContain(QualityFlag.duplicatePhoto);
    expect(detail.meta.photos.map((p: { question: string }) => p.question)).toEqual(['Member#1/Photo']);
  });

  it('refuses a key naming no question, a member that takes no photo, an instance the response lacks, and a member photo keyed at the top', async () => {
    const bytes = tinyJpeg(4, 4);
    const cases: [string, string][] = [
      ['Member#2/Selfie', '"Member#2/Selfie" is not a question of this survey'],
      ['Member#2/Name', '"Member#2/Name" does not take a photo'],
      ['Member#3/Photo', '"Member#3/Photo" names a repeat instance the response does not have'],
      ['Photo', '"Photo" is not a question of this survey'],
    ];
    for (const [key, msg] of cases) {
      const res = await respond(body(roster(), { photos: [placeholder(key, bytes)] }));
      expect(res.statusCode, key).toBe(400);
      expect(res.json()).toMatchObject({ msg });
    }
    // And an upload for a key of no instance question.
    const up = await upload(uuidv7(), 'Member#1/Name', bytes);
    expect(up.statusCode).toBe(400);
  });

  it('a fix sends the member photo already uploaded inside its instance', async () => {
    const bytes = tinyJpeg(8, 16);
    const clientId = uuidv7();
    const up = await upload(clientId, 'Member#1/Photo', bytes);
    expect(up.statusCode, up.body).toBe(200);
    const answers = roster();
    (answers.Member[0] as Record<string, string>).Photo = up.json()['Member#1/Photo'];
    const res = await respond(body(answers, { clientId }));
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(clientId)).answers.Member[0]!.Photo).toBe(up.json()['Member#1/Photo']);
  });
});

describe('typed answers and large selects inside repeats', () => {
  it('stores a phone number inside an instance in its normal form', async () => {
    const clientId = uuidv7();
    expect((await respond(body(roster(), { clientId }))).statusCode).toBe(200);
    expect((await stored(clientId)).answers.Member[1]!.Phone).toBe('+2348031234567');
  });

  it('refuses a large select answer inside an instance that is not in its dataset, naming the member', async () => {
    const answers = roster();
    (answers.Member[1] as Record<string, string>).Ward = 'Ward 99';
    const res = await sync([body(answers), body(roster())]);
    expect(res.json().results.map((r: { status: number; msg: string }) => [r.status, r.msg])).toEqual([
      [400, `"Ward" in Member 2: ${RuleMsg.notAnOption}`],
      [200, 'response sent!'],
    ]);
  });
});
