import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlagThresholds, QualityFlag, QuestionType, Role, differenceHash, hammingDistance, type ResponseDetailReply, type ResponseListReply } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey, type FixtureQuestion } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;

const PHOTO = 'Shelf photo';
const LOCATION = 'Location';
const questions: FixtureQuestion[] = [
  { text: 'Name of outlet', type: QuestionType.text, compulsory: true, options: [] },
  { text: PHOTO, type: QuestionType.image, compulsory: false, options: [] },
  { text: LOCATION, type: QuestionType.liveLocation, compulsory: false, options: [] },
  ...Array.from({ length: 7 }, (_, i) => ({ text: `Question ${i + 4}`, type: QuestionType.text, compulsory: false, options: [] })),
];

type Member = Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  // The tests work the queue themselves (drain), so "checking" is seen before it.
  await t.app.services.flags.worker.stop();
  org = await createOrganization(t.app);
  other = await createOrganization(t.app, 'Other Org');
});
afterAll(() => t.close());

const drain = () => t.app.services.flags.worker.drain();
/** Responses are checked in id order (UUIDv7): two stored in one millisecond may be checked in either order. */
const nextMs = () => new Promise((resolve) => setTimeout(resolve, 2));

async function setup(title = 'Retail audit') {
  const survey = await createSurvey(t.app, org.id, { title, questions });
  const ngozi = await addMember(t.app, survey.id, org.id, { fullName: 'Ngozi Eze' });
  const supervisor = await addMember(t.app, survey.id, org.id, { role: Role.supervisor, fullName: 'Sade Supervisor' });
  await t.app.db.kysely.updateTable('members').set({ supervisor_id: supervisor.id }).where('id', '=', ngozi.id).execute();
  return { survey, ngozi, supervisor };
}

function multipart(fields: Record<string, string>, data: Buffer) {
  const boundary = `----sb${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${PHOTO}"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function uploadPhoto(m: Member, surveyId: string, clientId: string, data: Buffer): Promise<string> {
  const res = await call(t.app, m.token, { method: 'POST', url: '/api/v1/files/image', ...multipart({ question: PHOTO, survey_name: surveyId, organization_name: org.id, clientId }, data) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[PHOTO] as string;
}

async function respond(m: Member, surveyId: string, answers: Record<string, string>, extra: Record<string, unknown> = {}, clientId = randomUUID()): Promise<string> {
  const res = await call(t.app, m.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: surveyId, organization_id: org.id, answers: { 'Name of outlet': `Outlet ${randomUUID()}`, ...answers }, clientId, ...extra } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id as string;
}

async function detail(id: string, token = org.token): Promise<ResponseDetailReply> {
  const res = await call(t.app, token, { method: 'GET', url: `/api/v1/responses/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const flagsOf = async (id: string) => (await detail(id)).flags.map((f) => f.flag);

/** A photo-like picture: sky and ground gradients, a few shapes, and sensor noise; RGBA. */
function photoPixels(width: number, height: number, seed: number) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const shapes = Array.from({ length: 6 }, () => ({ x: rand() * width, y: rand() * height, r: (0.05 + rand() * 0.2) * width, c: [rand() * 255, rand() * 255, rand() * 255] }));
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      let rgb = y < height * 0.55 ? [90 + (120 * y) / height, 140 + (80 * y) / height, 230] : [120 - (40 * y) / height, 100 + (30 * x) / width, 60];
      for (const sh of shapes) if ((x - sh.x) ** 2 + (y - sh.y) ** 2 < sh.r ** 2) rgb = sh.c;
      const noise = (rand() - 0.5) * 20;
      data[i] = Math.max(0, Math.min(255, rgb[0]! + noise));
      data[i + 1] = Math.max(0, Math.min(255, rgb[1]! + noise));
      data[i + 2] = Math.max(0, Math.min(255, rgb[2]! + noise));
      data[i + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Bilinear resize of RGBA pixels, as a phone or an editor would before re-saving. */
function resize(img: { width: number; height: number; data: Uint8Array }, width: number, height: number) {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = ((x + 0.5) * img.width) / width - 0.5;
      const sy = ((y + 0.5) * img.height) / height - 0.5;
      const x0 = Math.max(0, Math.floor(sx));
      const y0 = Math.max(0, Math.floor(sy));
      const x1 = Math.min(img.width - 1, x0 + 1);
      const y1 = Math.min(img.height - 1, y0 + 1);
      const fx = Math.min(1, Math.max(0, sx - x0));
      const fy = Math.min(1, Math.max(0, sy - y0));
      for (let c = 0; c < 4; c++) {
        const p = (xx: number, yy: number) => img.data[(yy * img.width + xx) * 4 + c]!;
        data[(y * width + x) * 4 + c] = Math.round(p(x0, y0) * (1 - fx) * (1 - fy) + p(x1, y0) * fx * (1 - fy) + p(x0, y1) * (1 - fx) * fy + p(x1, y1) * fx * fy);
      }
    }
  }
  return { width, height, data };
}

