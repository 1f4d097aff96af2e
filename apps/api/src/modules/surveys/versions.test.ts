import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Msg, QuestionType, Role } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { QUALITY_HEADER } from '../insight/workbook.js';
import { CLOSE_CLOCK_SKEW_MS } from '../responses/capture-window.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Versioned Org');
  other = await createOrganization(t.app, 'Other Org');
});
afterAll(() => t.close());

const text = (q: string, compulsory = false) => ({ text: q, type: QuestionType.text, compulsory });
const v1 = [text('Name of outlet', true), { text: 'Outlet type', type: QuestionType.select, compulsory: false, options: ['Kiosk', 'Shop'] }, text('Fridge count')];
const v2 = [{ text: 'Outlet type', type: QuestionType.select, compulsory: false, options: ['Kiosk', 'Shop', 'Supermarket'] }, text('Name of outlet', true), text('Owner phone')];

async function publish(title: string, questions: object[] = v1) {
  const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title, questions } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().survey as { _id: string; version: number; closed: boolean };
}
const put = (id: string, payload: object, token = org.token) => call(t.app, token, { method: 'PUT', url: `/api/v1/survey/${id}`, payload });
const settings = (id: string, payload: object, token = org.token) => call(t.app, token, { method: 'PATCH', url: `/api/v1/survey/${id}/settings`, payload });

async function fieldUser(surveyId: string) {
  return addMember(t.app, surveyId, org.id, { fullName: 'Ada Field' });
}
const respond = (token: string, body: object) => call(t.app, token, { method: 'POST', url: '/api/v1/survey/respond', payload: body });
const sync = (token: string, responses: object[]) => call(t.app, token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses } });

describe('PUT /survey/:id publishes the next version', () => {
  it('keeps every version; replies and lists carry version and closed', async () => {
    const survey = await publish('Outlets v');
    expect(survey).toMatchObject({ version: 1, closed: false });
    const res = await put(survey._id, { title: 'Outlets (fixed)', description: 'Now with phones', questions: v2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ msg: ApiMsg.newVersionPublished, survey: { _id: survey._id, title: 'Outlets (fixed)', version: 2, closed: false } });
    expect(res.json().survey.questions.map((q: { text: string }) => q.text)).toEqual(['Outlet type', 'Name of outlet', 'Owner phone']);
    const third = await put(survey._id, { title: 'Outlets (fixed)', questions: v2.slice(0, 2) });
    expect(third.json().survey.version).toBe(3);

    const versions = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${survey._id}/versions` });
    expect(versions.statusCode).toBe(200);
    expect(versions.json()).toMatchObject({ page: 1, totalCount: 3, hasNextPage: false, expectedResponseCount: null });
    expect(versions.json().versions.map((v: { version: number; title: string; questions: unknown[] }) => [v.version, v.title, v.questions.length])).toEqual([[3, 'Outlets (fixed)', 2], [2, 'Outlets (fixed)', 3], [1, 'Outlets v', 3]]);
    const listed = (await call(t.app, org.token, { method: 'GET', url: '/api/v1/survey/organization?searchQuery=Outlets (fixed)' })).json();
    expect(listed.survey[0]).toMatchObject({ _id: survey._id, version: 3, closed: false, closedAt: null });
  });

  it('a survey stored without its version row lists its current form as that version, and editing it publishes the next', async () => {
    const survey = await publish('Older outlets');
    await t.app.db.kysely.deleteFrom('survey_versions').where('survey_id', '=', survey._id).execute();
    const listed = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${survey._id}/versions` })).json();
    expect(listed).toMatchObject({ totalCount: 1, versions: [{ version: 1, title: 'Older outlets' }] });
    expect(listed.versions[0].questions.length).toBeGreaterThan(0);
    expect((await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${survey._id}/versions?page=2` })).json().versions).toEqual([]);
    expect((await put(survey._id, { title: 'Older outlets', questions: v2 })).json().survey.version).toBe(2);
    const after = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${survey._id}/versions` })).json();
    expect(after.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });

  it("another organization's survey is not found; supervisors and field users are refused", async () => {
    const survey = await publish('Guarded');
    const sup = await addMember(t.app, survey._id, org.id, { role: Role.supervisor });
    const fu = await fieldUser(survey._id);
    const body = { title: 'Hijacked', questions: v2 };
    expect((await put(survey._id, body, other.token)).statusCode).toBe(404);
    expect((await put(survey._id, body, other.token)).json()).toMatchObject({ msg: ApiMsg.surveyNotFound });
    expect((await put(survey._id, body, sup.token!)).statusCode).toBe(403);
    expect((await put(survey._id, body, fu.token!)).statusCode).toBe(403);
    expect((await call(t.app, other.token, { method: 'GET', url: `/api/v1/survey/${survey._id}/versions` })).statusCode).toBe(404);
    expect((await settings(survey._id, { closed: true }, other.token)).statusCode).toBe(404);
    const row = await t.app.db.kysely.selectFrom('surveys').select(['title', 'version', 'closed_at']).where('id', '=', survey._id).executeTakeFirstOrThrow();
    expect(row).toEqual({ title: 'Guarded', version: 1, closed_at: null });
  });

  it('validates the body as create does', async () => {
    const survey = await publish('Validated');
    const res = await put(survey._id, { title: 'Validated', questions: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: 'Add at least one question' });
  });
});

