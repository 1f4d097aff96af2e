import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Limits, Msg, QuestionType } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey, sampleQuestions } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { sniffImage } from './image-sniff.js';
import { exifBody, pngChunk, tinyJpeg, tinyPng, webpHeader } from '../../../test/images.js';
import { FileStores } from './store/index.js';
import { UploadService } from './upload-service.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string };
let member: Awaited<ReturnType<typeof addMember>>;
const PHOTO = 'Shelf photo';
const LIVE = 'Storefront (live)';

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app);
  survey = await createSurvey(t.app, org.id, { questions: [...sampleQuestions, { text: LIVE, type: QuestionType.liveImages, compulsory: false, options: [] }] });
  member = await addMember(t.app, survey.id, org.id);
});
afterAll(() => t.close());

interface FilePart { field: string; filename: string; type: string; data: Buffer }

function multipart(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----sb${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const fieldsFor = (clientId: string, question = PHOTO, extra: Record<string, string> = {}) => ({ question, survey_name: survey.id, organization_name: org.id, clientId, ...extra });
const jpegPart = (data = tinyJpeg(), question = PHOTO): FilePart => ({ field: question, filename: 'photo.jpg', type: 'image/jpeg', data });

function upload(fields: Record<string, string>, file?: FilePart, token = member.token) {
  return call(t.app, token, { method: 'POST', url: '/api/v1/files/image', ...multipart(fields, file) });
}

const uploadsDir = () => join(t.config.dataDir, 'uploads');
const storedFiles = () => readdirSync(uploadsDir()).filter((n) => !n.startsWith('.'));
const leftovers = () => readdirSync(uploadsDir()).filter((n) => n.startsWith('.tmp-'));
const idOf = (reference: string) => reference.split('/').pop()!;

describe('POST /files/image', () => {
  it('stores a JPEG under a generated name and answers { question: reference }', async () => {
    const before = storedFiles().length;
    const res = await upload(fieldsFor(randomUUID()), jpegPart());
    expect(res.statusCode).toBe(200);
    const reply = res.json();
    expect(Object.keys(reply)).toEqual([PHOTO]);
    expect(reply[PHOTO]).toMatch(/^http:\/\/sb\.test\/api\/v1\/files\/image\/[A-Za-z0-9_-]{43}$/);
    expect(storedFiles()).toHaveLength(before + 1);
    expect(storedFiles()).toContain(`${idOf(reply[PHOTO])}.jpg`);
    expect(leftovers()).toEqual([]);

    const got = await call(t.app, member.token, { method: 'GET', url: new URL(reply[PHOTO]).pathname });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(tinyJpeg())).toBe(true);
  });

  it('stores a camera JPEG without its GPS, maker and comment, keeping its orientation', async () => {
    const plain = tinyJpeg(16, 16);
    const app0End = 2 + 2 + plain.readUInt16BE(4);
    const exif = exifBody(6);
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, (exif.length + 2) >> 8, (exif.length + 2) & 0xff]), exif]);
    const camera = Buffer.concat([plain.subarray(0, app0End), app1, plain.subarray(app0End)]);
    const res = await upload(fieldsFor(randomUUID()), jpegPart(camera));
    expect(res.statusCode).toBe(200);
    const id = idOf(res.json()[PHOTO]);
    const got = await call(t.app, member.token, { method: 'GET', url: new URL(res.json()[PHOTO]).pathname });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.includes(Buffer.from('GPS'))).toBe(false);
    expect(got.rawPayload.includes(Buffer.from('serial-XYZ'))).toBe(false);
    expect(got.rawPayload.includes(Buffer.from('Exif\0\0MM', 'latin1'))).toBe(true);
    expect(got.rawPayload.length).toBe(plain.length + 36);
    expect(Number(got.headers['content-length'])).toBe(got.rawPayload.length);
    const row = await t.app.db.kysely.selectFrom('files').select(['size', 'sha256']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(row.size)).toBe(got.rawPayload.length);
    expect(row.sha256).toBe(createHash('sha256').update(got.rawPayload).digest('hex'));
    expect(leftovers()).toEqual([]);
  });

  it('stores a PNG for a live-images question, whatever the declared type says', async () => {
    const png = tinyPng(3, 2);
    const res = await upload(fieldsFor(randomUUID(), LIVE), { field: LIVE, filename: 'photo.jpg', type: 'image/jpeg', data: png });
    expect(res.statusCode).toBe(200);
    const got = await call(t.app, member.token, { method: 'GET', url: new URL(res.json()[LIVE]).pathname });
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(png)).toBe(true);
  });

  it('keeps one file per clientId and question: a retry gets the same reference', async () => {
    const clientId = randomUUID();
    const before = storedFiles().length;
    const first = await upload(fieldsFor(clientId), jpegPart());
    const retries = await Promise.all([upload(fieldsFor(clientId), jpegPart()), upload(fieldsFor(clientId), jpegPart())]);
    expect(first.statusCode).toBe(200);
    for (const r of retries) expect(r.json()).toEqual(first.json());
    expect(storedFiles()).toHaveLength(before + 1);
    expect(leftovers()).toEqual([]);
    const rows = await t.app.db.kysely.selectFrom('files').selectAll().where('client_id', '=', clientId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: member.userId, survey_id: survey.id, question: PHOTO, mime: 'image/jpeg', size: tinyJpeg().length });
  });

  it('treats an upper-case clientId (and survey id) as the same lower-case one', async () => {
    const clientId = randomUUID();
    const first = await upload(fieldsFor(clientId.toUpperCase(), PHOTO, { survey_name: survey.id.toUpperCase() }), jpegPart());
    expect(first.statusCode).toBe(200);
    const again = await upload(fieldsFor(clientId), jpegPart());
    expect(again.json()).toEqual(first.json());
    const rows = await t.app.db.kysely.selectFrom('files').select('client_id').where('client_id', 'in', [clientId, clientId.toUpperCase()]).execute();
    expect(rows).toEqual([{ client_id: clientId }]);
  });

  it('refuses truncated images whose header is valid but whose image data is missing (415), keeping nothing', async () => {
    const before = storedFiles().length;
    const png = tinyPng(2, 2);
    const jpeg = tinyJpeg(2, 2);
    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    const cases: Array<[string, Buffer]> = [
      ['33-byte PNG: signature and IHDR', png.subarray(0, 33)],
      ['PNG cut inside IDAT', png.subarray(0, 40)],
      ['PNG with an empty IDAT', Buffer.concat([png.subarray(0, 33), pngChunk('IDAT', Buffer.alloc(0)), pngChunk('IEND', Buffer.alloc(0))])],
      ['JPEG cut after the scan header', jpeg.subarray(0, sos + 10)],
      ['JPEG without a scan', Buffer.concat([jpeg.subarray(0, sos), Buffer.from([0xff, 0xd9])])],
      ['JPEG cut before the scan', jpeg.subarray(0, sos - 3)],
    ];
    expect(png.subarray(0, 33)).toHaveLength(33);
    for (const [name, data] of cases) {
      const res = await upload(fieldsFor(randomUUID()), { ...jpegPart(), data });
      expect(res.statusCode, name).toBe(415);
      expect(res.json()).toMatchObject({ msg: ApiMsg.unsupportedImage });
    }
    expect(storedFiles()).toHaveLength(before);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a text file named photo.jpg with 415', async () => {
    const res = await upload(fieldsFor(randomUUID()), { ...jpegPart(), data: Buffer.from('hello, I am not a picture at all') });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ msg: ApiMsg.unsupportedImage });
    expect(leftovers()).toEqual([]);
  });

  it('refuses a file over the size limit with 413 and keeps nothing', async () => {
    const before = storedFiles().length;
    const big = Buffer.concat([tinyJpeg(), Buffer.alloc(Limits.maxImageBytes)]);
    const res = await upload(fieldsFor(randomUUID()), jpegPart(big));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ msg: Msg.payloadTooLarge });
    expect(storedFiles()).toHaveLength(before);
    expect(leftovers()).toEqual([]);
  });

  it('keeps nothing from a body cut off in the middle of the file', async () => {
    const before = storedFiles().length;
    const { payload, headers } = multipart(fieldsFor(randomUUID()), jpegPart(Buffer.concat([tinyJpeg(), Buffer.alloc(200_000, 1)])));
    const res = await call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', payload: payload.subarray(0, 100_000), headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: Msg.uploadIncomplete });
    expect(storedFiles()).toHaveLength(before);
    expect(leftovers()).toEqual([]);
  });

  it('refuses pixel floods from the header alone', async () => {
    const png = await upload(fieldsFor(randomUUID()), { ...jpegPart(), data: tinyPng(1, 1, { declaredWidth: 20_000, declaredHeight: 20_000 }) });
    expect(png.statusCode).toBe(400);
    expect(png.json()).toMatchObject({ msg: ApiMsg.imageTooManyPixels });
    const jpeg = await upload(fieldsFor(randomUUID()), jpegPart(tinyJpeg(65_000, 65_000, { headerOnly: true })));
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.json()).toMatchObject({ msg: ApiMsg.imageTooManyPixels });
  });

  it('never uses the client\'s names for paths', async () => {
    const res = await upload(fieldsFor(randomUUID(), PHOTO, { organization_name: org.id }), { field: '../../evil', filename: '../../../etc/passwd.jpg', type: 'image/jpeg', data: tinyJpeg() });
    expect(res.statusCode).toBe(200);
    const name = `${idOf(res.json()[PHOTO])}.jpg`;
    expect(storedFiles()).toContain(name);
    expect(readdirSync(t.config.dataDir).filter((n) => n.includes('evil') || n.includes('passwd'))).toEqual([]);
    const traversal = await upload(fieldsFor(randomUUID(), '../../etc/passwd'), jpegPart(tinyJpeg(), '../../etc/passwd'));
    expect(traversal.statusCode).toBe(400);
    expect(traversal.json()).toMatchObject({ msg: '"../../etc/passwd" is not a question of this survey' });
    const badSurvey = await upload(fieldsFor(randomUUID(), PHOTO, { survey_name: '../../uploads' }), jpegPart());
    expect(badSurvey.statusCode).toBe(404);
  });

  it('checks the caller, the survey, the organization and the question', async () => {
    const otherOrg = await createOrganization(t.app, 'Other Org');
    const otherSurvey = await createSurvey(t.app, otherOrg.id);
    const outsider = await addMember(t.app, otherSurvey.id, otherOrg.id);
    const notMember = await upload(fieldsFor(randomUUID()), jpegPart(), outsider.token);
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json()).toMatchObject({ msg: ApiMsg.surveyNotFound });
    const wrongOrg = await upload(fieldsFor(randomUUID(), PHOTO, { organization_name: otherOrg.id }), jpegPart());
    expect(wrongOrg.statusCode).toBe(400);
    expect(wrongOrg.json()).toMatchObject({ msg: ApiMsg.organizationMismatch });
    const textQuestion = await upload(fieldsFor(randomUUID(), 'Name of outlet'), jpegPart(tinyJpeg(), 'Name of outlet'));
    expect(textQuestion.statusCode).toBe(400);
    expect(textQuestion.json()).toMatchObject({ msg: '"Name of outlet" does not take a photo' });
    const noFile = await upload(fieldsFor(randomUUID()));
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({ msg: ApiMsg.uploadFieldsMissing });
    const organization = await upload(fieldsFor(randomUUID()), jpegPart(), org.token);
    expect(organization.statusCode).toBe(403);
    const json = await call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', payload: { question: PHOTO } });
    expect(json.statusCode).toBe(415);
    expect(leftovers()).toEqual([]);
  });

  it('takes the question from the file part\'s name when the question field is absent (spec form)', async () => {
    const { question: _q, ...fields } = fieldsFor(randomUUID());
    const res = await upload(fields, jpegPart());
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual([PHOTO]);
  });
});

