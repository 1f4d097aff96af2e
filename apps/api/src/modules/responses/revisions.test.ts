import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { ReturnDigest } from '../earnings/return-digest.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string; organizationId: string };
let ada: Awaited<ReturnType<typeof addMember>>;
let bayo: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Revisions Org');
  survey = { id: (await createSurvey(t.app, org.id)).id, organizationId: org.id };
  ada = await addMember(t.app, survey.id, org.id, { fullName: 'Ada Fix', rate: 150 });
  bayo = await addMember(t.app, survey.id, org.id, { fullName: 'Bayo Other', rate: 150 });
  expect((await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${survey.id}/settings`, payload: { payAfterReview: true } })).statusCode).toBe(200);
});
afterAll(() => t.close());

const respond = (token: string, answers: Record<string, string | string[]>, extra: Record<string, unknown> = {}) =>
  call(t.app, token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: survey.id, organization_id: org.id, answers, clientId: uuidv7(), ...extra } });
const sync = (token: string, items: object[]) => call(t.app, token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: items } });
const review = (ids: string[], status: string, comment?: string) => call(t.app, org.token, { method: 'POST', url: '/api/v1/responses/review', payload: { responseIds: ids, status, ...(comment ? { comment } : {}) } });
const detail = async (id: string) => (await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${id}` })).json();

/** An original response of Ada's, returned with a comment. */
async function returned(name: string): Promise<string> {
  const sent = await respond(ada.token!, { 'Name of outlet': name, 'Outlet type': 'Kiosk' });
  expect(sent.statusCode).toBe(200);
  const id = sent.json()._id as string;
  expect((await review([id], 'returned', 'The outlet name is misspelt')).json().results[0].status).toBe(200);
  return id;
}

