import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditAction, OfficeRole, PERSONAL_MASK, QuestionType, type StoredQuestion } from '@survey-bird/contracts';
import { addMember, addOfficeUser, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, lastMail, type TestApp } from '../../../test/helpers.js';
import { startS3 } from '../../../test/s3-server.js';
import { tinyJpeg } from '../../../test/images.js';
import { FileStores, type StoreKind } from '../files/store/index.js';

const questions: StoredQuestion[] = [
  { id: 'name', text: 'Respondent name', type: QuestionType.text, compulsory: true, options: [], personal: true },
  { id: 'phone', text: 'Phone', type: QuestionType.phone, compulsory: false, options: [], personal: true },
  { id: 'kind', text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Supermarket'] },
  { id: 'photo', text: 'Shelf photo', type: QuestionType.image, compulsory: false, options: [] },
  { id: 'where', text: 'Where', type: QuestionType.liveLocation, compulsory: false, options: [] },
];

/** The texts no masked reader may see: the name, the phone, the location. */
const SECRETS = ['Amina Yusuf', '+2348031234567', '6.524379'];

function multipart(fields: Record<string, string>, data: Buffer) {
  const boundary = `----sb${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="Shelf photo"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every text in a download: a zip's (xlsx, Stata, SPSS) entries unpacked, else the body. */
async function textOf(body: Buffer): Promise<string> {
  if (body[0] !== 0x50 || body[1] !== 0x4b) return body.toString('utf8');
  const zip = await JSZip.loadAsync(body);
  const texts = await Promise.all(Object.values(zip.files).filter((f) => !f.dir).map((f) => f.async('string')));
  return texts.join('\n');
}

async function setup(t: TestApp) {
  const org = await createOrganization(t.app, 'Privacy Org');
  const survey = await createSurvey(t.app, org.id, { title: 'Household panel', questions });
  const fu = await addMember(t.app, survey.id, org.id, { fullName: 'Tunde Field', rate: 500 });
  const upload = await call(t.app, fu.token, { method: 'POST', url: '/api/v1/files/image', ...multipart({ question: 'Shelf photo', survey_name: survey.id, organization_name: org.id, clientId: randomUUID() }, tinyJpeg()) });
  expect(upload.statusCode, upload.body).toBe(200);
  const photo = upload.json()['Shelf photo'] as string;
  const response = await addResponse(t.app, fu, { id: survey.id, organizationId: org.id }, {
    answers: { 'Respondent name': 'Amina Yusuf', Phone: '+2348031234567', 'Outlet type': 'Kiosk', 'Shelf photo': photo, Where: '6.524379, 3.379206 (±12 m)' },
    rate: 500, paid: true,
  });
  return { org, survey, fu, photo, photoId: photo.split('/').pop()!, response };
}

describe('personal data masked for analysts', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof setup>>;
  let analyst: Awaited<ReturnType<typeof addOfficeUser>>;
  beforeAll(async () => {
    t = await buildTestApp();
    s = await setup(t);
    analyst = await addOfficeUser(t.app, s.org.id, OfficeRole.analyst);
  });
  afterAll(() => t.close());

  it('masks the table, the search results, the detail and the changes feed for an analyst, not for the owner', async () => {
    const table = await call(t.app, analyst.token, { method: 'GET', url: `/api/v1/survey/organization/response/${s.survey.id}` });
    expect(table.statusCode).toBe(200);
    const row = table.json().responses[0];
    expect(row.answers).toMatchObject({ 'Respondent name': PERSONAL_MASK, Phone: PERSONAL_MASK, 'Outlet type': 'Kiosk', 'Shelf photo': PERSONAL_MASK, Where: PERSONAL_MASK });
    for (const secret of SECRETS) expect(table.body).not.toContain(secret);

    const searched = await call(t.app, analyst.token, { method: 'GET', url: `/api/v1/survey/organization/response/${s.survey.id}?searchQuery=kiosk` });
    expect(searched.json().responses).toHaveLength(1);
    for (const secret of SECRETS) expect(searched.body).not.toContain(secret);

    const detail = await call(t.app, analyst.token, { method: 'GET', url: `/api/v1/responses/${s.response.id}` });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ hiddenPersonal: true, answers: { 'Respondent name': PERSONAL_MASK, 'Outlet type': 'Kiosk' } });
    for (const secret of [...SECRETS, s.photoId]) expect(detail.body).not.toContain(secret);

    const feed = await call(t.app, analyst.token, { method: 'GET', url: `/api/v1/survey/${s.survey.id}/responses` });
    expect(feed.json().responses[0].answers['Respondent name']).toBe(PERSONAL_MASK);
    for (const secret of SECRETS) expect(feed.body).not.toContain(secret);

    const owner = await call(t.app, s.org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${s.survey.id}` });
    expect(owner.json().responses[0].answers).toMatchObject({ 'Respondent name': 'Amina Yusuf', Phone: '+2348031234567' });
    const ownerDetail = await call(t.app, s.org.token, { method: 'GET', url: `/api/v1/responses/${s.response.id}` });
    expect(ownerDetail.json()).toMatchObject({ hiddenPersonal: false, answers: { 'Respondent name': 'Amina Yusuf' } });
    const ownerFeed = await call(t.app, s.org.token, { method: 'GET', url: `/api/v1/survey/${s.survey.id}/responses?withoutPersonal=true` });
    expect(ownerFeed.json().responses[0].answers.Phone).toBe(PERSONAL_MASK);
  });

  it('keeps personal answers out of the payloads of a webhook made without personal data', async () => {
    const made = await call(t.app, s.org.token, { method: 'POST', url: `/api/v1/survey/${s.survey.id}/webhooks`, payload: { url: 'https://hooks.example/privacy', events: ['response.created'], withoutPersonal: true } });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().webhook.withoutPersonal).toBe(true);
    // The payload a delivery sends (webhooks/service.ts) is the feed's response, masked for such a webhook.
    const masked = await t.app.services.insight.changedResponse(s.response.id, true);
    expect(masked?.answers).toMatchObject({ 'Respondent name': PERSONAL_MASK, Phone: PERSONAL_MASK, 'Outlet type': 'Kiosk' });
    expect((await t.app.services.insight.changedResponse(s.response.id, false))?.answers['Respondent name']).toBe('Amina Yusuf');
  });

  for (const format of ['xlsx', 'csv', 'stata', 'spss', 'geojson', 'kml']) {
    it(`masks every personal answer in the ${format} export for an analyst and without personal data, and keeps them for the owner`, async () => {
      const url = `/api/v1/survey/organization/response/download/${s.survey.id}?format=${format}`;
      const asAnalyst = await call(t.app, analyst.token, { method: 'GET', url });
      expect(asAnalyst.statusCode, asAnalyst.body.slice(0, 200)).toBe(200);
      const masked = await textOf(asAnalyst.rawPayload);
      for (const secret of [...SECRETS, s.photoId]) expect(masked).not.toContain(secret);
      // A map layer has no point once the location is hidden (no feature at all); the tabular formats say what was hidden.
      if (format === 'geojson') expect(JSON.parse(masked).features).toEqual([]);
      else if (format === 'kml') expect(masked).not.toContain('<Placemark');
      else {
        expect(masked).toContain(PERSONAL_MASK);
        expect(masked).toContain('Kiosk');
      }

      const without = await textOf((await call(t.app, s.org.token, { method: 'GET', url: `${url}&withoutPersonal=true` })).rawPayload);
      for (const secret of SECRETS) expect(without).not.toContain(secret);

      const full = await textOf((await call(t.app, s.org.token, { method: 'GET', url })).rawPayload);
      expect(full).toContain(format === 'geojson' || format === 'kml' ? '6.524379' : 'Amina Yusuf');
      // Three exports, each two threads compiling from source: tens of seconds on a busy 2-core machine.
    }, 180_000);
  }

  it('marks questions personal through the settings (every other one, photos included, becomes not personal) and refuses an unknown id', async () => {
    const other = await createSurvey(t.app, s.org.id, { title: 'Marks', questions });
    const res = await call(t.app, s.org.token, { method: 'PATCH', url: `/api/v1/survey/${other.id}/settings`, payload: { personalQuestionIds: ['phone'], retentionDays: 30 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ personalQuestionIds: ['phone'], retentionDays: 30 });
    const audit = await t.app.db.kysely.selectFrom('audit_events').select(['before', 'after']).where('survey_id', '=', other.id).where('action', '=', AuditAction.surveySettings).executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after!)).toMatchObject({ personalQuestionIds: 'phone', retentionDays: 30 });
    const bad = await call(t.app, s.org.token, { method: 'PATCH', url: `/api/v1/survey/${other.id}/settings`, payload: { personalQuestionIds: ['nope'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('nope');
    const byAnalyst = await call(t.app, analyst.token, { method: 'PATCH', url: `/api/v1/survey/${other.id}/settings`, payload: { personalQuestionIds: [] } });
    expect(byAnalyst.statusCode).toBe(403);
  });

  it('carries the mark through an XLSForm export and import (the personal column)', async () => {
    const exported = await call(t.app, s.org.token, { method: 'GET', url: `/api/v1/survey/${s.survey.id}/xlsform` });
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('survey')!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    expect(header).toContain('personal');
    const boundary = `----sb${randomUUID()}`;
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="form.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`), exported.rawPayload, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const imported = await call(t.app, s.org.token, { method: 'POST', url: '/api/v1/survey/import-xlsform', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(imported.statusCode, imported.body).toBe(200);
    const draft = imported.json().draft.questions as StoredQuestion[];
    expect(draft.find((q) => q.text === 'Respondent name')?.personal).toBe(true);
    expect(draft.find((q) => q.text === 'Outlet type')?.personal).toBeUndefined();
  }, 120_000);
});

for (const kind of ['disk', 'postgres', 's3'] as StoreKind[]) {
  describe(`erasure with the ${kind} file store`, () => {
    let t: TestApp;
    let s3: Awaited<ReturnType<typeof startS3>> | undefined;
    beforeAll(async () => {
      if (kind === 's3') s3 = await startS3();
      t = await buildTestApp({ fileStore: kind, ...(s3 ? { s3: s3.config } : {}) });
    });
    afterAll(async () => {
      await t.close();
      await s3?.close();
    });

    it("removes the response's personal answers and photo bytes, keeps the other answers and the money, and audits who erased it and why", async () => {
      const s = await setup(t);
      const file = await t.app.db.kysely.selectFrom('files').selectAll().where('id', '=', s.photoId).executeTakeFirstOrThrow();
      expect(file.store).toBe(kind);
      const store = new FileStores(t.config, t.app.db).get(kind);
      expect(await store.open(file)).toBeDefined();
      const before = await t.app.db.kysely.selectFrom('responses').select(['rate', 'paid_at', 'search_text']).where('id', '=', s.response.id).executeTakeFirstOrThrow();
      expect(before.search_text).toContain('amina');

      const res = await call(t.app, s.org.token, { method: 'POST', url: `/api/v1/responses/${s.response.id}/erase`, payload: { reason: 'The respondent asked by phone' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ erasedFiles: 1 });
      expect(res.json().erasedQuestions).toEqual(expect.arrayContaining(['Respondent name', 'Phone', 'Shelf photo', 'Where']));

      const after = await t.app.db.kysely.selectFrom('responses').selectAll().where('id', '=', s.response.id).executeTakeFirstOrThrow();
      expect(JSON.parse(after.answers)).toEqual({ 'Outlet type': 'Kiosk' });
      for (const secret of ['amina', '8031234567', '6.524379']) expect(after.search_text).not.toContain(secret);
      expect(Number(after.rate)).toBe(500);
      expect(Number(after.paid_at)).toBe(Number(before.paid_at));
      expect(after.erased_at).not.toBeNull();
      // The bytes are gone from the store itself, and the row naming them.
      expect(await t.app.db.kysely.selectFrom('files').select('id').where('id', '=', s.photoId).executeTakeFirst()).toBeUndefined();
      expect(await store.open(file)).toBeUndefined();
      if (kind === 'disk') expect(existsSync(join(t.config.dataDir, file.path))).toBe(false);
      if (kind === 'postgres') expect(await t.app.db.kysely.selectFrom('file_blobs').select('file_id').where('file_id', '=', s.photoId).executeTakeFirst()).toBeUndefined();
      const photo = await call(t.app, s.fu.token, { method: 'GET', url: `/api/v1/files/image/${s.photoId}` });
      expect(photo.statusCode).toBe(404);

      const event = await t.app.db.kysely.selectFrom('audit_events').selectAll().where('action', '=', AuditAction.eraseResponse).where('target_id', '=', s.response.id).executeTakeFirstOrThrow();
      expect(event.actor_email).toBe(s.org.email);
      expect(JSON.parse(event.after!)).toEqual({ reason: 'The respondent asked by phone' });
      expect(JSON.parse(event.before!)).toMatchObject({ files: 1 });

      const detail = await call(t.app, s.org.token, { method: 'GET', url: `/api/v1/responses/${s.response.id}` });
      expect(detail.json()).toMatchObject({ paid: true, answers: { 'Outlet type': 'Kiosk' } });
      expect(detail.json().erasedAt).toBeTruthy();
    });
  });
}

describe('erasure access, respondent search and subject access', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    t = await buildTestApp();
    s = await setup(t);
  });
  afterAll(() => t.close());

  it('lets only an owner or admin of the organization erase, with a reason', async () => {
    for (const role of [OfficeRole.analyst, OfficeRole.reviewer, OfficeRole.finance]) {
      const u = await addOfficeUser(t.app, s.org.id, role);
      const res = await call(t.app, u.token, { method: 'POST', url: `/api/v1/responses/${s.response.id}/erase`, payload: { reason: 'asked' } });
      expect(res.statusCode, role).toBe(403);
    }
    const stranger = await createOrganization(t.app, 'Other Org');
    const other = await call(t.app, stranger.token, { method: 'POST', url: `/api/v1/responses/${s.response.id}/erase`, payload: { reason: 'asked' } });
    expect(other.statusCode).toBe(404);
    const noReason = await call(t.app, s.org.token, { method: 'POST', url: `/api/v1/responses/${s.response.id}/erase`, payload: { reason: ' ' } });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().msg).toBe('Give the reason for the erasure');
    const limited = await addOfficeUser(t.app, s.org.id, OfficeRole.admin, []);
    expect((await call(t.app, limited.token, { method: 'POST', url: `/api/v1/responses/${s.response.id}/erase`, payload: { reason: 'asked' } })).statusCode).toBe(404);
  });

  it('finds a respondent by name and by the phone number as dialled locally, and exports everything about them as xlsx', async () => {
    const byPhone = await call(t.app, s.org.token, { method: 'GET', url: '/api/v1/respondents?search=0803%20123%204567' });
    expect(byPhone.statusCode, byPhone.body).toBe(200);
    expect(byPhone.json()).toMatchObject({ totalCount: 1, responses: [{ _id: s.response.id, surveyTitle: 'Household panel', fieldUser: 'Tunde Field', paid: true }] });
    expect(byPhone.json().responses[0].matched).toEqual(['Phone: +2348031234567']);
    const byName = await call(t.app, s.org.token, { method: 'GET', url: '/api/v1/respondents?search=amina' });
    expect(byName.json().totalCount).toBe(1);
    // The field user's own name is no respondent's.
    expect((await call(t.app, s.org.token, { method: 'GET', url: '/api/v1/respondents?search=tunde' })).json().totalCount).toBe(0);
    expect((await call(t.app, s.org.token, { method: 'GET', url: '/api/v1/respondents?search=am' })).statusCode).toBe(400);

    const file = await call(t.app, s.org.token, { method: 'GET', url: '/api/v1/respondents/download?search=amina' });
    expect(file.statusCode).toBe(200);
    const text = await textOf(file.rawPayload);
    expect(text).toContain('Amina Yusuf');
    expect(text).toContain('+2348031234567');
    expect(await t.app.db.kysely.selectFrom('audit_events').select('id').where('action', '=', AuditAction.exportRespondent).executeTakeFirst()).toBeDefined();
  });

  it("gives a field user everything held about them: account, bank details, earnings, responses", async () => {
    const res = await call(t.app, s.fu.token, { method: 'GET', url: '/api/v1/me/data' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      account: { email: s.fu.email },
      memberships: [{ survey_id: s.survey.id, bank: 'Zenith Bank', accountNumber: '0123456789', phoneNumber: '08030000000', rate: 500 }],
      earnings: { responses: 1, paid: 500, owed: 0 },
      responses: [{ _id: s.response.id, paid: true, amount: 500 }],
    });
    expect((await call(t.app, s.org.token, { method: 'GET', url: '/api/v1/me/data' })).statusCode).toBe(403);
  });

  it('retention: warns a week before, then erases every response of a closed survey, logged in the audit', async () => {
    const day = 86_400_000;
    const closedAt = Date.now() - 25 * day;
    await t.app.db.kysely.updateTable('surveys').set({ closed_at: closedAt, retention_days: 30 }).where('id', '=', s.survey.id).execute();
    const { privacy } = t.app.services;
    expect(await privacy.retention(closedAt + 20 * day)).toEqual({ warned: 0, erased: 0 });
    expect(await privacy.retention(closedAt + 24 * day)).toEqual({ warned: 1, erased: 0 });
    expect(await privacy.retention(closedAt + 25 * day)).toEqual({ warned: 0, erased: 0 });
    const mail = await lastMail(t.app, (await t.app.db.kysely.selectFrom('organizations').select('email').where('id', '=', s.org.id).executeTakeFirstOrThrow()).email);
    expect(mail?.subject).toContain('Household panel');
    expect(await privacy.retention(closedAt + 30 * day)).toEqual({ warned: 0, erased: 1 });
    const row = await t.app.db.kysely.selectFrom('responses').select(['answers', 'paid_at']).where('id', '=', s.response.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.answers)).toEqual({ 'Outlet type': 'Kiosk' });
    expect(row.paid_at).not.toBeNull();
    expect(await t.app.db.kysely.selectFrom('files').select('id').where('id', '=', s.photoId).executeTakeFirst()).toBeUndefined();
    const event = await t.app.db.kysely.selectFrom('audit_events').selectAll().where('action', '=', AuditAction.retentionErase).executeTakeFirstOrThrow();
    expect(event.actor_email).toBe('system');
    // Done once: the next day's run finds nothing to do.
    expect(await privacy.retention(closedAt + 31 * day)).toEqual({ warned: 0, erased: 0 });
  });
});