describe('responses on older versions', () => {
  it('a response queued on version 1 answering a question removed in version 2 is accepted, and checked against version 1', async () => {
    const survey = await publish('Fridges');
    const fu = await fieldUser(survey._id);
    const queuedAt = Date.now();
    expect((await put(survey._id, { title: 'Fridges', questions: v2 })).statusCode).toBe(200);

    const old = { survey_id: survey._id, organization_id: org.id, version: 1, answers: { 'Name of outlet': 'Mama Put', 'Fridge count': '2' } };
    const single = await respond(fu.token!, { ...old, clientId: uuidv7(queuedAt) });
    expect(single.statusCode, single.body).toBe(200);
    const batch = await sync(fu.token!, [{ ...old, clientId: uuidv7(queuedAt + 1) }, { ...old, version: 2, clientId: uuidv7(queuedAt + 2) }, { ...old, version: 9, clientId: uuidv7(queuedAt + 3) }]);
    expect(batch.json().results.map((r: { status: number; msg: string }) => [r.status, r.msg])).toEqual([
      [200, Msg.responseSent],
      [400, '"Fridge count" is not a question of this survey'],
      [400, ApiMsg.unknownSurveyVersion],
    ]);
    // No version = 1 (a phone from before versions): version 1's rules still apply.
    const bare = await respond(fu.token!, { survey_id: survey._id, organization_id: org.id, answers: { 'Name of outlet': 'Bare', 'Fridge count': '1' } });
    expect(bare.statusCode, bare.body).toBe(200);
    const latest = await respond(fu.token!, { survey_id: survey._id, organization_id: org.id, version: 2, answers: { 'Name of outlet': 'New', 'Owner phone': '08030000000' } });
    expect(latest.statusCode, latest.body).toBe(200);
    const stored = await t.app.db.kysely.selectFrom('responses').select(['version']).where('survey_id', '=', survey._id).orderBy('version').execute();
    expect(stored.map((r) => r.version)).toEqual([1, 1, 1, 2]);
  });

  it('a fix of a version 1 response made on the version 2 form is checked against version 2, and the response moves to version 2', async () => {
    const survey = await publish('Fixed after an edit');
    const fu = await fieldUser(survey._id);
    const sent = await respond(fu.token!, { survey_id: survey._id, organization_id: org.id, version: 1, clientId: uuidv7(), answers: { 'Name of outlet': 'Mama Pt', 'Fridge count': '2' } });
    expect(sent.statusCode, sent.body).toBe(200);
    const id = sent.json()._id as string;
    const returned = await call(t.app, org.token, { method: 'POST', url: '/api/v1/responses/review', payload: { responseIds: [id], status: 'returned', comment: 'Spelling' } });
    expect(returned.json().results[0].status).toBe(200);
    expect((await put(survey._id, { title: 'Fixed after an edit', questions: v2 })).statusCode).toBe(200);

    const fix = { survey_id: survey._id, organization_id: org.id, revisionOf: id, answers: { 'Name of outlet': 'Mama Put', 'Owner phone': '08030000000' } };
    // Checked against the version it names: version 1 has no owner's phone.
    const onOld = await respond(fu.token!, { ...fix, version: 1, clientId: uuidv7() });
    expect([onOld.statusCode, onOld.json().msg]).toEqual([400, '"Owner phone" is not a question of this survey']);
    const onNew = await respond(fu.token!, { ...fix, version: 2, clientId: uuidv7() });
    expect(onNew.statusCode, onNew.body).toBe(200);
    const row = await t.app.db.kysely.selectFrom('responses').select(['version', 'revision']).where('id', '=', id).executeTakeFirstOrThrow();
    expect([Number(row.version), Number(row.revision)]).toEqual([2, 2]);
  });

  it('the export holds every version\'s columns (latest order, removed after) and a Version column', async () => {
    const survey = await publish('Export versions');
    const fu = await fieldUser(survey._id);
    await respond(fu.token!, { survey_id: survey._id, organization_id: org.id, version: 1, answers: { 'Name of outlet': 'Old One', 'Outlet type': 'Kiosk', 'Fridge count': '3' } });
    await put(survey._id, { title: 'Export versions', questions: v2 });
    await respond(fu.token!, { survey_id: survey._id, organization_id: org.id, version: 2, answers: { 'Name of outlet': 'New One', 'Outlet type': 'Supermarket', 'Owner phone': '=cmd' } });
    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${survey._id}` });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Responses')!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['S/N', 'Field user', 'Field user email', 'Captured at', 'Received at', 'Version', 'Revision', 'Status', 'Reviewed by', 'Reviewed at', 'Payout reference', 'Outlet type', 'Name of outlet', 'Owner phone', 'Fridge count', ...QUALITY_HEADER]);
    // Version, then the revision and review cells, then one column per question across the versions.
    expect([...values(2).slice(5, 7), ...values(2).slice(11, 15)]).toEqual([2, 1, 'Supermarket', 'New One', "'=cmd", 'N/A']);
    expect([...values(3).slice(5, 7), ...values(3).slice(11, 15)]).toEqual([1, 1, 'Kiosk', 'Old One', 'N/A', '3']);
  });
});

describe('stable question ids', () => {
  it('a renamed question keeps its id and its one export column; a question without an id keeps the id of the same text', async () => {
    const survey = await publish('Renames');
    const ids = (survey as unknown as { questions: { id: string; text: string }[] }).questions.map((q) => q.id);
    const fu = await fieldUser(survey._id);
    await respond(fu.token!, { survey_id: survey._id, organization_id: org.id, answers: { 'Name of outlet': 'Before rename' } });
    const renamed = await put(survey._id, { title: 'Renames', questions: [{ ...text('Outlet name', true), id: ids[0] }, { text: 'Outlet type', type: QuestionType.select, compulsory: false, options: ['Kiosk', 'Shop'] }, text('Brand new')] });
    const questions = renamed.json().survey.questions as { id: string; text: string }[];
    expect(questions[0]).toMatchObject({ id: ids[0], text: 'Outlet name' });
    expect(questions[1]!.id).toBe(ids[1]);
    expect(ids).not.toContain(questions[2]!.id);
    await respond(fu.token!, { survey_id: survey._id, organization_id: org.id, version: 2, answers: { 'Outlet name': 'After rename' } });
    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${survey._id}` });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Responses')!;
    expect((sheet.getRow(1).values as unknown[]).slice(12, 16)).toEqual(['Outlet name', 'Outlet type', 'Brand new', 'Fridge count']);
    expect([sheet.getRow(2).getCell(12).value, sheet.getRow(3).getCell(12).value]).toEqual(['After rename', 'Before rename']);
  });
});

