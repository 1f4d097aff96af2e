import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, GeoMsg, Msg, QuestionType, uploadCap } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg } from '../../../test/images.js';
import { tusClient } from '../../../test/tus.js';
import { sniffMedia } from './media-sniff.js';

/**
 * Recordings, videos and documents travel the photos' path (multipart or tus, placeholders,
 * outbox): each type takes only its own kinds of file, by their bytes, up to its own cap; lines and
 * areas are refused by the engine when they are no line or area. On the engine the run is on
 * (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string };
let member: Awaited<ReturnType<typeof addMember>>;

const AUDIO = 'Interview';
const VIDEO = 'Walk-through';
const FILE = 'Title deed';
const TRACE = 'Path walked';
const SHAPE = 'Plot';
const RANK = 'Priorities';

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app);
  survey = await createSurvey(t.app, org.id, {
    questions: [
      { text: 'Name of outlet', type: QuestionType.text, compulsory: true, options: [] },
      { text: AUDIO, type: QuestionType.audio, compulsory: false, options: [] },
      { text: VIDEO, type: QuestionType.video, compulsory: false, options: [] },
      { text: FILE, type: QuestionType.file, compulsory: false, options: [] },
      { text: TRACE, type: QuestionType.geotrace, compulsory: false, options: [] },
      { text: SHAPE, type: QuestionType.geoshape, compulsory: false, options: [] },
      { text: RANK, type: QuestionType.rank, compulsory: false, options: ['Water', 'Roads', 'Schools'] },
    ],
  });
  member = await addMember(t.app, survey.id, org.id);
});
afterAll(() => t.close());

// The first bytes of each kind, as a phone or an office program writes them.
const webm = () => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(200, 1)]);
const ogg = () => Buffer.concat([Buffer.from('OggS'), Buffer.alloc(200, 2)]);
const mp4 = (brand = 'isom') => Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from(`ftyp${brand}`), Buffer.alloc(200, 3)]);
const pdf = () => Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
const csv = () => Buffer.from('name,age\nAmina,34\nBello,41\n');
const html = () => Buffer.from('<!doctype html><script>alert(1)</script>');
const docx = () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), Buffer.from('[Content_Types].xml word/document.xml'), Buffer.alloc(100)]);
const zip = () => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), Buffer.from('payload.exe'), Buffer.alloc(100)]);

function multipart(fields: Record<string, string>, question: string, data: Buffer) {
  const boundary = `----sb${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${question}"; filename="photo.jpg"\r\nContent-Type: application/octet-stream\r\n\r\n`), data, Buffer.from('\r\n'), Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (question: string, data: Buffer) =>
  call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', ...multipart({ question, survey_name: survey.id, organization_name: org.id, clientId: randomUUID() }, question, data) });

describe('what each upload type takes (media-sniff.ts)', () => {
  const at = (b: Buffer) => (offset: number, length: number) => Promise.resolve(b.subarray(offset, offset + length));
  it.each([
    [QuestionType.audio, webm(), 'audio/webm'],
    [QuestionType.audio, ogg(), 'audio/ogg'],
    [QuestionType.audio, mp4('M4A '), 'audio/mp4'],
    [QuestionType.audio, Buffer.concat([Buffer.from('ID3'), Buffer.alloc(50)]), 'audio/mpeg'],
    [QuestionType.video, mp4(), 'video/mp4'],
    [QuestionType.video, mp4('3gp5'), 'video/3gpp'],
    [QuestionType.video, webm(), 'video/webm'],
    [QuestionType.file, pdf(), 'application/pdf'],
    [QuestionType.file, csv(), 'text/plain; charset=utf-8'],
    [QuestionType.file, docx(), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    [QuestionType.file, tinyJpeg(), 'image/jpeg'],
  ])('%s takes %#', async (type, bytes, mime) => {
    expect((await sniffMedia(type, at(bytes)))?.mime).toBe(mime);
  });
  it.each([
    [QuestionType.audio, pdf()],
    [QuestionType.video, ogg()],
    [QuestionType.file, html()],
    [QuestionType.file, zip()],
    [QuestionType.file, webm()],
    [QuestionType.file, Buffer.from([0, 1, 2, 3, 0, 0])],
  ])('%s refuses %#', async (type, bytes) => {
    expect(await sniffMedia(type, at(bytes))).toBeNull();
  });
});

describe('POST /files/image with a recording, a video or a document', () => {
  it('stores each kind under its own type and serves it back; a document as an attachment', async () => {
    for (const [question, bytes, mime] of [[AUDIO, webm(), 'audio/webm'], [VIDEO, mp4(), 'video/mp4'], [FILE, pdf(), 'application/pdf']] as const) {
      const res = await upload(question, bytes);
      expect(res.statusCode, res.body).toBe(200);
      const got = await call(t.app, member.token, { method: 'GET', url: new URL(res.json()[question]).pathname });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe(mime);
      expect(got.rawPayload.equals(bytes)).toBe(true);
      expect(got.headers['content-disposition']).toBe(question === FILE ? 'attachment' : undefined);
    }
  });

  it('refuses a kind its type does not take (415), markup above all', async () => {
    for (const [question, bytes] of [[AUDIO, pdf()], [VIDEO, ogg()], [FILE, html()], [FILE, zip()]] as const) {
      const res = await upload(question, bytes);
      expect(res.statusCode, question).toBe(415);
      expect(res.json().msg).toBe(ApiMsg.unsupportedUpload);
    }
  });

  it('still takes only pictures for a photo question', async () => {
    const photo = await createSurvey(t.app, org.id, { questions: [{ text: 'Shelf photo', type: QuestionType.image, compulsory: true, options: [] }] });
    const m = await addMember(t.app, photo.id, org.id);
    const res = await call(t.app, m.token, { method: 'POST', url: '/api/v1/files/image', ...multipart({ question: 'Shelf photo', survey_name: photo.id, organization_name: org.id }, 'Shelf photo', webm()) });
    expect(res.statusCode).toBe(415);
    expect(res.json().msg).toBe(ApiMsg.unsupportedImage);
  });
});

describe('a response sent ahead of its recording, then the recording by tus', () => {
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  it('attaches the clip to its question; a size above the type\'s cap is refused before any byte', async () => {
    const c = tusClient(t.app, { surveyId: survey.id, organizationId: org.id, token: member.token });
    const clip = ogg();
    const clientId = uuidv7();
    const sent = await call(t.app, member.token, {
      method: 'POST', url: '/api/v1/survey/respond',
      payload: { survey_id: survey.id, organization_id: org.id, clientId, answers: { 'Name of outlet': 'Mama Put' }, photos: [{ question: AUDIO, clientId: uuidv7(), size: clip.length, sha256: sha(clip) }] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const created = await c.create(clientId, clip.length, member.token, AUDIO);
    expect(created.statusCode, created.body).toBe(201);
    const done = await c.patch(created.headers.location as string, 0, clip);
    expect(done.statusCode, done.body).toBe(204);
    const answers = JSON.parse((await c.stored(clientId)).answers) as Record<string, string>;
    expect(answers[AUDIO]).toMatch(/\/api\/v1\/files\/image\/[\w-]{43}$/);

    const big = await c.create(uuidv7(), uploadCap(QuestionType.audio) + 1, member.token, AUDIO);
    expect(big.statusCode).toBe(413);
    expect(big.body).toContain(Msg.payloadTooLarge);
  });
});

describe('lines, areas and rankings on the server', () => {
  const respond = (answers: Record<string, unknown>) =>
    call(t.app, member.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: survey.id, organization_id: org.id, clientId: uuidv7(), answers: { 'Name of outlet': 'Mama Put', ...answers } } });
  const square = '9 7 0 0;9 7.0009 0 0;9.0009 7.0009 0 0;9.0009 7 0 0;9 7 0 0';

  it('stores a valid line, area and ranking', async () => {
    const res = await respond({ [TRACE]: '9 7 350 4;9.001 7.001 351 5', [SHAPE]: square, [RANK]: ['Roads', 'Water', 'Schools'] });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a one-point line, an open area, a point off the globe and a partial ranking, naming the question', async () => {
    for (const [answers, msg] of [
      [{ [TRACE]: '9 7' }, `"${TRACE}": ${GeoMsg.tracePoints}`],
      [{ [SHAPE]: '9 7;9 7.0009;9.0009 7.0009;9.0009 7' }, `"${SHAPE}": ${GeoMsg.shapeClosed}`],
      [{ [TRACE]: '9 7;95 7' }, `"${TRACE}": ${GeoMsg.range}`],
      [{ [RANK]: ['Roads', 'Water'] }, `"${RANK}": Put every choice in order`],
    ] as const) {
      const res = await respond(answers);
      expect(res.statusCode, JSON.stringify(answers)).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
  });
});
