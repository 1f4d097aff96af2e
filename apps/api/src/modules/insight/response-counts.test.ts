import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { migrateToLatest, migrationProvider } from '../../db/database.js';

/** response_counts is kept by triggers: after any write it must equal what counting the rows gives. */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Counting Org');
});
afterAll(() => t.close());

const answers = { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' };
type FieldUser = Awaited<ReturnType<typeof addMember>>;
const item = (surveyId: string, clientId = randomUUID()) => ({ survey_id: surveyId, organization_id: org.id, answers, clientId });
const respond = (fu: FieldUser, payload: object) => call(t.app, fu.token, { method: 'POST', url: '/api/v1/survey/respond', payload });
const sync = (fu: FieldUser, responses: object[]) => call(t.app, fu.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses } });

/** "survey member count newest" per (survey, member), from the rows and from the counters. */
async function bothWays(app = t.app): Promise<{ rows: string[]; counters: string[] }> {
  const line = (r: { survey_id: string; member_id: string; n: unknown; last: unknown }) => `${r.survey_id} ${r.member_id} ${Number(r.n)} ${r.last === null ? null : Number(r.last)}`;
  const rows = await sql<{ survey_id: string; member_id: string; n: unknown; last: unknown }>`
    select survey_id, member_id, count(*) as n, max(created_at) as last from responses group by survey_id, member_id`.execute(app.db.kysely);
  const counters = await sql<{ survey_id: string; member_id: string; n: unknown; last: unknown }>`
    select survey_id, member_id, sum(responses) as n, max(last_created_at) as last from response_counts group by survey_id, member_id having sum(responses) <> 0`.execute(app.db.kysely);
  return { rows: rows.rows.map(line).sort(), counters: counters.rows.map(line).sort() };
}

async function expectInStep(app = t.app): Promise<void> {
  const { rows, counters } = await bothWays(app);
  expect(rows.length).toBeGreaterThan(0);
  expect(counters).toEqual(rows);
}

describe('response_counts', () => {
  let surveyId: string;
  let ada: FieldUser;
  let bayo: FieldUser;
  beforeAll(async () => {
    surveyId = (await createSurvey(t.app, org.id)).id;
    ada = await addMember(t.app, surveyId, org.id, { fullName: 'Ada Count' });
    bayo = await addMember(t.app, surveyId, org.id, { fullName: 'Bayo Count' });
  });

  it('counts single posts, concurrent ones included, and not the replays the idempotency key refuses', async () => {
    const first = item(surveyId);
    expect((await respond(ada, first)).statusCode).toBe(200);
    expect((await respond(ada, first)).statusCode).toBe(200);
    expect((await respond(ada, { ...first, answers: { ...answers, 'Outlet type': 'Supermarket' } })).statusCode).toBe(409);
    const raced = item(surveyId);
    const replies = await Promise.all([...Array.from({ length: 20 }, () => respond(ada, item(surveyId))), ...Array.from({ length: 10 }, () => respond(bayo, raced))]);
    expect(replies.every((r) => r.statusCode === 200)).toBe(true);
    await expectInStep();
    const cards = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/top-performer/${surveyId}` })).json();
    expect(cards).toEqual({ topPerformer: 'Ada Count', activeFieldUsers: 2, totalResponses: 22, flaggedResponses: expect.any(Number) });
  });

  it('counts batches, without the duplicates inside a batch or of rows already stored', async () => {
    const stored = item(surveyId);
    expect((await respond(bayo, stored)).statusCode).toBe(200);
    const twice = item(surveyId);
    const batch = [...Array.from({ length: 47 }, () => item(surveyId)), twice, twice, stored];
    const results = await Promise.all([sync(bayo, batch), sync(ada, Array.from({ length: 30 }, () => item(surveyId)))]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    await expectInStep();
    const list = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${surveyId}` })).json();
    expect(list.totalCount).toBe(22 + 1 + 48 + 30);
  });

  it('follows deletes, re-keyed rows and backdated rows, and drops the counters of a deleted member', async () => {
    const k = t.app.db.kysely;
    const other = (await createSurvey(t.app, org.id)).id;
    const cleo = await addMember(t.app, other, org.id, { fullName: 'Cleo Moved' });
    await addResponse(t.app, cleo, { id: other, organizationId: org.id }, { createdAt: Date.now() - 86_400_000 });
    const newest = await k.selectFrom('responses').select('id').where('member_id', '=', ada.id).orderBy('created_at', 'desc').limit(5).execute();
    await k.deleteFrom('responses').where('id', 'in', newest.map((r) => r.id)).execute();
    await expectInStep();
    const some = await k.selectFrom('responses').select('id').where('member_id', '=', bayo.id).limit(3).execute();
    await k.updateTable('responses').set({ member_id: cleo.id, survey_id: other }).where('id', 'in', some.map((r) => r.id)).execute();
    // Ada's newest row moves far back: her newest received time has to be found again.
    const adaNewest = await k.selectFrom('responses').select('id').where('member_id', '=', ada.id).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    await k.updateTable('responses').set({ created_at: 1_000 }).where('id', '=', adaNewest.id).execute();
    await k.updateTable('responses').set({ paid_at: Date.now() }).where('survey_id', '=', surveyId).execute();
    await expectInStep();
    await k.deleteFrom('responses').where('member_id', '=', cleo.id).execute();
    await expectInStep();
    await k.deleteFrom('members').where('id', '=', cleo.id).execute();
    expect(await k.selectFrom('response_counts').select('member_id').where('member_id', '=', cleo.id).execute()).toEqual([]);
  });
});

it('fills the counters from the rows already there when the migration runs', async () => {
  const fresh = await buildTestApp();
  try {
    const o = await createOrganization(fresh.app, 'Backfill Org');
    const s = (await createSurvey(fresh.app, o.id)).id;
    const a = await addMember(fresh.app, s, o.id);
    const b = await addMember(fresh.app, s, o.id);
    const migrator = new Migrator({ db: fresh.app.db.kysely, provider: migrationProvider, ...(fresh.app.db.pgSchema ? { migrationTableSchema: fresh.app.db.pgSchema } : {}) });
    const down = await migrator.migrateTo('20261124000000_deferred_search_index');
    expect(down.error).toBeUndefined();
    for (let i = 0; i < 7; i++) await addResponse(fresh.app, i < 5 ? a : b, { id: s, organizationId: o.id }, { createdAt: Date.now() - i * 1000 });
    await migrateToLatest(fresh.app.db);
    await expectInStep(fresh.app);
    await addResponse(fresh.app, b, { id: s, organizationId: o.id });
    await expectInStep(fresh.app);
  } finally {
    await fresh.close();
  }
});