const hashOfJpeg = (bytes: Buffer) => {
  const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
  return differenceHash(img.data, img.width, img.height);
};

describe('what the phone records (section 1)', () => {
  it('a response from an older phone (no metadata) is stored as before: meta all empty, checked, no flags', async () => {
    const { survey, ngozi } = await setup();
    const id = await respond(ngozi, survey.id, {});
    const before = await detail(id);
    expect(before.checking).toBe(true);
    await drain();
    const after = await detail(id);
    expect(after.checking).toBe(false);
    expect(after.flags).toEqual([]);
    expect(after.meta).toEqual({ openedAt: null, capturedAt: null, durationMs: null, locationAccuracy: null, locationFixedAt: null, deviceId: null, appVersion: null, clockSkewMs: null, photos: [] });
  });

  it('stores and shows every field the phone sends, the photo with the server SHA-256 beside the phone hash', async () => {
    const { survey, ngozi } = await setup();
    const clientId = randomUUID();
    const photo = await uploadPhoto(ngozi, survey.id, clientId, jpeg.encode(photoPixels(64, 48, 7), 90).data);
    const id = await respond(ngozi, survey.id, { [PHOTO]: photo, [LOCATION]: '6.524379, 3.379206 (±12 m)' }, {
      openedAt: '2026-11-12T09:00:00.000Z', capturedAt: '2026-11-12T09:04:00.000Z', durationMs: 230_000, locationAccuracy: 12.5, locationFixedAt: '2026-11-12T09:03:10.000Z',
      deviceId: 'dev-123', appVersion: '0.1.0+20261127', photoHashes: { [PHOTO]: '0f0f0f0f0f0f0f0f' },
    }, clientId);
    await drain();
    const { meta } = await detail(id);
    expect(meta).toMatchObject({ openedAt: '2026-11-12T09:00:00.000Z', capturedAt: '2026-11-12T09:04:00.000Z', durationMs: 230_000, locationAccuracy: 12.5, locationFixedAt: '2026-11-12T09:03:10.000Z', deviceId: 'dev-123', appVersion: '0.1.0+20261127', clockSkewMs: null });
    expect(meta.photos).toEqual([{ question: PHOTO, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), phash: '0f0f0f0f0f0f0f0f' }]);
  });

  it('refuses malformed metadata with a clear 400', async () => {
    const { survey, ngozi } = await setup();
    for (const bad of [{ photoHashes: { [PHOTO]: 'xyz' } }, { durationMs: -1 }, { durationMs: 1.5 }, { openedAt: 'yesterday' }, { locationAccuracy: 'far' }]) {
      const res = await call(t.app, ngozi.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: survey.id, organization_id: org.id, answers: { 'Name of outlet': 'x' }, ...bad } });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe('flags (section 2)', () => {
  it('duplicate_photo: the same JPEG on two responses flags the second, naming the first', async () => {
    const { survey, ngozi } = await setup();
    const bytes = jpeg.encode(photoPixels(80, 60, 11), 85).data;
    const c1 = randomUUID();
    const c2 = randomUUID();
    const first = await respond(ngozi, survey.id, { [PHOTO]: await uploadPhoto(ngozi, survey.id, c1, bytes) }, {}, c1);
    const second = await respond(ngozi, survey.id, { [PHOTO]: await uploadPhoto(ngozi, survey.id, c2, bytes) }, {}, c2);
    await drain();
    expect(await flagsOf(first)).toEqual([]);
    const flag = (await detail(second)).flags.find((f) => f.flag === QualityFlag.duplicatePhoto)!;
    expect(flag.otherResponseId).toBe(first);
    expect(flag.reason).toMatch(new RegExp(`^Same photo as response #${first.replace(/-/g, '').slice(-8)} by Ngozi Eze on \\d{1,2} [A-Z][a-z]{2}$`));
  });

  it(`similar_photo: a resized, re-encoded copy is within ${FlagThresholds.similarPhotoBits} bits; another picture is not`, async () => {
    const original = photoPixels(800, 600, 42);
    const saved = jpeg.encode(original, 92).data;
    const decoded = jpeg.decode(saved, { useTArray: true, formatAsRGBA: true });
    const copy = jpeg.encode(resize(decoded, 533, 400), 60).data;
    const unrelated = jpeg.encode(photoPixels(800, 600, 99), 92).data;
    const [a, b, c] = [hashOfJpeg(saved), hashOfJpeg(copy), hashOfJpeg(unrelated)];
    expect(hammingDistance(a, b)).toBeLessThanOrEqual(FlagThresholds.similarPhotoBits);
    expect(hammingDistance(a, c)).toBeGreaterThan(FlagThresholds.similarPhotoBits);

    const { survey, ngozi } = await setup();
    const c1 = randomUUID();
    const c2 = randomUUID();
    const c3 = randomUUID();
    const first = await respond(ngozi, survey.id, { [PHOTO]: await uploadPhoto(ngozi, survey.id, c1, saved) }, { photoHashes: { [PHOTO]: a } }, c1);
    const resaved = await respond(ngozi, survey.id, { [PHOTO]: await uploadPhoto(ngozi, survey.id, c2, copy) }, { photoHashes: { [PHOTO]: b } }, c2);
    const different = await respond(ngozi, survey.id, { [PHOTO]: await uploadPhoto(ngozi, survey.id, c3, unrelated) }, { photoHashes: { [PHOTO]: c } }, c3);
    await drain();
    const flag = (await detail(resaved)).flags.find((f) => f.flag === QualityFlag.similarPhoto)!;
    expect(flag.otherResponseId).toBe(first);
    expect(flag.reason).toContain('by Ngozi Eze');
    expect(await flagsOf(resaved)).not.toContain(QualityFlag.duplicatePhoto);
    expect(await flagsOf(different)).toEqual([]);
  });

  it('impossible_travel: 50 km in 5 minutes flags the later response', async () => {
    const { survey, ngozi } = await setup();
    // An hour ago, within the maximum offline age; created and invited before (a time before either is implausible_time).
    const at = Date.now() - 3_600_000;
    await t.app.db.kysely.updateTable('surveys').set({ created_at: at - 86_400_000 }).where('id', '=', survey.id).execute();
    await t.app.db.kysely.updateTable('members').set({ created_at: at - 86_400_000 }).where('survey_id', '=', survey.id).execute();
    const first = await respond(ngozi, survey.id, { [LOCATION]: '6.524379, 3.379206 (±10 m)' }, { capturedAt: new Date(at).toISOString() });
    await nextMs();
    const second = await respond(ngozi, survey.id, { [LOCATION]: '6.974000, 3.379206 (±10 m)' }, { capturedAt: new Date(at + 5 * 60_000).toISOString() });
    // Walking pace afterwards: not flagged.
    const third = await respond(ngozi, survey.id, { [LOCATION]: '6.974500, 3.379206 (±10 m)' }, { capturedAt: new Date(at + 30 * 60_000).toISOString() });
    await drain();
    expect(await flagsOf(first)).toEqual([]);
    const flag = (await detail(second)).flags.find((f) => f.flag === QualityFlag.impossibleTravel)!;
    expect(flag.otherResponseId).toBe(first);
    expect(flag.reason).toMatch(/^50\.\d km from response #\w{8} by Ngozi Eze on .+ in 5 min \(\d+ km\/h\)$/);
    expect(await flagsOf(third)).toEqual([]);
  });

  it('too_fast: 3 s on a 10-question survey whose median is 2 minutes; then a survey minimum overrides it', async () => {
    const { survey, ngozi } = await setup('Timed');
    for (let i = 0; i < FlagThresholds.tooFastMinResponses; i++) await respond(ngozi, survey.id, {}, { durationMs: 100_000 + i * 2_000 });
    await drain();
    const fast = await respond(ngozi, survey.id, {}, { durationMs: 3_000 });
    const normal = await respond(ngozi, survey.id, {}, { durationMs: 90_000 });
    await drain();
    const flag = (await detail(fast)).flags.find((f) => f.flag === QualityFlag.tooFast)!;
    expect(flag.reason).toBe("Filled in 3 s, under a third of the survey's median of 120 s");
    expect(await flagsOf(normal)).toEqual([]);

    const res = await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${survey.id}/settings`, payload: { minDurationSeconds: 100 } });
    expect(res.json()).toMatchObject({ minDurationSeconds: 100, maxAccuracyMeters: null });
    const under = await respond(ngozi, survey.id, {}, { durationMs: 95_000 });
    await drain();
    expect((await detail(under)).flags.find((f) => f.flag === QualityFlag.tooFast)?.reason).toBe("Filled in 95 s, under the survey's minimum of 100 s");
  });

  it('too_fast from the very first response once the organization sets a minimum: no median needed', async () => {
    const { survey, ngozi } = await setup('First day');
    const res = await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${survey.id}/settings`, payload: { minDurationSeconds: 60 } });
    expect(res.statusCode, res.body).toBe(200);
    const first = await respond(ngozi, survey.id, {}, { durationMs: 12_000 });
    const slow = await respond(ngozi, survey.id, {}, { durationMs: 75_000 });
    await drain();
    expect((await detail(first)).flags.find((f) => f.flag === QualityFlag.tooFast)?.reason).toBe("Filled in 12 s, under the survey's minimum of 60 s");
    expect(await flagsOf(slow)).toEqual([]);
  });

  it('too_fast needs 20 responses before the median default applies', async () => {
    const { survey, ngozi } = await setup('Few');
    for (let i = 0; i < 5; i++) await respond(ngozi, survey.id, {}, { durationMs: 120_000 });
    const fast = await respond(ngozi, survey.id, {}, { durationMs: 3_000 });
    await drain();
    expect(await flagsOf(fast)).toEqual([]);
  });

  it('low_gps_accuracy: 500 m is flagged (100 m default), not once the survey allows 1000 m; a location answered without a position is flagged', async () => {
    const { survey, ngozi } = await setup();
    const far = await respond(ngozi, survey.id, { [LOCATION]: '6.524379, 3.379206 (±500 m)' }, { locationAccuracy: 500 });
    const noPosition = await respond(ngozi, survey.id, { [LOCATION]: 'somewhere in Yaba' });
    const good = await respond(ngozi, survey.id, { [LOCATION]: '6.524400, 3.379206 (±20 m)' }, { locationAccuracy: 20 });
    await drain();
    expect((await detail(far)).flags.find((f) => f.flag === QualityFlag.lowGpsAccuracy)?.reason).toBe('Location accurate to 500 m, worse than 100 m');
    expect((await detail(noPosition)).flags.find((f) => f.flag === QualityFlag.lowGpsAccuracy)?.reason).toBe('The location question was answered without a position');
    expect(await flagsOf(good)).toEqual([]);

    const res = await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${survey.id}/settings`, payload: { maxAccuracyMeters: 1000 } });
    expect(res.statusCode).toBe(200);
    const allowed = await respond(ngozi, survey.id, { [LOCATION]: '6.524379, 3.379206 (±500 m)' }, { locationAccuracy: 500 });
    await drain();
    expect(await flagsOf(allowed)).not.toContain(QualityFlag.lowGpsAccuracy);
  });

  it('duplicate_answers: the same answers, differently cased and spaced, as another response of the survey', async () => {
    const { survey, ngozi } = await setup();
    const first = await respond(ngozi, survey.id, { 'Name of outlet': 'Mama Put  Kiosk', 'Question 4': 'Yes' });
    const second = await respond(ngozi, survey.id, { 'Name of outlet': 'mama put kiosk', 'Question 4': ' yes' });
    await drain();
    // Whichever is checked later carries the flag (two responses of one millisecond may be checked in either order).
    const flagged = [];
    for (const [id, other] of [[first, second], [second, first]] as const) {
      const flag = (await detail(id)).flags.find((f) => f.flag === QualityFlag.duplicateAnswers);
      if (flag) flagged.push([id, flag.otherResponseId]);
      else expect(await flagsOf(id)).toEqual([]);
      if (flag) expect(flag.otherResponseId).toBe(other);
    }
    expect(flagged).toHaveLength(1);
  });

  it('clock_skew: a phone 20 minutes fast is reported once per sync, not per response', async () => {
    const { survey, ngozi } = await setup();
    const sentAt = new Date(Date.now() + 20 * 60_000).toISOString();
    const items = [0, 1, 2].map((i) => ({ survey_id: survey.id, organization_id: org.id, answers: { 'Name of outlet': `Sync ${i} ${randomUUID()}` }, clientId: randomUUID(), sentAt }));
    const res = await call(t.app, ngozi.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: items } });
    expect(res.statusCode).toBe(200);
    await drain();
    const ids = (res.json().results as { _id: string }[]).map((r) => r._id);
    const flagged = [];
    for (const id of ids) if ((await flagsOf(id)).includes(QualityFlag.clockSkew)) flagged.push(id);
    expect(flagged).toEqual([ids[0]]);
    expect((await detail(ids[0]!)).flags[0]!.reason).toBe("The phone's clock was 20 min ahead of the server's at sync");
    // A phone on time: nothing.
    const ontime = await respond(ngozi, survey.id, {}, { sentAt: new Date().toISOString() });
    await drain();
    expect(await flagsOf(ontime)).toEqual([]);
  });
});

describe('where the office sees them (section 3)', () => {
  it('list rows show checking then flags; ?flagged filters; cards and field-user rows count; the export has a Flags column', async () => {
    const { survey, ngozi, supervisor } = await setup();
    const clean = await respond(ngozi, survey.id, { 'Name of outlet': 'Unique A' });
    const slow = await respond(ngozi, survey.id, { [LOCATION]: '6.5, 3.3 (±800 m)' });
    const list = async (query = '', token: string | null = org.token, path = `/survey/organization/response/${survey.id}`) => {
      const res = await call(t.app, token, { method: 'GET', url: `/api/v1${path}${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ResponseListReply;
    };
    expect((await list()).responses.map((r) => r.checking)).toEqual([true, true]);
    await drain();
    const rows = (await list()).responses;
    expect(rows.map((r) => r.checking)).toEqual([false, false]);
    expect(rows.find((r) => r._id === slow)!.flags.map((f) => f.flag)).toEqual([QualityFlag.lowGpsAccuracy]);
    expect((await list('?flagged=true')).responses.map((r) => r._id)).toEqual([slow]);
    expect((await list('?flagged=false')).responses.map((r) => r._id)).toEqual([clean]);
    expect((await list('?flagged=true&status=approved')).responses.map((r) => r._id)).toEqual([slow]);
    expect((await list('?flagged=true', supervisor.token, `/supervisor/response/${survey.id}`)).responses.map((r) => r._id)).toEqual([slow]);
    expect((await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${survey.id}?flagged=maybe` })).statusCode).toBe(400);

    const cards = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/top-performer/${survey.id}` });
    expect(cards.json()).toMatchObject({ totalResponses: 2, flaggedResponses: 1 });
    const fieldUsers = await call(t.app, org.token, { method: 'GET', url: `/api/v1/field-user/${survey.id}` });
    expect(fieldUsers.json().fieldUsers.find((f: { _id: string }) => f._id === ngozi.id).flags).toBe(1);

    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${survey.id}` });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Responses')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const col = header.indexOf('Flags') + 1;
    expect(col).toBeGreaterThan(0);
    expect(header.slice(col - 1, col + 7)).toEqual(['Flags', 'Opened at', 'Duration (s)', 'Location accuracy (m)', 'Location fix time', 'Device id', 'App version', 'Photo hashes']);
    const cells = [sheet.getRow(2).getCell(col).value ?? '', sheet.getRow(3).getCell(col).value ?? ''];
    expect(cells).toContain('low_gps_accuracy: Location accurate to 800 m, worse than 100 m');
    expect(cells).toContain('');
  });

  it('a reviewer dismisses a flag with a note: audited, kept on the detail, out of the flagged filter and counts', async () => {
    const { survey, ngozi, supervisor } = await setup();
    const id = await respond(ngozi, survey.id, { [LOCATION]: '6.5, 3.3 (±800 m)' });
    await drain();
    const url = `/api/v1/responses/${id}/flags/low_gps_accuracy/dismiss`;
    expect((await call(t.app, supervisor.token, { method: 'POST', url, payload: {} })).statusCode).toBe(400);
    expect((await call(t.app, supervisor.token, { method: 'POST', url: `/api/v1/responses/${id}/flags/teleport/dismiss`, payload: { note: 'x' } })).statusCode).toBe(400);
    expect((await call(t.app, ngozi.token, { method: 'POST', url, payload: { note: 'mine' } })).statusCode).toBe(403);
    expect((await call(t.app, other.token, { method: 'POST', url, payload: { note: 'not ours' } })).statusCode).toBe(404);
    expect((await call(t.app, supervisor.token, { method: 'POST', url: `/api/v1/responses/${id}/flags/too_fast/dismiss`, payload: { note: 'x' } })).statusCode).toBe(404);
    const res = await call(t.app, supervisor.token, { method: 'POST', url, payload: { note: 'Market under a metal roof, GPS is poor there' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().flag.dismissed).toMatchObject({ by: 'Sade Supervisor', role: Role.supervisor, note: 'Market under a metal roof, GPS is poor there' });
    // Again: 200, no second audit row.
    expect((await call(t.app, org.token, { method: 'POST', url, payload: { note: 'again' } })).statusCode).toBe(200);
    const audit = await t.app.db.kysely.selectFrom('flag_dismissals').selectAll().where('response_id', '=', id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ flag: 'low_gps_accuracy', note: 'Market under a metal roof, GPS is poor there', actor_name: 'Sade Supervisor', reason: 'Location accurate to 800 m, worse than 100 m' });
    expect((await detail(id)).flags[0]!.dismissed?.note).toBe('Market under a metal roof, GPS is poor there');
    const flagged = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${survey.id}?flagged=true` });
    expect(flagged.json().responses).toEqual([]);
    // The audit stays when the response is checked again (a fix and resubmit requeues it).
    await t.app.db.kysely.insertInto('flag_jobs').values({ response_id: id, queued_at: Date.now() }).execute();
    await drain();
    expect((await detail(id)).flags).toHaveLength(1);
    expect((await detail(id)).flags[0]!.dismissed).not.toBeNull();
  });

  it('with pay after review on, a flagged response stays pending (never approved automatically)', async () => {
    const { survey, ngozi } = await setup();
    await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${survey.id}/settings`, payload: { payAfterReview: true } });
    const id = await respond(ngozi, survey.id, { [LOCATION]: '6.5, 3.3 (±800 m)' });
    await drain();
    const d = await detail(id);
    expect(d.status).toBe('pending');
    expect(d.flags).toHaveLength(1);
    const queue = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${survey.id}?status=pending&flagged=true` });
    expect(queue.json().responses.map((r: { _id: string }) => r._id)).toEqual([id]);
  });
});
