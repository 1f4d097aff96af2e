import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string; organizationId: string };
let ada: Awaited<ReturnType<typeof addMember>>;
let bayo: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Earnings Org');
  survey = { id: (await createSurvey(t.app, org.id)).id, organizationId: org.id };
  ada = await addMember(t.app, survey.id, org.id, { fullName: 'Ada', rate: 100 });
  bayo = await addMember(t.app, survey.id, org.id, { fullName: 'Bayo', rate: 100 });
});
afterAll(() => t.close());

const get = (token: string | null, url: string) => call(t.app, token, { method: 'GET', url });
const post = (url: string, payload?: object) => call(t.app, org.token, { method: 'POST', url, ...(payload ? { payload } : {}) });

describe('the field user\'s changes feed and earnings', () => {
  it('reports reviews and payment as changes after the cursor, only the caller\'s, and totals by status', async () => {
    const [a1, a2, a3, a4] = [await addResponse(t.app, ada, survey, { rate: 100, status: 'pending' }), await addResponse(t.app, ada, survey, { rate: 100, status: 'pending' }), await addResponse(t.app, ada, survey, { rate: 100, status: 'pending' }), await addResponse(t.app, ada, survey, { rate: 100, status: 'pending' })];
    await addResponse(t.app, bayo, survey, { rate: 100, status: 'pending' });
    const first = (await get(ada.token, '/api/v1/me/responses/changes')).json();
    expect(first).toEqual({ changes: [], cursor: '0_', hasMore: false });

    await post('/api/v1/responses/review', { responseIds: [a1.id, a2.id], status: 'approved' });
    await post('/api/v1/responses/review', { responseIds: [a3.id], status: 'returned', comment: 'Retake the shelf photo' });
    const second = (await get(ada.token, `/api/v1/me/responses/changes?since=${first.cursor}`)).json();
    expect(second.changes.map((c: { _id: string; status: string; comment: string | null; paid: boolean }) => [c._id, c.status, c.comment, c.paid]).sort()).toEqual([
      [a1.id, 'approved', null, false], [a2.id, 'approved', null, false], [a3.id, 'returned', 'Retake the shelf photo', false],
    ].sort());
    expect((await get(ada.token, `/api/v1/me/responses/changes?since=${second.cursor}`)).json().changes).toEqual([]);
    expect((await get(bayo.token, '/api/v1/me/responses/changes')).json().changes).toEqual([]);

    const payout = (await post('/api/v1/payouts', { survey_id: survey.id, key: randomUUID() })).json().payout;
    await post(`/api/v1/payouts/${payout._id}/paid`, { reference: 'TRF-9' });
    const third = (await get(ada.token, `/api/v1/me/responses/changes?since=${second.cursor}`)).json();
    expect(third.changes.map((c: { _id: string; paid: boolean }) => [c._id, c.paid]).sort()).toEqual([[a1.id, true], [a2.id, true]].sort());

    const earnings = (await get(ada.token, '/api/v1/me/earnings')).json();
    expect(earnings).toMatchObject({ awaitingReview: { count: 1, amount: 100 }, owed: { count: 0, amount: 0 }, paid: { count: 2, amount: 200 }, returned: { count: 1, amount: 100 }, rejected: { count: 0, amount: 0 } });
    expect(earnings.paid.lastPaidAt).not.toBeNull();
    expect(a4).toBeDefined();
  });

  it('refuses a malformed cursor and other roles', async () => {
    expect((await get(ada.token, '/api/v1/me/responses/changes?since=abc')).statusCode).toBe(400);
    expect((await get(org.token, '/api/v1/me/earnings')).statusCode).toBe(403);
  });
});