describe('GET /files/image/:id', () => {
  it('answers 404 JSON for unknown or malformed ids', async () => {
    for (const id of ['A'.repeat(43), '..%2F..%2Fsurvey-bird.sqlite', 'abc']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/files/image/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ msg: ApiMsg.imageNotFound });
    }
  });
});

describe('stale temp files', () => {
  it('are swept at start when older than an hour, and fresh ones are left alone', async () => {
    const service = new UploadService(t.config, t.app.db, {} as never, new FileStores(t.config, t.app.db));
    const stale = join(service.dir, '.tmp-stale');
    const fresh = join(service.dir, '.tmp-fresh');
    writeFileSync(stale, 'x');
    writeFileSync(fresh, 'x');
    await service.sweepTemps(Date.now() + 2 * 60 * 60 * 1000 - 1000);
    expect(leftovers()).toEqual([]);
    writeFileSync(fresh, 'x');
    await service.sweepTemps();
    expect(leftovers()).toEqual(['.tmp-fresh']);
    await service.sweepTemps(Date.now() + 2 * 60 * 60 * 1000);
  });
});

describe('orphan photo files', () => {
  it('are swept when an hour old and without a row; stored photos and fresh files stay', async () => {
    const res = await upload(fieldsFor(randomUUID()), jpegPart());
    const keptName = storedFiles().find((n) => n.startsWith(idOf(res.json()[PHOTO])))!;
    const orphanName = `${'o'.repeat(43)}.jpg`;
    const service = new UploadService(t.config, t.app.db, {} as never, new FileStores(t.config, t.app.db));
    writeFileSync(join(uploadsDir(), orphanName), 'x');
    expect(await service.sweepOrphans()).toBe(0);
    expect(storedFiles()).toContain(orphanName);
    expect(await service.sweepOrphans(Date.now() + 2 * 60 * 60 * 1000)).toBe(1);
    expect(storedFiles()).not.toContain(orphanName);
    expect(storedFiles()).toContain(keptName);
    const image = await call(t.app, member.token, { method: 'GET', url: `/api/v1/files/image/${idOf(res.json()[PHOTO])}` });
    expect(image.statusCode).toBe(200);
  });
});

