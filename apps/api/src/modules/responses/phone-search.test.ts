import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, addResponse, createOrganization, createSurvey, sampleQuestions } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { migrationNames } from '../../db/database.js';
import * as migration from '../../db/migrations/20261129430000_phone_search_text.js';
import { pageOf } from '../../http/paging.js';
import { InsightRepository } from '../insight/repository.js';
import { SearchIndexer } from '../insight/search-indexer.js';

// Phone answers are stored +234...; people search as they dial. Every way of writing the start or
// the whole of +2348122223333 must find it, on every search plan and both engines.
const TERMS = ['0812', '812', '+234812', '08122223333', '2348122223333'];
const questions = [...sampleQuestions, { id: 'phone', text: 'Phone', type: QuestionType.phone, compulsory: false, options: [] }];
/** Index plans forced: one row's window, then the trigram index (SQLite) or the gram index (both). */
const tunings = [
  { probeHits: 1000, rareTermHits: 5, scanWindow: 0, countCap: 7, gramHits: 1000 },
  { probeHits: 0, rareTermHits: 0, scanWindow: 0, countCap: 7, gramHits: 1000 },
];

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Phone Search Org');
});
afterAll(() => t.close());

async function fieldSurvey() {
  const survey = (await createSurvey(t.app, org.id, { questions })).id;
  const ada = await addMember(t.app, survey, org.id, { fullName: 'Ada Dialler' });
  const respond = async (answers: Record<string, string>, extra: Record<string, unknown> = {}) => {
    const res = await call(t.app, ada.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: survey, organization_id: org.id, answers: { 'Outlet type': 'Kiosk', ...answers }, clientId: uuidv7(), ...extra } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json()._id as string;
  };
  return { survey, ada, respond };
}

