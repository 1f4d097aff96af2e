import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SurveyChangesReply } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Feed Org');
});
afterAll(() => t.close());

async function page(surveyId: string, since?: string, limit = 1000): Promise<SurveyChangesReply> {
  const query = new URLSearchParams({ limit: String(limit), ...(since ? { since } : {}) });
  const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${surveyId}/responses?${query}` });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return res.json<SurveyChangesReply>();
}

/** Reads the feed from `since` to its end, `limit` a page; answers the ids in order and the last cursor. */
async function drain(surveyId: string, since: string | undefined, limit: number) {
  const ids: string[] = [];
  let cursor = since;
  for (;;) {
    const p = await page(surveyId, cursor, limit);
    ids.push(...p.responses.map((r) => r._id));
    cursor = p.nextCursor;
    if (!p.hasMore) return { ids, cursor };
  }
}

/**
 * Like drain, reading again until `want` changes came: on PostgreSQL a change waits while any
 * transaction of the database that began before it is still open (the app's own workers included),
 * so it may come a read later. More than `want`, or a repeat, fails the test all the same.
 */
async function settled(surveyId: string, since: string | undefined, want: number, limit = 1000) {
  const ids: string[] = [];
  let cursor = since;
  for (let attempt = 0; attempt < 200 && ids.length < want; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25));
    const more = await drain(surveyId, cursor, limit);
    ids.push(...more.ids);
    cursor = more.cursor;
  }
  return { ids, cursor: cursor! };
}

async function setup() {
  const survey = await createSurvey(t.app, org.id);
  const fu = await addMember(t.app, survey.id, org.id, { fullName: 'Feed Worker', rate: 50 });
  const add = (i: number) => addResponse(t.app, fu, { id: survey.id, organizationId: org.id }, { answers: { 'Name of outlet': `Outlet ${i}` }, createdAt: Date.UTC(2026, 10, 1) + i, email: fu.email });
  return { survey, fu, add };
}

describe('survey changes feed', () => {
  it('gives every response once, oldest change first, in pages, and the same cursor when nothing changed', async () => {
    const { survey, add } = await setup();
    const made: string[] = [];
    for (let i = 0; i < 25; i++) made.push((await add(i)).id);
    const all = await settled(survey.id, undefined, 25, 10);
    expect(all.ids).toEqual(made);
    const first = await page(survey.id, undefined, 10);
    expect(first.responses).toHaveLength(10);
    expect(first.hasMore).toBe(true);
    expect(first.responses[0]).toMatchObject({ _id: made[0], survey_id: survey.id, fullName: 'Feed Worker', status: 'approved', revision: 1, version: 1, paid: false, answers: { 'Name of outlet': 'Outlet 0' } });
    const rest = await drain(survey.id, first.nextCursor, 10);
    expect([...first.responses.map((r) => r._id), ...rest.ids]).toEqual(made);
    const idle = await page(survey.id, rest.cursor);
    expect(idle).toEqual({ responses: [], nextCursor: rest.cursor, hasMore: false });
  });

  it('gives a response again after it is reviewed, revised or paid, and not before', async () => {
    const { survey, add } = await setup();
    const [a, b, c] = [await add(1), await add(2), await add(3)];
    const start = await settled(survey.id, undefined, 3);
    expect(start.ids).toEqual([a.id, b.id, c.id]);

    const review = await call(t.app, org.token, { method: 'POST', url: '/api/v1/responses/review', payload: { responseIds: [b.id], status: 'returned', comment: 'Blurred' } });
    expect(review.statusCode).toBe(200);
    const reviewed = await settled(survey.id, start.cursor, 1);
    expect(reviewed.ids).toEqual([b.id]);
    expect((await page(survey.id, start.cursor)).responses.map((r) => [r._id, r.status, r.reviewComment])).toEqual([[b.id, 'returned', 'Blurred']]);

    await t.app.db.kysely.updateTable('responses').set({ revision: 2, answers: JSON.stringify({ 'Name of outlet': 'Fixed' }) }).where('id', '=', b.id).execute();
    expect((await settled(survey.id, reviewed.cursor, 1)).ids).toEqual([b.id]);
    const revised = await page(survey.id, reviewed.cursor);
    expect(revised.responses.map((r) => [r._id, r.revision, r.answers['Name of outlet']])).toEqual([[b.id, 2, 'Fixed']]);

    // Search text or photos changing is no change a mirror needs.
    await t.app.db.kysely.updateTable('responses').set({ search_text: 'x' }).where('id', '=', c.id).execute();
    expect((await page(survey.id, revised.nextCursor)).responses).toEqual([]);

    await t.app.db.kysely.updateTable('responses').set({ rate: 50 }).where('id', 'in', [a.id, c.id]).execute();
    const payout = await call(t.app, org.token, { method: 'POST', url: '/api/v1/payouts', payload: { survey_id: survey.id, key: randomUUID() } });
    expect(payout.statusCode, payout.body).toBe(200);
    // A draft payout changes nothing the feed shows; marking it paid does.
    expect((await page(survey.id, revised.nextCursor)).responses).toEqual([]);
    const paid = await call(t.app, org.token, { method: 'POST', url: `/api/v1/payouts/${payout.json<{ payout: { _id: string } }>().payout._id}/paid`, payload: { reference: 'TRF 1' } });
    expect(paid.statusCode).toBe(200);
    expect((await settled(survey.id, revised.nextCursor, 2)).ids.sort()).toEqual([a.id, c.id].sort());
    const afterPay = await page(survey.id, revised.nextCursor);
    expect(afterPay.responses.map((r) => [r._id, r.paid]).sort()).toEqual([[a.id, true], [c.id, true]].sort());
  });

  it('misses and repeats nothing while responses arrive during paging', async () => {
    const { survey, add } = await setup();
    const made = new Set<string>();
    for (let i = 0; i < 20; i++) made.add((await add(i)).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let n = 20;
    // Each page is read while a few inserts run at once beside it.
    for (let round = 0; round < 12; round++) {
      const inserts = Array.from({ length: 4 }, () => add(n++).then((r) => made.add(r.id)));
      const [p] = await Promise.all([page(survey.id, cursor, 7), ...inserts]);
      seen.push(...p.responses.map((r) => r._id));
      cursor = p.nextCursor;
    }
    seen.push(...(await settled(survey.id, cursor, made.size - seen.length, 7)).ids);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(made);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL, holds back a change committed after a slower one that began first, then gives both', async () => {
    const { survey, fu, add } = await setup();
    const base = await settled(survey.id, undefined, 0);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const slowId = randomUUID();
    // The slow transaction writes first (the lower transaction id) and commits last.
    const slow = t.app.db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('responses').values({
        id: slowId, client_id: randomUUID(), survey_id: survey.id, organization_id: org.id, member_id: fu.id, user_id: fu.userId!, answers: '{}', body_hash: slowId, search_text: '', rate: 0, paid_at: null, captured_at: null, created_at: Date.now(), review_comment: null, reviewed_by: null, reviewed_at: null, changed_at: null, pending_photos: null,
      }).execute();
      entered();
      await held;
    });
    await inside;
    const fast = await add(99);
    const during = await page(survey.id, base.cursor);
    expect(during.responses.map((r) => r._id)).not.toContain(fast.id);
    release();
    await slow;
    const after = await settled(survey.id, during.nextCursor, 2 - during.responses.length);
    expect([...during.responses.map((r) => r._id), ...after.ids].sort()).toEqual([slowId, fast.id].sort());
  });

  it('refuses a cursor it did not give, in words', async () => {
    const { survey } = await setup();
    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${survey.id}/responses?since=yesterday` });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('since must be a cursor this route gave');
  });
});