describe('sniffImage', () => {
  const sniff = (bytes: Buffer) => sniffImage(async (offset, length) => bytes.subarray(offset, offset + length));

  it('reads type and size from JPEG, PNG and WebP headers', async () => {
    expect(await sniff(tinyJpeg(20, 9))).toEqual({ mime: 'image/jpeg', ext: 'jpg', width: 20, height: 9 });
    expect(await sniff(tinyPng(3, 2))).toEqual({ mime: 'image/png', ext: 'png', width: 3, height: 2 });
    expect(await sniff(webpHeader(640, 480))).toEqual({ mime: 'image/webp', ext: 'webp', width: 640, height: 480 });
  });

  it('finds the JPEG frame after a large EXIF block', async () => {
    const jpeg = tinyJpeg(4, 3);
    const exif = Buffer.concat([Buffer.from([0xff, 0xe1, 0xff, 0xff]), Buffer.alloc(0xffff - 2)]);
    expect(await sniff(Buffer.concat([jpeg.subarray(0, 2), exif, jpeg.subarray(2)]))).toMatchObject({ width: 4, height: 3 });
  });

  it('refuses everything else, including truncated headers', async () => {
    expect(await sniff(Buffer.from('GIF89a........'))).toBeNull();
    expect(await sniff(tinyJpeg().subarray(0, 30))).toBeNull();
    expect(await sniff(Buffer.from([0xff, 0xd8, 0xff]))).toBeNull();
    expect(await sniff(tinyPng(0, 0, { declaredWidth: 0, declaredHeight: 5 }))).toBeNull();
  });
});