describe('fix and resubmit', () => {
  it('stores a revision once, sets the response back to pending, and keeps every revision', async () => {
    const id = await returned('Mama Pt');
    const fix = { survey_id: survey.id, organization_id: org.id, answers: { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' }, clientId: uuidv7(), revisionOf: id };
    const first = await call(t.app, ada.token, { method: 'POST', url: '/api/v1/survey/respond', payload: fix });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ msg: 'response sent!', _id: id, clientId: fix.clientId });
    // A replay (the reply was lost), alone and through the batch route: the same answer, no second revision.
    expect((await call(t.app, ada.token, { method: 'POST', url: '/api/v1/survey/respond', payload: fix })).json()).toEqual(first.json());
    expect((await sync(ada.token!, [fix])).json().results).toEqual([{ clientId: fix.clientId, status: 200, msg: 'response sent!', _id: id }]);
    expect((await t.app.db.kysely.selectFrom('response_revisions').select('revision').where('response_id', '=', id).orderBy('revision').execute()).map((r) => r.revision)).toEqual([1, 2]);

    const d = await detail(id);
    expect(d).toMatchObject({ status: 'pending', revision: 2, answers: fix.answers, comment: null });
    expect(d.revisions.map((r: { revision: number; status: string; answers: Record<string, string> }) => [r.revision, r.status, r.answers['Name of outlet']])).toEqual([[1, 'returned', 'Mama Pt'], [2, 'pending', 'Mama Put']]);
    expect(d.audit.map((a: { from: string; to: string; role: string }) => [a.from, a.to, a.role])).toEqual([['pending', 'returned', 'organization'], ['returned', 'pending', 'field_user']]);

    // The changes feed tells the phone: revision 2, pending.
    const feed = (await call(t.app, ada.token, { method: 'GET', url: '/api/v1/me/responses/changes' })).json();
    expect(feed.changes.find((c: { _id: string }) => c._id === id)).toMatchObject({ status: 'pending', revision: 2 });

    // Approved and fixed again: no longer returned, so a further fix is a 409; the old replay still answers 200.
    await review([id], 'approved');
    const again = await respond(ada.token!, { 'Name of outlet': 'Mama Put 2', 'Outlet type': 'Kiosk' }, { revisionOf: id });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('Only a response returned to you for fixing can be sent again');
    expect((await call(t.app, ada.token, { method: 'POST', url: '/api/v1/survey/respond', payload: fix })).statusCode).toBe(200);
  });

  it('answers 404 to another field user and 409 to a response never returned or a reused key', async () => {
    const id = await returned('Shop A');
    // The feed carries a returned response's answers, so a phone without it can open it for fixing.
    const feed = (await call(t.app, ada.token, { method: 'GET', url: '/api/v1/me/responses/changes' })).json();
    expect(feed.changes.find((c: { _id: string }) => c._id === id)).toMatchObject({ status: 'returned', comment: 'The outlet name is misspelt', answers: { 'Name of outlet': 'Shop A', 'Outlet type': 'Kiosk' } });
    expect(feed.changes.filter((c: { status: string; answers?: unknown }) => c.status !== 'returned' && c.answers !== undefined)).toEqual([]);
    const other = await respond(bayo.token!, { 'Name of outlet': 'Shop A fixed', 'Outlet type': 'Kiosk' }, { revisionOf: id });
    expect(other.statusCode).toBe(404);
    expect((await respond(ada.token!, { 'Name of outlet': 'x', 'Outlet type': 'Kiosk' }, { revisionOf: uuidv7() })).statusCode).toBe(404);

    const pending = (await respond(ada.token!, { 'Name of outlet': 'Shop B', 'Outlet type': 'Kiosk' })).json();
    const notReturned = await respond(ada.token!, { 'Name of outlet': 'Shop B fixed', 'Outlet type': 'Kiosk' }, { revisionOf: pending._id });
    expect(notReturned.statusCode).toBe(409);
    // The original's own clientId cannot name a fix.
    expect((await respond(ada.token!, { 'Name of outlet': 'Shop A', 'Outlet type': 'Kiosk' }, { revisionOf: id, clientId: pending.clientId })).statusCode).toBe(409);
    // The same fix key with another body: 409, never a second revision.
    const key = uuidv7();
    expect((await respond(ada.token!, { 'Name of outlet': 'Shop A fixed', 'Outlet type': 'Kiosk' }, { revisionOf: id, clientId: key })).statusCode).toBe(200);
    expect((await respond(ada.token!, { 'Name of outlet': 'Shop A other', 'Outlet type': 'Kiosk' }, { revisionOf: id, clientId: key })).statusCode).toBe(409);
    // The batch route answers each item on its own.
    const batch = (await sync(bayo.token!, [{ survey_id: survey.id, organization_id: org.id, answers: { 'Name of outlet': 'y', 'Outlet type': 'Kiosk' }, clientId: uuidv7(), revisionOf: id }])).json();
    expect(batch.results[0].status).toBe(404);
  });

  it('lets one of two racing fixes win and stores a fix sent twice at once once', async () => {
    const id = await returned('Race Shop');
    const body = (name: string, clientId = uuidv7()) => ({ survey_id: survey.id, organization_id: org.id, answers: { 'Name of outlet': name, 'Outlet type': 'Kiosk' }, clientId, revisionOf: id });
    const post = (payload: object) => call(t.app, ada.token, { method: 'POST', url: '/api/v1/survey/respond', payload });
    const racing = await Promise.all([post(body('Race Shop A')), post(body('Race Shop B'))]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await detail(id)).revisions).toHaveLength(2);

    await review([id], 'returned', 'Still wrong');
    const same = body('Race Shop C');
    const twice = await Promise.all([post(same), post(same), sync(ada.token!, [same])]);
    expect(twice.slice(0, 2).map((r) => r.statusCode)).toEqual([200, 200]);
    expect(twice[2].json().results[0].status).toBe(200);
    const d = await detail(id);
    expect(d.revisions.map((r: { revision: number }) => r.revision)).toEqual([1, 2, 3]);
    expect(d).toMatchObject({ revision: 3, status: 'pending', answers: { 'Name of outlet': 'Race Shop C' } });
  });

  it('keeps lists, counts, cards and the export on the latest revision, one response each', async () => {
    const s = { id: (await createSurvey(t.app, org.id)).id, organizationId: org.id };
    const cleo = await addMember(t.app, s.id, org.id, { fullName: 'Cleo Count', rate: 200 });
    const sent = (await call(t.app, cleo.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: s.id, organization_id: org.id, answers: { 'Name of outlet': 'Old name', 'Outlet type': 'Kiosk' }, clientId: uuidv7() } })).json();
    await review([sent._id], 'returned', 'Wrong name');
    const fixed = await call(t.app, cleo.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: [{ survey_id: s.id, organization_id: org.id, answers: { 'Name of outlet': 'New name', 'Outlet type': 'Kiosk' }, clientId: uuidv7(), revisionOf: sent._id }] } });
    expect(fixed.json().results[0]).toMatchObject({ status: 200, _id: sent._id });
    // Pay after review is off on this survey: the fix arrives approved.
    expect((await detail(sent._id)).status).toBe('approved');

    const list = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${s.id}` })).json();
    expect(list.responses.map((r: { answers: Record<string, string> }) => r.answers['Name of outlet'])).toEqual(['New name']);
    expect(list.totalCount).toBe(1);
    const found = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${s.id}?searchQuery=new%20name` })).json();
    expect(found.responses).toHaveLength(1);
    const cards = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/top-performer/${s.id}` })).json();
    expect(cards).toMatchObject({ totalResponses: 1, activeFieldUsers: 1 });
    const users = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/field-user/${s.id}` })).json();
    expect(users.fieldUsers[0]).toMatchObject({ responses: 1, outstanding: 200 });

    const xlsx = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${s.id}` });
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.actualRowCount).toBe(2);
    expect(sheet.getRow(1).getCell(7).value).toBe('Revision');
    expect(sheet.getRow(2).getCell(7).value).toBe(2);
    // After the version and the revision: status, reviewed by, reviewed at, payout reference, then the questions.
    expect(sheet.getRow(2).getCell(12).value).toBe('New name');
  });

  it('mails a field user at most once a day when responses were returned, and again after a restart', async () => {
    const k = t.app.db.kysely;
    const s = { id: (await createSurvey(t.app, org.id)).id, organizationId: org.id };
    const dede = await addMember(t.app, s.id, org.id, { fullName: 'Dede Digest', rate: 10 });
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) ids.push((await call(t.app, dede.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: s.id, organization_id: org.id, answers: { 'Name of outlet': name, 'Outlet type': 'Kiosk' }, clientId: uuidv7() } })).json()._id);
    await review(ids, 'returned', 'Add the photo');
    const mails = () => k.selectFrom('mail_outbox').select(['subject']).where('to_email', '=', dede.email).execute();

    const now = Date.now();
    expect(await new ReturnDigest(k, t.app.mailer).run(now)).toBeGreaterThanOrEqual(1);
    expect(await mails()).toEqual([{ subject: 'Survey Bird: 3 responses need a fix' }]);
    // The same day, another run or another instance: nothing more, even after a new return.
    expect(await new ReturnDigest(k, t.app.mailer).run(now + 60_000)).toBe(0);
    const more = (await call(t.app, dede.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: s.id, organization_id: org.id, answers: { 'Name of outlet': 'Four', 'Outlet type': 'Kiosk' }, clientId: uuidv7() } })).json()._id;
    await review([more], 'returned', 'Add the photo');
    expect(await new ReturnDigest(k, t.app.mailer).run(now + 120_000)).toBe(0);
    expect(await mails()).toHaveLength(1);

    // The next day: one more mail, for all four. A claim left unmailed (a run stopped before
    // sending) is sent by the next run, once.
    const tomorrow = now + 24 * 3_600_000;
    await k.insertInto('return_digests').values({ user_id: dede.userId!, day: new Date(tomorrow).toISOString().slice(0, 10), returned: 4, created_at: tomorrow, mailed_at: null }).execute();
    expect(await new ReturnDigest(k, t.app.mailer).run(tomorrow + 1000)).toBe(1);
    expect(await new ReturnDigest(k, t.app.mailer).run(tomorrow + 2000)).toBe(0);
    expect((await mails()).map((m) => m.subject)).toEqual(['Survey Bird: 3 responses need a fix', 'Survey Bird: 4 responses need a fix']);
  });

  it("keeps a fixed response's capture time at or before its receipt: the original's, the fix's own on its revision", async () => {
    const capturedAt = Date.now() - 3_600_000;
    const sent = await respond(ada.token!, { 'Name of outlet': 'Mama Pt', 'Outlet type': 'Kiosk' }, { capturedAt: new Date(capturedAt).toISOString() });
    const id = sent.json()._id as string;
    await review([id], 'returned', 'Misspelt');
    const fixedAt = Date.now();
    expect((await respond(ada.token!, { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' }, { revisionOf: id, capturedAt: new Date(fixedAt).toISOString() })).statusCode).toBe(200);
    const row = await t.app.db.kysely.selectFrom('responses').select(['captured_at', 'created_at', 'revision']).where('id', '=', id).executeTakeFirstOrThrow();
    expect({ captured: Number(row.captured_at), revision: Number(row.revision) }).toEqual({ captured: capturedAt, revision: 2 });
    expect(Number(row.captured_at)).toBeLessThanOrEqual(Number(row.created_at));
    const revisions = await t.app.db.kysely.selectFrom('response_revisions').select(['revision', 'captured_at']).where('response_id', '=', id).orderBy('revision').execute();
    expect(revisions.map((r) => [Number(r.revision), Number(r.captured_at)])).toEqual([[1, capturedAt], [2, fixedAt]]);
    const listed = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${id}` })).json();
    expect(Date.parse(listed.meta.capturedAt)).toBeLessThanOrEqual(Date.parse(listed.createdAt));
  });

  it('stores a capture time sent from a phone clock running ahead as the receipt time, never after it', async () => {
    const ahead = Date.now() + 3_600_000;
    const sent = await respond(ada.token!, { 'Name of outlet': 'Fast clock', 'Outlet type': 'Kiosk' }, { capturedAt: new Date(ahead).toISOString() });
    const row = await t.app.db.kysely.selectFrom('responses').select(['captured_at', 'created_at', 'meta']).where('id', '=', sent.json()._id).executeTakeFirstOrThrow();
    expect(Number(row.captured_at)).toBe(Number(row.created_at));
    expect(JSON.parse(row.meta!)).toMatchObject({ capturedAfterArrival: ahead });
  });

  it('keeps photo addresses out of the search text of an original and of its fix', async () => {
    const photo = 'http://localhost:3000/api/v1/files/image/AbCdEfGhIjKlMnOp';
    const sent = await respond(ada.token!, { 'Name of outlet': 'Photo Shop', 'Outlet type': 'Kiosk', 'Shelf photo': photo });
    expect(sent.statusCode, sent.body).toBe(200);
    const id = sent.json()._id as string;
    const searchText = async () => (await t.app.db.kysely.selectFrom('responses').select('search_text').where('id', '=', id).executeTakeFirstOrThrow()).search_text;
    expect(await searchText()).not.toContain('files/image');
    await review([id], 'returned', 'Wrong name');
    expect((await respond(ada.token!, { 'Name of outlet': 'Photo Shop Fixed', 'Outlet type': 'Kiosk', 'Shelf photo': photo }, { revisionOf: id })).statusCode).toBe(200);
    const fixed = await searchText();
    expect(fixed).toContain('photo shop fixed');
    expect(fixed).not.toContain('files/image');
    expect(fixed).not.toContain('localhost');
  });
});