async function found(surveyId: string, term: string): Promise<string[]> {
  const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${surveyId}?searchQuery=${encodeURIComponent(term)}` });
  expect(res.statusCode).toBe(200);
  return res.json().responses.map((r: { _id: string }) => r._id);
}

/** The ids each term finds, by the route and by every index plan (one row a page, so the window cannot cover it). */
async function everyPlan(surveyId: string): Promise<Record<string, string[][]>> {
  const out: Record<string, string[][]> = {};
  for (const term of TERMS) {
    out[term] = [await found(surveyId, term)];
    for (const tuning of tunings) {
      const repo = new InsightRepository(t.app.db, tuning);
      const ids: string[] = [];
      for (let n = 1; n <= 3; n++) ids.push(...(await repo.listResponses({ surveyId, supervisorMemberId: null }, term.toLowerCase(), pageOf(n, 1))).rows.map((r) => r.id));
      out[term]!.push(ids);
    }
  }
  return out;
}
const expectFound = (got: Record<string, string[][]>, ids: string[]) => expect(got).toEqual(Object.fromEntries(TERMS.map((term) => [term, [ids, ids, ids]])));

describe('searching a phone answer as it is dialled', () => {
  it('finds +2348122223333 by 0812, 812, +234812, 08122223333 and 2348122223333, and no other response', async () => {
    const { survey, respond } = await fieldSurvey();
    const mine = await respond({ 'Name of outlet': 'Mama Put', Phone: '0812 222 3333' });
    await respond({ 'Name of outlet': 'Iya Basira', Phone: '0803 444 5555' });
    // Newer rows than the match, so a window of the newest rows cannot be what finds it.
    for (const name of ['Chop Bar', 'Buka One', 'Buka Two']) await respond({ 'Name of outlet': name });
    const row = await t.app.db.kysely.selectFrom('responses').select(['answers', 'search_text']).where('id', '=', mine).executeTakeFirstOrThrow();
    expect(JSON.parse(row.answers).Phone).toBe('+2348122223333');

    expectFound(await everyPlan(survey), [mine]);
    if (t.app.db.sqlite) {
      new SearchIndexer(t.app.db.sqlite).drain();
      expectFound(await everyPlan(survey), [mine]);
    }
  });

  it('finds a fixed response by the phone number its fix added', async () => {
    const { survey, respond } = await fieldSurvey();
    const id = await respond({ 'Name of outlet': 'No Phone Yet' });
    expect((await call(t.app, org.token, { method: 'POST', url: '/api/v1/responses/review', payload: { responseIds: [id], status: 'returned', comment: 'Add the phone number' } })).statusCode).toBe(200);
    expect(await found(survey, '0812')).toEqual([]);
    expect(await respond({ 'Name of outlet': 'No Phone Yet', Phone: '+234 812 222 3333' }, { revisionOf: id })).toBe(id);
    for (const term of TERMS) expect(await found(survey, term), term).toEqual([id]);
  });
});

// The migration is run by itself (down, then up): migrating the whole chain down to the one before
// would also undo every later migration.
describe('the migration 20261129430000_phone_search_text', () => {
  it('adds the local form to responses stored before it, keeps every index in step, and takes it off on the way down', async () => {
    expect(migrationNames()).toContain('20261129430000_phone_search_text');
    const { survey, ada } = await fieldSurvey();
    const k = t.app.db.kysely;
    // Written as ingest wrote it before: name, e-mail and answers, lower-cased, nothing after.
    const old = async (answers: Record<string, string>) => {
      const { id } = await addResponse(t.app, ada, { id: survey, organizationId: org.id }, { answers, fullName: 'Ada Dialler', email: ada.email });
      const text = ['Ada Dialler', ada.email, ...Object.values(answers)].join(' \u0001 ').toLowerCase();
      await k.updateTable('responses').set({ search_text: text }).where('id', '=', id).execute();
      return { id, text };
    };
    const indexed = await old({ 'Name of outlet': 'Old Shop', Phone: '+2348122223333' });
    await old({ 'Name of outlet': 'Other Shop', Phone: '+2348034445555' });
    await old({ 'Name of outlet': 'No Phone' });
    // SQLite: the first rows are in the trigram and gram indexes before the migration, the last not yet.
    if (t.app.db.sqlite) new SearchIndexer(t.app.db.sqlite).drain();
    const unindexed = await old({ 'Name of outlet': 'Later Shop', Phone: '+2348122223333' });
    for (const name of ['Newest One', 'Newest Two', 'Newest Three']) await old({ 'Name of outlet': name });
    const before = await k.selectFrom('responses').select(['id', 'search_text']).where('survey_id', '=', survey).orderBy('id').execute();
    expect(await found(survey, '0812')).toEqual([]);

    await migration.up(k);
    const after = await k.selectFrom('responses').select(['id', 'search_text']).where('survey_id', '=', survey).orderBy('id').execute();
    expect(after.find((r) => r.id === indexed.id)!.search_text).toBe(`${indexed.text} \u0002 08122223333`);
    expect(after.filter((r) => r.search_text !== before.find((b) => b.id === r.id)!.search_text).length).toBe(3);
    expectFound(await everyPlan(survey), [unindexed.id, indexed.id]);
    if (t.app.db.sqlite) {
      new SearchIndexer(t.app.db.sqlite).drain();
      expectFound(await everyPlan(survey), [unindexed.id, indexed.id]);
      await sql`insert into responses_fts(responses_fts, rank) values ('integrity-check', 1)`.execute(k);
      await sql`insert into responses_grams(responses_grams, rank) values ('integrity-check', 1)`.execute(k);
      expect((await sql<{ n: number }>`select count(*) as n from search_grams_stale`.execute(k)).rows[0]!.n).toBe(0);
    }

    // Down restores the text exactly; up again is the same as the first time.
    await migration.down(k);
    expect(await k.selectFrom('responses').select(['id', 'search_text']).where('survey_id', '=', survey).orderBy('id').execute()).toEqual(before);
    await migration.up(k);
    expect(await k.selectFrom('responses').select(['id', 'search_text']).where('survey_id', '=', survey).orderBy('id').execute()).toEqual(after);
  });

  it('leaves every row and the indexer\'s marks as they were when it fails part-way', async () => {
    const { survey, ada } = await fieldSurvey();
    const k = t.app.db.kysely;
    const abort = t.app.db.sqlite
      ? sql`create trigger phone_test_abort before update of search_text on responses when instr(new.search_text, 'boom') > 0 begin select raise(abort, 'boom'); end`
      : sql`create function phone_test_abort() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$;
          create trigger phone_test_abort before update of search_text on responses for each row when (strpos(new.search_text, 'boom') > 0) execute function phone_test_abort()`;
    try {
      for (const name of ['First Shop', 'Boom Shop']) {
        const { id } = await addResponse(t.app, ada, { id: survey, organizationId: org.id }, { answers: { 'Name of outlet': name, Phone: '+2348122223333' } });
        await k.updateTable('responses').set({ search_text: `${name.toLowerCase()} \u0001 +2348122223333` }).where('id', '=', id).execute();
      }
      if (t.app.db.sqlite) new SearchIndexer(t.app.db.sqlite).drain();
      const state = async () => ({
        texts: await k.selectFrom('responses').select(['id', 'search_text']).where('survey_id', '=', survey).orderBy('id').execute(),
        marks: t.app.db.sqlite ? (await sql`select * from search_index_state`.execute(k)).rows : [],
      });
      const before = await state();
      await abort.execute(k);
      await expect(migration.up(k)).rejects.toThrow(/boom/);
      expect(await state()).toEqual(before);
    } finally {
      await sql`drop trigger if exists phone_test_abort ${t.app.db.sqlite ? sql`` : sql`on responses`}`.execute(k);
      if (!t.app.db.sqlite) await sql`drop function if exists phone_test_abort()`.execute(k);
    }
  });
});