describe('the table and the detail view resolve answers as the export does', () => {
  it('a version 1 answer to a question renamed in version 2 sits under the new name, with no orphan key; a removed question keeps its own', async () => {
    const survey = await publish('Renamed in table');
    const ids = (survey as unknown as { questions: { id: string }[] }).questions.map((q) => q.id);
    const fu = await fieldUser(survey._id);
    const sup = await addMember(t.app, survey._id, org.id, { role: Role.supervisor });
    await t.app.db.kysely.updateTable('members').set({ supervisor_id: sup.id }).where('id', '=', fu.id).execute();
    const old = await respond(fu.token!, { survey_id: survey._id, organization_id: org.id, version: 1, answers: { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk', 'Fridge count': '2' } });
    expect(old.statusCode, old.body).toBe(200);
    const v2renamed = [{ ...text('Outlet name', true), id: ids[0] }, { text: 'Kind of outlet', type: QuestionType.select, compulsory: false, options: ['Kiosk', 'Shop'], id: ids[1] }];
    expect((await put(survey._id, { title: 'Renamed in table', questions: v2renamed })).statusCode).toBe(200);
    const fresh = await respond(fu.token!, { survey_id: survey._id, organization_id: org.id, version: 2, answers: { 'Outlet name': 'New Shop', 'Kind of outlet': 'Shop' } });
    expect(fresh.statusCode, fresh.body).toBe(200);

    const expected = { 'Outlet name': 'Mama Put', 'Kind of outlet': 'Kiosk', 'Fridge count': '2' };
    for (const [token, url] of [[org.token, `/api/v1/survey/organization/response/${survey._id}`], [sup.token!, `/api/v1/supervisor/response/${survey._id}`]] as const) {
      const list = await call(t.app, token, { method: 'GET', url });
      expect(list.statusCode, list.body).toBe(200);
      const rows = list.json().responses as { _id: string; answers: Record<string, string> }[];
      expect(rows.find((r) => r._id === old.json()._id)?.answers).toEqual(expected);
      expect(rows.find((r) => r._id === fresh.json()._id)?.answers).toEqual({ 'Outlet name': 'New Shop', 'Kind of outlet': 'Shop' });
    }
    const detail = await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${old.json()._id}` });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().answers).toEqual(expected);
    expect(detail.json().revisions.map((r: { answers: object }) => r.answers)).toEqual([expected]);
  });
});

describe('closing a survey', () => {
  it('refuses new responses with 403, but takes those made on the phone before the close', async () => {
    const survey = await publish('Closing soon');
    const fu = await fieldUser(survey._id);
    const body = { survey_id: survey._id, organization_id: org.id, answers: { 'Name of outlet': 'Before' } };
    const madeBefore = uuidv7(Date.now() - 60_000);
    const madeBeforeToo = uuidv7(Date.now() - 30_000);

    const closed = await settings(survey._id, { closed: true });
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toEqual({ msg: 'Settings saved', payAfterReview: false, closed: true, minDurationSeconds: null, maxAccuracyMeters: null, photoQuality: 'standard', personalQuestionIds: expect.any(Array), retentionDays: null, audioAudit: null, payGate: { approved: false, audioReviewed: false, backcheck: false }, backcheck: { percent: 10, minPerWeek: 0, includeFlagged: false, threshold: 20, autoReturn: false, stableQuestionIds: [] }, encryptionKey: null });
    const seen = (await call(t.app, fu.token!, { method: 'GET', url: '/api/v1/survey/field-user' })).json().survey.find((s: { _id: string }) => s._id === survey._id);
    expect(seen).toMatchObject({ closed: true });
    expect(typeof seen.closedAt).toBe('string');

    const fresh = await respond(fu.token!, body);
    expect(fresh.statusCode).toBe(403);
    expect(fresh.json()).toMatchObject({ msg: Msg.surveyClosed });
    const after = await respond(fu.token!, { ...body, clientId: uuidv7(Date.now() + CLOSE_CLOCK_SKEW_MS + 60_000) });
    expect(after.json()).toMatchObject({ msg: Msg.surveyClosed });
    const v4 = await respond(fu.token!, { ...body, clientId: '3b241101-e2bb-4255-8caf-4136c566a962' });
    expect(v4.statusCode).toBe(403);

    const offline = await respond(fu.token!, { ...body, clientId: madeBefore });
    expect(offline.statusCode, offline.body).toBe(200);
    const batch = await sync(fu.token!, [{ ...body, clientId: madeBeforeToo }, { ...body, clientId: uuidv7(Date.now() + CLOSE_CLOCK_SKEW_MS + 60_000) }]);
    expect(batch.json().results.map((r: { status: number }) => r.status)).toEqual([200, 403]);

    // Closing again keeps the first close time; reopening takes new responses again.
    const first = await t.app.db.kysely.selectFrom('surveys').select('closed_at').where('id', '=', survey._id).executeTakeFirstOrThrow();
    await settings(survey._id, { closed: true });
    expect(await t.app.db.kysely.selectFrom('surveys').select('closed_at').where('id', '=', survey._id).executeTakeFirstOrThrow()).toEqual(first);
    expect((await settings(survey._id, { closed: false })).json()).toEqual({ msg: 'Settings saved', payAfterReview: false, closed: false, minDurationSeconds: null, maxAccuracyMeters: null, photoQuality: 'standard', personalQuestionIds: expect.any(Array), retentionDays: null, audioAudit: null, payGate: { approved: false, audioReviewed: false, backcheck: false }, backcheck: { percent: 10, minPerWeek: 0, includeFlagged: false, threshold: 20, autoReturn: false, stableQuestionIds: [] }, encryptionKey: null });
    expect((await respond(fu.token!, body)).statusCode).toBe(200);
  });

  it('a settings body must say something', async () => {
    const survey = await publish('Empty settings');
    const res = await settings(survey._id, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/payAfterReview, closed, minDurationSeconds, maxAccuracyMeters, photoQuality, personalQuestionIds, retentionDays, audioAudit, payGate, backcheck or encryptionKey/);
  });
});
