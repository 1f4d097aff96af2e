import { randomUUID } from 'node:crypto';
import { Limits, type MyResponse } from '@survey-bird/contracts';
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

describe("the field user's own responses (the Earnings list)", () => {
  it("lists every one of the caller's responses the cards count, newest first, paged, with each time for what it is; never another field user's", async () => {
    const other = { id: (await createSurvey(t.app, org.id)).id, organizationId: org.id };
    const cleo = await addMember(t.app, survey.id, org.id, { fullName: 'Cleo', rate: 150 });
    const dayo = await addMember(t.app, survey.id, org.id, { fullName: 'Dayo', rate: 150 });
    // Never reviewed (pending, or approved on arrival where the survey does not review): absent from the changes feed.
    const base = Date.parse('2026-11-20T08:00:00.000Z');
    const made: { id: string }[] = [];
    for (let i = 0; i < Limits.pageSize + 3; i++) {
      made.push(await addResponse(t.app, cleo, i % 2 ? survey : other, { rate: 150, status: i % 3 ? 'pending' : 'approved', createdAt: base + i * 60_000, capturedAt: base + i * 60_000 - 5_000 }));
    }
    await addResponse(t.app, dayo, survey, { rate: 999, status: 'pending' });
    await post('/api/v1/responses/review', { responseIds: [made[1]!.id], status: 'returned', comment: 'Retake the photo' });
    expect((await get(cleo.token, '/api/v1/me/responses/changes')).json().changes).toHaveLength(1);

    const first = (await get(cleo.token, '/api/v1/me/responses')).json();
    expect(first).toMatchObject({ page: 1, totalCount: Limits.pageSize + 3, hasNextPage: true, hasPreviousPage: false });
    expect(first.responses).toHaveLength(Limits.pageSize);
    const second = (await get(cleo.token, '/api/v1/me/responses?page=2')).json();
    expect(second).toMatchObject({ page: 2, hasNextPage: false, hasPreviousPage: true });
    const all: MyResponse[] = [...first.responses, ...second.responses];
    expect(all.map((r) => r._id)).toEqual(made.map((r) => r.id).reverse());

    // The list adds up to the cards, bucket by bucket.
    const cards = (await get(cleo.token, '/api/v1/me/earnings')).json();
    const sum = (status: string) => all.filter((r) => r.status === status && !r.paid).reduce((n, r) => ({ count: n.count + 1, amount: n.amount + r.amount }), { count: 0, amount: 0 });
    expect([sum('pending'), sum('approved'), sum('returned')]).toEqual([cards.awaitingReview, cards.owed, cards.returned]);

    const returned = all.find((r) => r._id === made[1]!.id)!;
    expect(returned).toMatchObject({ status: 'returned', comment: 'Retake the photo', amount: 150, paid: false, paidAt: null, submittedAt: new Date(base + 60_000).toISOString(), capturedAt: new Date(base + 55_000).toISOString() });
    expect(Date.parse(returned.reviewedAt!)).toBeGreaterThan(base);
    expect(all.find((r) => r._id === made[2]!.id)).toMatchObject({ status: 'pending', reviewedAt: null });

    expect((await get(dayo.token, '/api/v1/me/responses')).json()).toMatchObject({ totalCount: 1, responses: [{ amount: 999 }] });
    expect((await get(org.token, '/api/v1/me/responses')).statusCode).toBe(403);
    expect((await get(cleo.token, '/api/v1/me/responses?page=0')).json()).toMatchObject({ msg: 'page must be a positive whole number' });
  });
});
