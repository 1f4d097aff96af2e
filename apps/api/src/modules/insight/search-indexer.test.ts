import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { SearchIndexer } from './search-indexer.js';

// The deferred trigram index exists on SQLite only; PostgreSQL indexes in the insert itself.
const sqliteOnly = !process.env.TEST_DATABASE_URL;
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

it.runIf(sqliteOnly)('finds a response before and after the batch indexer has reached it, and keeps the index whole', async () => {
  const org = await createOrganization(t.app);
  const survey = await createSurvey(t.app, org.id);
  const member = await addMember(t.app, survey.id, org.id, { fullName: 'Zainab Okonkwo' });
  for (let i = 0; i < 30; i++) await addResponse(t.app, member, { id: survey.id, organizationId: org.id }, { answers: { 'Name of outlet': i === 7 ? 'Quintessential Provisions' : `Shop ${i}`, 'Outlet type': 'Kiosk' }, fullName: 'Zainab Okonkwo' });
  const search = async () => (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${survey.id}?searchQuery=quintessential` })).json();

  const indexer = new SearchIndexer(t.app.db.sqlite!);
  const k = t.app.db.kysely;
  const state = async () => (await sql<{ last_rowid: number }>`select last_rowid from search_index_state`.execute(k)).rows[0]!.last_rowid;
  const before = await state();
  const unindexed = await search();
  expect(unindexed.totalCount).toBe(1);
  expect(unindexed.responses[0].answers['Name of outlet']).toBe('Quintessential Provisions');

  // Deleting a row the index has not seen must not touch the index.
  const [victim] = await k.selectFrom('responses').select('id').where('survey_id', '=', survey.id).orderBy('created_at').limit(1).execute();
  await k.deleteFrom('responses').where('id', '=', victim!.id).execute();

  expect(indexer.hasPending()).toBe(true);
  expect(indexer.indexBatch(10)).toBeGreaterThan(0);
  indexer.drain();
  expect(indexer.hasPending()).toBe(false);
  expect(await state()).toBeGreaterThan(before);
  const indexed = (await sql<{ n: number }>`select count(*) as n from responses_fts where responses_fts match '"quintessential"'`.execute(k)).rows[0]!.n;
  expect(indexed).toBe(1);
  expect(await search()).toEqual(unindexed);
  await sql`insert into responses_fts(responses_fts, rank) values ('integrity-check', 1)`.execute(k);
});

it.runIf(sqliteOnly)('on its timer, catches up a backlog in slices of a few milliseconds, not in one long pause', async () => {
  const org = await createOrganization(t.app);
  const survey = await createSurvey(t.app, org.id);
  const member = await addMember(t.app, survey.id, org.id, { fullName: 'Backlog Tester' });
  for (let i = 0; i < 300; i++) await addResponse(t.app, member, { id: survey.id, organizationId: org.id }, { answers: { 'Name of outlet': `Backlog shop ${i}`, 'Outlet type': 'Kiosk' }, fullName: 'Backlog Tester' });
  const indexer = new SearchIndexer(t.app.db.sqlite!);
  const batches: number[] = [];
  const indexBatch = indexer.indexBatch.bind(indexer);
  indexer.indexBatch = (max?: number) => {
    batches.push(max ?? 500);
    return indexBatch(max);
  };
  // start() drains what is pending first; what arrives after is the timer's.
  indexer.start(5);
  batches.length = 0;
  try {
    for (let i = 0; i < 300; i++) await addResponse(t.app, member, { id: survey.id, organizationId: org.id }, { answers: { 'Name of outlet': `Later shop ${i}`, 'Outlet type': 'Kiosk' }, fullName: 'Backlog Tester' });
    await expect.poll(() => indexer.hasPending(), { timeout: 20_000, interval: 20 }).toBe(false);
  } finally {
    indexer.stop();
  }
  // The first slice guesses 0.1 ms a row (40 rows); later ones follow the measured cost.
  expect(batches.length).toBeGreaterThan(1);
  expect(batches[0]).toBe(40);
  expect(Math.max(...batches)).toBeLessThan(500);
});
