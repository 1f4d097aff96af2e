import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, ResponseStatus, Role } from '@survey-bird/contracts';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

/**
 * Review: an organization reviews any response of its surveys, a supervisor only those of the
 * field users assigned to them (others: 404), everybody else 403; paid responses never change.
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string; organizationId: string };
let sup: Awaited<ReturnType<typeof addMember>>;
let wrongSup: Awaited<ReturnType<typeof addMember>>;
let ada: Awaited<ReturnType<typeof addMember>>;
let bayo: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Review Org');
  other = await createOrganization(t.app, 'Other Org');
  survey = { id: (await createSurvey(t.app, org.id)).id, organizationId: org.id };
  sup = await addMember(t.app, survey.id, org.id, { role: Role.supervisor, fullName: 'Sup Ada' });
  wrongSup = await addMember(t.app, survey.id, org.id, { role: Role.supervisor, fullName: 'Sup Other' });
  ada = await addMember(t.app, survey.id, org.id, { fullName: 'Ada Obi', rate: 100, supervisorId: sup.id });
  bayo = await addMember(t.app, survey.id, org.id, { fullName: 'Bayo Ade', rate: 100, supervisorId: wrongSup.id });
});
afterAll(() => t.close());

const review = (token: string | null, body: object) => call(t.app, token, { method: 'POST', url: '/api/v1/responses/review', payload: body });
const statusOf = async (id: string) => (await t.app.db.kysely.selectFrom('responses').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describe('pay after review', () => {
  const questions = [{ text: 'Name', type: QuestionType.text, compulsory: true, options: [] }];
  it('is off by default (responses approved on receipt), set at creation and changed with PATCH settings', async () => {
    const created = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Reviewed', questions, payAfterReview: true } });
    expect(created.statusCode).toBe(200);
    expect(created.json().survey.payAfterReview).toBe(true);
    const id = created.json().survey._id as string;
    const fu = await addMember(t.app, id, org.id, { rate: 50 });
    const send = (clientId: string) => call(t.app, fu.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: id, organization_id: org.id, answers: { Name: 'x' }, clientId } });
    const first = await send('5b0c2f9e-8a41-4c6e-9f3a-000000000001');
    expect(first.statusCode).toBe(200);
    expect(await statusOf(first.json()._id)).toBe(ResponseStatus.pending);

    const off = await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${id}/settings`, payload: { payAfterReview: false } });
    expect(off.json()).toEqual({ msg: 'Settings saved', payAfterReview: false, closed: false, minDurationSeconds: null, maxAccuracyMeters: null, photoQuality: 'standard', personalQuestionIds: expect.any(Array), retentionDays: null, audioAudit: null, payGate: { approved: false, audioReviewed: false, backcheck: false }, backcheck: { percent: 10, minPerWeek: 0, includeFlagged: false, threshold: 20, autoReturn: false, stableQuestionIds: [] }, encryptionKey: null });
    const second = await send('5b0c2f9e-8a41-4c6e-9f3a-000000000002');
    expect(await statusOf(second.json()._id)).toBe(ResponseStatus.approved);

    const plain = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Plain', questions } });
    expect(plain.json().survey.payAfterReview).toBe(false);
  });

  it('PATCH settings: another organization gets 404, a supervisor 403, a non-boolean 400', async () => {
    const url = `/api/v1/survey/${survey.id}/settings`;
    expect((await call(t.app, other.token, { method: 'PATCH', url, payload: { payAfterReview: true } })).statusCode).toBe(404);
    expect((await call(t.app, sup.token, { method: 'PATCH', url, payload: { payAfterReview: true } })).statusCode).toBe(403);
    for (const bad of ['true', 1, null, []]) {
      const res = await call(t.app, org.token, { method: 'PATCH', url, payload: { payAfterReview: bad } });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe('payAfterReview must be true or false');
    }
  });
});

describe('POST /responses/review', () => {
  it('an organization approves, returns (comment required) and rejects (reason required), each id answered', async () => {
    const [a, b, c] = [await addResponse(t.app, ada, survey, { status: 'pending', rate: 100 }), await addResponse(t.app, ada, survey, { status: 'pending' }), await addResponse(t.app, bayo, survey, { status: 'pending' })];
    const noComment = await review(org.token, { responseIds: [a.id], status: 'returned' });
    expect(noComment.statusCode).toBe(400);
    expect(noComment.json().msg).toMatch(/comment is required/);
    expect((await review(org.token, { responseIds: [a.id], status: 'rejected', comment: '  ' })).statusCode).toBe(400);

    const res = await review(org.token, { responseIds: [a.id, b.id, 'no-such-id'], status: 'approved' });
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toEqual([
      { _id: a.id, status: 200, msg: 'Response approved', reviewStatus: 'approved' },
      { _id: b.id, status: 200, msg: 'Response approved', reviewStatus: 'approved' },
      { _id: 'no-such-id', status: 404, msg: 'Response not found' },
    ]);
    const ret = await review(org.token, { responseIds: [c.id], status: 'returned', comment: 'Photo is blurred' });
    expect(ret.json().results[0]).toMatchObject({ status: 200, reviewStatus: 'returned' });
    const rej = await review(org.token, { responseIds: [c.id], status: 'rejected', comment: 'Invented outlet' });
    expect(rej.json().results[0]).toMatchObject({ status: 200, reviewStatus: 'rejected' });
    const again = await review(org.token, { responseIds: [c.id], status: 'approved' });
    expect(again.json().results[0]).toEqual({ _id: c.id, status: 409, msg: 'This response was rejected; a rejection is final' });

    const detail = await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${c.id}` });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ _id: c.id, status: 'rejected', comment: 'Invented outlet', paid: false, fieldUser: { fullName: 'Bayo Ade' } });
    expect(detail.json().audit.map((x: { from: string; to: string; comment: string | null; role: string; by: string }) => [x.from, x.to, x.comment, x.role, x.by])).toEqual([
      ['pending', 'returned', 'Photo is blurred', Role.organization, 'Review Org'],
      ['returned', 'rejected', 'Invented outlet', Role.organization, 'Review Org'],
    ]);
  });

  it('a supervisor reviews only their assigned field users; others 404; field users 403; other organizations 404', async () => {
    const mine = await addResponse(t.app, ada, survey, { status: 'pending' });
    const notMine = await addResponse(t.app, bayo, survey, { status: 'pending' });
    const res = await review(sup.token, { responseIds: [mine.id, notMine.id], status: 'approved' });
    expect(res.json().results.map((r: { status: number }) => r.status)).toEqual([200, 404]);
    expect(await statusOf(notMine.id)).toBe('pending');
    const wrong = await review(wrongSup.token, { responseIds: [mine.id], status: 'returned', comment: 'x' });
    expect(wrong.json().results[0].status).toBe(404);
    expect((await call(t.app, wrongSup.token, { method: 'GET', url: `/api/v1/responses/${mine.id}` })).statusCode).toBe(404);
    expect((await review(ada.token, { responseIds: [mine.id], status: 'approved' })).statusCode).toBe(403);
    expect((await review(other.token, { responseIds: [notMine.id], status: 'approved' })).json().results[0].status).toBe(404);
    expect(await statusOf(notMine.id)).toBe('pending');
    const audit = await call(t.app, sup.token, { method: 'GET', url: `/api/v1/responses/${mine.id}` });
    expect(audit.json().audit).toEqual([expect.objectContaining({ from: 'pending', to: 'approved', role: Role.supervisor, by: 'Sup Ada' })]);
  });

  it('a withdrawn supervisor reviews and sees nothing any more (404)', async () => {
    const s4 = { id: (await createSurvey(t.app, org.id, { title: 'Withdrawn' })).id, organizationId: org.id };
    const gone = await addMember(t.app, s4.id, org.id, { role: Role.supervisor, fullName: 'Gone Sup' });
    const fu = await addMember(t.app, s4.id, org.id, { fullName: 'Left Behind', supervisorId: gone.id });
    const r = await addResponse(t.app, fu, s4, { status: 'pending' });
    expect((await call(t.app, gone.token, { method: 'GET', url: `/api/v1/responses/${r.id}` })).statusCode).toBe(200);
    await t.app.db.kysely.updateTable('members').set({ withdrawn_at: Date.now() }).where('id', '=', gone.id).execute();
    expect((await review(gone.token, { responseIds: [r.id], status: 'approved' })).json().results[0].status).toBe(404);
    expect((await review(gone.token, { survey_id: s4.id, status: 'approved' })).statusCode).toBe(404);
    expect((await call(t.app, gone.token, { method: 'GET', url: `/api/v1/responses/${r.id}` })).statusCode).toBe(404);
    expect(await statusOf(r.id)).toBe('pending');
  });

  it('a paid response cannot be returned (409), and the reply says why', async () => {
    const paid = await addResponse(t.app, ada, survey, { paid: true });
    const res = await review(org.token, { responseIds: [paid.id], status: 'returned', comment: 'too late' });
    expect(res.json().results[0]).toEqual({ _id: paid.id, status: 409, msg: 'This response has been paid; a paid response cannot change status' });
    expect(await statusOf(paid.id)).toBe('approved');
  });

  it('refuses more than 500 ids and an unknown status', async () => {
    const ids = Array.from({ length: 501 }, (_, i) => `id-${i}`);
    expect((await review(org.token, { responseIds: ids, status: 'approved' })).json().msg).toBe('At most 500 responses per review');
    expect((await review(org.token, { responseIds: ['x'], status: 'paid' })).statusCode).toBe(400);
    expect((await review(org.token, { responseIds: ['x'], status: 'pending' })).statusCode).toBe(400);
  });

  it('bulk by search: every pending response of the survey matching the search, not just a page', async () => {
    const s2 = { id: (await createSurvey(t.app, org.id, { title: 'Bulk' })).id, organizationId: org.id };
    const fu = await addMember(t.app, s2.id, org.id, { fullName: 'Bulk Person' });
    const kiosks = [];
    for (let i = 0; i < 25; i++) kiosks.push(await addResponse(t.app, fu, s2, { status: 'pending', answers: { 'Name of outlet': `Kiosk ${i}`, 'Outlet type': 'Kiosk' } }));
    const shop = await addResponse(t.app, fu, s2, { status: 'pending', answers: { 'Name of outlet': 'Big shop', 'Outlet type': 'Supermarket' } });
    const done = await addResponse(t.app, fu, s2, { status: 'approved', answers: { 'Name of outlet': 'Kiosk old', 'Outlet type': 'Kiosk' } });
    const res = await review(org.token, { survey_id: s2.id, searchQuery: 'kiosk', status: 'approved' });
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toHaveLength(25);
    for (const k of kiosks) expect(await statusOf(k.id)).toBe('approved');
    expect(await statusOf(shop.id)).toBe('pending');
    expect(await statusOf(done.id)).toBe('approved');
    expect((await review(other.token, { survey_id: s2.id, status: 'approved' })).statusCode).toBe(404);
    expect((await review(org.token, { survey_id: s2.id, responseIds: [shop.id], status: 'approved' })).statusCode).toBe(400);
  });
});

describe('weekly amount chart', () => {
  it('counts approved responses only when the survey pays after review; all of them otherwise', async () => {
    const s3 = { id: (await createSurvey(t.app, org.id, { title: 'Chart' })).id, organizationId: org.id };
    const fu = await addMember(t.app, s3.id, org.id, { rate: 100 });
    for (const status of ['approved', 'pending', 'returned']) await addResponse(t.app, fu, s3, { rate: 100, status });
    const start = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const end = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const week = async () => {
      const days = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/by-weeks/${s3.id}?startDate=${encodeURIComponent(start)}&endDate=${encodeURIComponent(end)}` })).json() as { value: number; amount: number }[];
      return { value: days.reduce((n, d) => n + d.value, 0), amount: days.reduce((n, d) => n + d.amount, 0) };
    };
    expect(await week()).toEqual({ value: 3, amount: 300 });
    await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${s3.id}/settings`, payload: { payAfterReview: true } });
    expect(await week()).toEqual({ value: 3, amount: 100 });
  });
});
