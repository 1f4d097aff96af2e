import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Limits, type ResponseStatus, Role } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { pageOf } from '../../http/paging.js';
import { InsightRepository, type Key } from './repository.js';
import { SearchIndexer } from './search-indexer.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Insight Org');
});
afterAll(() => t.close());

const DAY = 86_400_000;
const get = (token: string | null, url: string) => call(t.app, token, { method: 'GET', url: `/api/v1${url}` });

type Member = Awaited<ReturnType<typeof addMember>> & { fullName: string };
async function member(surveyId: string, fullName: string, opts: { role?: typeof Role.fieldUser | typeof Role.supervisor; supervisorId?: string; email?: string } = {}): Promise<Member> {
  const m = await addMember(t.app, surveyId, org.id, { fullName, role: opts.role, supervisorId: opts.supervisorId ?? null, email: opts.email });
  return { ...m, fullName };
}
/** A response whose search text carries the member's real name and e-mail, as ingest writes it. */
function respond(m: Member, surveyId: string, opts: { answers?: Record<string, string | string[]>; createdAt?: number; rate?: number; organizationId?: string; status?: ResponseStatus } = {}) {
  return addResponse(t.app, m, { id: surveyId, organizationId: opts.organizationId ?? org.id }, { ...opts, fullName: m.fullName, email: m.email });
}
async function many<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += 50) out.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, j) => make(i + j)))));
  return out;
}

describe('responses table', () => {
  it('answers an empty survey with an empty first page', async () => {
    const survey = await createSurvey(t.app, org.id);
    const res = await get(org.token, `/survey/organization/response/${survey.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ responses: [], page: 1, totalCount: 0, hasNextPage: false, hasPreviousPage: false, nextCursor: null });
    expect(res.headers['server-timing']).toMatch(/^app;dur=\d+\.\d$/);
  });

  it('shows one response with the field user from the member row', async () => {
    const survey = await createSurvey(t.app, org.id);
    const ada = await member(survey.id, 'Ada Obi', { email: 'ada.obi@team.ng' });
    const createdAt = Date.UTC(2026, 10, 20, 9, 30);
    const { id } = await respond(ada, survey.id, { answers: { 'Name of outlet': 'Mama Put', 'Brands stocked': ['Alpha', 'Beta'] }, createdAt });
    const res = await get(org.token, `/survey/organization/response/${survey.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      responses: [{
        _id: id,
        survey_id: survey.id,
        organization_id: org.id,
        answers: { 'Name of outlet': 'Mama Put', 'Brands stocked': ['Alpha', 'Beta'] },
        fullName: 'Ada Obi',
        email: 'ada.obi@team.ng',
        fieldUser: { fullName: 'Ada Obi', email: 'ada.obi@team.ng' },
        createdAt: new Date(createdAt).toISOString(),
        capturedAt: null,
        status: 'approved',
        // The flags are computed just after the insert (modules/flags): checking until then.
        checking: expect.any(Boolean),
        flags: [],
      }],
      page: 1,
      totalCount: 1,
      hasNextPage: false,
      hasPreviousPage: false,
      nextCursor: null,
    });
  });

  it('pages 45 responses newest first: 20, 20, 5, then nothing', async () => {
    const survey = await createSurvey(t.app, org.id);
    const fu = await member(survey.id, 'Pager Person');
    const base = Date.UTC(2026, 10, 1);
    // Pairs share a timestamp so the id tie-break is exercised too.
    const made = await many(45, async (i) => ({ at: base + Math.floor(i / 2) * 1000, ...(await respond(fu, survey.id, { createdAt: base + Math.floor(i / 2) * 1000 })) }));
    const expected = made.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)).map((r) => r.id);

    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await get(org.token, `/survey/organization/response/${survey.id}?page=${page}`);
      expect(res.statusCode).toBe(200);
      pages.push(res.json());
    }
    expect(pages.map((p) => p.responses.length)).toEqual([20, 20, 5, 0]);
    expect(pages.map((p) => [p.page, p.totalCount, p.hasNextPage, p.hasPreviousPage])).toEqual([
      [1, 45, true, false],
      [2, 45, true, true],
      [3, 45, false, true],
      [4, 45, false, true],
    ]);
    expect(pages.flatMap((p) => p.responses.map((r: { _id: string }) => r._id))).toEqual(expected);
    expect(pages.map((p) => p.nextCursor === null)).toEqual([false, false, true, true]);

    // The same pages by keyset: each request names the previous page's last row.
    const byCursor = [];
    let after: string | null = null;
    for (const page of [1, 2, 3]) {
      const res = await get(org.token, `/survey/organization/response/${survey.id}?page=${page}${after ? `&after=${after}` : ''}`);
      expect(res.statusCode).toBe(200);
      byCursor.push(res.json());
      after = res.json().nextCursor;
    }
    expect(byCursor.map((p) => [p.page, p.totalCount, p.hasNextPage, p.hasPreviousPage, p.responses.length])).toEqual([
      [1, 45, true, false, 20],
      [2, 45, true, true, 20],
      [3, 45, false, true, 5],
    ]);
    expect(byCursor.flatMap((p) => p.responses.map((r: { _id: string }) => r._id))).toEqual(expected);
  });

  it('refuses a cursor that is not a nextCursor, in the spec\'s { msg } shape', async () => {
    const survey = await createSurvey(t.app, org.id);
    for (const after of ['x', '12', '.abc', '12.', '12.a b', `${'9'.repeat(17)}.abc`, '12.%27%3B']) {
      const res = await get(org.token, `/survey/organization/response/${survey.id}?page=2&after=${after}`);
      expect(res.statusCode, after).toBe(400);
      expect(res.json(), after).toMatchObject({ msg: ApiMsg.badResponsesCursor });
    }
  });

  it('refuses a page that is not a positive whole number', async () => {
    const survey = await createSurvey(t.app, org.id);
    for (const page of ['0', '-1', 'x', '1.5']) {
      const res = await get(org.token, `/survey/organization/response/${survey.id}?page=${page}`);
      expect(res.statusCode).toBe(400);
      expect(typeof res.json().msg).toBe('string');
    }
  });

  describe('search', () => {
    let surveyId: string;
    const search = async (q: string, page = 1) => {
      const res = await get(org.token, `/survey/organization/response/${surveyId}?searchQuery=${encodeURIComponent(q)}&page=${page}`);
      expect(res.statusCode).toBe(200);
      return res.json() as { responses: { fullName: string; answers: Record<string, string> }[]; totalCount: number; hasNextPage: boolean };
    };
    const outlets = (body: { responses: { answers: Record<string, string> }[] }) => body.responses.map((r) => r.answers['Name of outlet']).sort();

    beforeAll(async () => {
      surveyId = (await createSurvey(t.app, org.id)).id;
      const chioma = await member(surveyId, 'Chioma Eze', { email: 'chioma@team.ng' });
      const bayo = await member(surveyId, 'Bayo Ade', { email: 'bayo.ade@team.ng' });
      await respond(chioma, surveyId, { answers: { 'Name of outlet': 'Sunrise Stores', 'Outlet type': 'Supermarket' } });
      await respond(chioma, surveyId, { answers: { 'Name of outlet': '50% Off Kiosk', 'Outlet type': 'Kiosk' } });
      await respond(bayo, surveyId, { answers: { 'Name of outlet': 'Under_score Mart', 'Outlet type': 'Open market' } });
      await respond(bayo, surveyId, { answers: { 'Name of outlet': 'Plain Shop', 'Outlet type': 'Kiosk', 'Brands stocked': ['Gamma'] } });
      // The same words in another organization's survey never show up here.
      const other = await createOrganization(t.app, 'Other Org');
      const otherSurvey = await createSurvey(t.app, other.id);
      const stranger = { ...(await addMember(t.app, otherSurvey.id, other.id, { fullName: 'Chioma Eze' })), fullName: 'Chioma Eze' };
      await respond(stranger, otherSurvey.id, { answers: { 'Name of outlet': 'Sunrise Stores' }, organizationId: other.id });
    });

    it('matches the field user name, case-insensitively', async () => {
      const body = await search('cHIOMA e');
      expect(body.totalCount).toBe(2);
      expect(body.responses.every((r) => r.fullName === 'Chioma Eze')).toBe(true);
    });

    it('matches the field user e-mail', async () => {
      expect(outlets(await search('BAYO.ADE@'))).toEqual(['Plain Shop', 'Under_score Mart']);
    });

    it('matches answer text and checkbox options', async () => {
      expect(outlets(await search('SUNRISE'))).toEqual(['Sunrise Stores']);
      expect(outlets(await search('gamma'))).toEqual(['Plain Shop']);
      expect(outlets(await search('kiosk'))).toEqual(['50% Off Kiosk', 'Plain Shop']);
    });

    it("treats '%' and '_' literally, in short and long searches", async () => {
      expect(outlets(await search('%'))).toEqual(['50% Off Kiosk']);
      expect(outlets(await search('0%'))).toEqual(['50% Off Kiosk']);
      expect(outlets(await search('50% off'))).toEqual(['50% Off Kiosk']);
      expect(outlets(await search('_'))).toEqual(['Under_score Mart']);
      expect(outlets(await search('r_s'))).toEqual(['Under_score Mart']);
    });

    it('answers a miss with an empty page', async () => {
      for (const q of ['zebra crossing', 'zz', 'x', '"quoted"', 'a AND b', 'NEAR(', '*']) {
        const body = await search(q);
        expect(body).toMatchObject({ responses: [], totalCount: 0, hasNextPage: false });
      }
    });

    it('finds short (1-2 character) searches by substring', async () => {
      expect(outlets(await search('pl'))).toEqual(['Plain Shop']);
    });

    it('ignores surrounding spaces and refuses an over-long query', async () => {
      expect(outlets(await search('  sunrise  '))).toEqual(['Sunrise Stores']);
      const res = await get(org.token, `/survey/organization/response/${surveyId}?searchQuery=${'a'.repeat(Limits.maxSearchQuery + 1)}`);
      expect(res.statusCode).toBe(400);
    });
  });

  it('gives every search plan, with and without a status filter, the same rows as a plain substring scan', { timeout: 240_000 }, async () => {
    // Tiny thresholds so one small data set goes through every plan: the probe's hits, all trigram
    // hits, the newest-rows window (a term guessed rare and one guessed common), the fallback when
    // the window does not fill the page, and the capped count.
    // gramHits 0 never lists from the gram index, 3 lists a survey's few rows from it, 1000 always.
    const tunings = [
      { probeHits: 2, rareTermHits: 5, scanWindow: 4, countCap: 7, gramHits: 0 },
      { probeHits: 2, rareTermHits: 0, scanWindow: 4, countCap: 7, gramHits: 3 },
      { probeHits: 1000, rareTermHits: 5, scanWindow: 4, countCap: 7, gramHits: 1000 },
      { probeHits: 0, rareTermHits: 0, scanWindow: 4, countCap: 7, gramHits: 3 },
    ];
    const busy = await createSurvey(t.app, org.id);
    const quiet = await createSurvey(t.app, org.id);
    const a = await member(busy.id, 'Busy Bee');
    const b = await member(quiet.id, 'Quiet Mouse');
    const base = Date.UTC(2026, 9, 1);
    const statusOf = (i: number): ResponseStatus | undefined => (i % 3 === 1 ? 'pending' : i % 7 === 0 ? 'returned' : undefined);
    await many(30, (i) => respond(a, busy.id, { answers: { 'Name of outlet': `ubiquitous ${i}${i % 3 === 0 ? ' third' : ''}` }, createdAt: base + Math.floor(i / 2), status: statusOf(i) }));
    await respond(b, quiet.id, { answers: { 'Name of outlet': 'ubiquitous one' }, createdAt: base + 100 });
    await respond(b, quiet.id, { answers: { 'Name of outlet': 'old ubiquitous two' }, createdAt: base });
    for (let i = 0; i < 30; i++) await respond(b, quiet.id, { answers: { 'Name of outlet': `filler ${i}` }, createdAt: base + 200 + i, status: statusOf(i) });

    // Most rows through the indexes (SQLite), the last few through the scan of rows not indexed yet.
    if (t.app.db.sqlite) new SearchIndexer(t.app.db.sqlite).drain();
    await respond(b, quiet.id, { answers: { 'Name of outlet': 'late ubiquitous zq' }, createdAt: base + 50 });
    // Characters beyond ASCII: the PostgreSQL index's codes are made in SQL, a term's in TypeScript.
    await respond(b, quiet.id, { answers: { 'Name of outlet': 'Ọlọ́jà 😀 ubiquitous' }, createdAt: base + 60 });
    // Runs of 4+ digits (PostgreSQL indexes each 4 of them): phone and account numbers, whole and in part.
    await respond(b, quiet.id, { answers: { 'Name of outlet': 'ubiquitous 😀08031234567 acct 0123456789' }, createdAt: base + 70 });
    await respond(a, busy.id, { answers: { 'Name of outlet': 'ubiquitous 0803 1234' }, createdAt: base + 80 });
    const all = await t.app.db.kysely.selectFrom('responses').select(['id', 'survey_id', 'created_at', 'search_text', 'status']).where('survey_id', 'in', [busy.id, quiet.id]).execute();
    // PostgreSQL: gramHits 0 keeps a short term off its gram index unless it has no rows there, 1000 always lists from it.
    for (const [plan, tuning] of (t.app.db.sqlite ? tunings : [tunings[0]!, tunings[2]!]).entries()) {
      const repo = new InsightRepository(t.app.db, tuning);
      for (const [surveyId, status] of [busy.id, quiet.id].flatMap((id) => ([undefined, 'pending', 'returned'] as const).map((s) => [id, s] as const))) {
        for (const term of ['', 'ubiquitous', 'UBIQUITOUS 1', 'third', 'ubiquitous two', 'bee', 'zzz', 'ub', '3', 'zq', 'q', 'o t', 'two', 'ọ', 'ọ́', '😀', 'à 😀', 'ọlọ́', '0803', '08031234567', '31234', '1234', '0803 1234', '😀0803', 'acct 0123', '456789', '0123456789', '9']) {
          const expected = all
            .filter((r) => r.survey_id === surveyId && r.search_text.includes(term.toLowerCase()) && (!status || r.status === status))
            .sort((x, y) => Number(y.created_at) - Number(x.created_at) || (x.id < y.id ? 1 : -1))
            .map((r) => r.id);
          let after: Key | null = null;
          for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
            const page = pageOf(n, 4);
            const scope = { surveyId, supervisorMemberId: null, status };
            const got = await repo.listResponses(scope, term, page);
            // Page n again by keyset, from page n - 1's last row.
            const keyed = await repo.listResponses(scope, term, page, after);
            const last = got.rows.at(-1);
            after = last ? { created_at: Number(last.created_at), id: last.id } : after;
            for (const [how, r] of [['offset', got], ['keyset', keyed]] as const) {
              const label = `tuning ${plan}: ${surveyId === busy.id ? 'busy' : 'quiet'} "${term}" ${status ?? 'any status'} page ${n} by ${how}`;
              expect(r.rows.map((x) => x.id), label).toEqual(expected.slice(page.offset, page.offset + 4));
              expect(r.hasNextPage, label).toBe(page.offset + 4 < expected.length);
              if (expected.length <= tuning.countCap) expect(r.totalCount, label).toBe(expected.length);
              else expect(r.totalCount >= Math.min(tuning.countCap, expected.length) && r.totalCount <= expected.length, label).toBe(true);
            }
          }
        }
      }
    }
  });
  it('keeps the search index in step when search_text changes or a response is deleted', async () => {
    const survey = await createSurvey(t.app, org.id);
    const fu = await member(survey.id, 'Index Keeper');
    const { id } = await respond(fu, survey.id, { answers: { 'Name of outlet': 'Before Renovation' } });
    const find = async (q: string) => (await get(org.token, `/survey/organization/response/${survey.id}?searchQuery=${encodeURIComponent(q)}`)).json().totalCount;
    // SQLite: indexed before the change, so the change itself must reach (or bypass) the indexes.
    const drain = () => t.app.db.sqlite && new SearchIndexer(t.app.db.sqlite).drain();
    drain();
    expect(await find('renovation')).toBe(1);
    expect(await find('hm')).toBe(0);
    await t.app.db.kysely.updateTable('responses').set({ search_text: 'after refurbishment' }).where('id', '=', id).execute();
    for (const round of ['changed', 're-indexed']) {
      expect(await find('renovation'), round).toBe(0);
      expect(await find('refurbish'), round).toBe(1);
      expect(await find('hm'), round).toBe(1);
      expect(await find('ov'), round).toBe(0);
      drain();
    }
    await t.app.db.kysely.deleteFrom('responses').where('id', '=', id).execute();
    expect(await find('refurbish')).toBe(0);
    expect(await find('hm')).toBe(0);
  });
});

describe('organization scoping', () => {
  it("answers 404 for another organization's survey and for an unknown one", async () => {
    const other = await createOrganization(t.app, 'Rival Org');
    const theirs = await createSurvey(t.app, other.id);
    const fu = { ...(await addMember(t.app, theirs.id, other.id, { fullName: 'Their Person' })), fullName: 'Their Person' };
    await respond(fu, theirs.id, { organizationId: other.id });
    const start = '2026-11-22T00:00:00+01:00';
    const end = '2026-11-29T00:00:00+01:00';
    for (const id of [theirs.id, 'no-such-survey']) {
      for (const url of [`/survey/organization/response/${id}`, `/survey/organization/top-performer/${id}`, `/survey/organization/by-weeks/${id}?startDate=${encodeURIComponent(start)}&endDate=${encodeURIComponent(end)}`, `/survey/organization/response/download/${id}`]) {
        const res = await get(org.token, url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ msg: ApiMsg.surveyNotFound });
      }
    }
  });

  it('keeps field users and supervisors off the organization routes', async () => {
    const survey = await createSurvey(t.app, org.id);
    const fu = await member(survey.id, 'Nosy Field');
    const res = await get(fu.token, `/survey/organization/response/${survey.id}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ msg: ApiMsg.forbidden });
    const anon = await get(null, `/survey/organization/top-performer/${survey.id}`);
    expect(anon.statusCode).toBe(401);
  });
});

describe('top performer and active field users', () => {
  it('answers an empty survey with no top performer', async () => {
    const survey = await createSurvey(t.app, org.id);
    await member(survey.id, 'Idle Person');
    const res = await get(org.token, `/survey/organization/top-performer/${survey.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ topPerformer: null, activeFieldUsers: 0, totalResponses: 0, flaggedResponses: 0 });
  });

  it('names who has most responses and counts only field users active in the last 7 days', async () => {
    const survey = await createSurvey(t.app, org.id);
    const now = Date.now();
    const star = await member(survey.id, 'Star Performer');
    const steady = await member(survey.id, 'Steady Hand');
    const lapsed = await member(survey.id, 'Lapsed Worker');
    for (let i = 0; i < 3; i++) await respond(star, survey.id, { createdAt: now - i * DAY });
    await respond(steady, survey.id, { createdAt: now - 6 * DAY });
    await respond(lapsed, survey.id, { createdAt: now - 8 * DAY });
    await respond(lapsed, survey.id, { createdAt: now - 9 * DAY });
    const res = await get(org.token, `/survey/organization/top-performer/${survey.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ topPerformer: 'Star Performer', activeFieldUsers: 2, totalResponses: 6, flaggedResponses: expect.any(Number) });
  });
});

describe('supervisor scoping', () => {
  let surveyId: string;
  let sup: Member;
  let otherSup: Member;
  beforeAll(async () => {
    surveyId = (await createSurvey(t.app, org.id)).id;
    sup = await member(surveyId, 'Sade Supervisor', { role: Role.supervisor });
    otherSup = await member(surveyId, 'Tunde Supervisor', { role: Role.supervisor });
    const mine = await member(surveyId, 'Mine Only', { supervisorId: sup.id });
    const theirs = await member(surveyId, 'Theirs Only', { supervisorId: otherSup.id });
    const nobody = await member(surveyId, 'Unassigned One');
    const now = Date.now();
    await respond(mine, surveyId, { answers: { 'Name of outlet': 'Shared Name' }, createdAt: now - 1000 });
    for (let i = 0; i < 4; i++) await respond(theirs, surveyId, { answers: { 'Name of outlet': 'Shared Name' }, createdAt: now - i, status: i === 0 ? 'pending' : undefined });
    await respond(nobody, surveyId, { answers: { 'Name of outlet': 'Shared Name' }, createdAt: now });
  });

  it("shows a supervisor only their own field users' responses, searched or not", async () => {
    for (const q of ['', 'shared name', 'sh']) {
      const res = await get(sup.token, `/supervisor/response/${surveyId}?searchQuery=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.totalCount).toBe(1);
      expect(body.responses.map((r: { fullName: string }) => r.fullName)).toEqual(['Mine Only']);
    }
    const other = (await get(otherSup.token, `/supervisor/response/${surveyId}`)).json();
    expect(other.responses.map((r: { fullName: string }) => r.fullName)).toEqual(['Theirs Only', 'Theirs Only', 'Theirs Only', 'Theirs Only']);
    const all = (await get(org.token, `/survey/organization/response/${surveyId}`)).json();
    expect(all.totalCount).toBe(6);
  });

  it('filters by review status within the supervisor\'s scope, and refuses an unknown status', async () => {
    const pending = (q: string) => `/supervisor/response/${surveyId}?status=pending&searchQuery=${q}`;
    for (const q of ['', 'shared', 'sh']) {
      expect((await get(sup.token, pending(q))).json()).toMatchObject({ responses: [], totalCount: 0 });
      const theirs = (await get(otherSup.token, pending(q))).json();
      expect(theirs.responses.map((r: { status: string; fullName: string }) => [r.fullName, r.status])).toEqual([['Theirs Only', 'pending']]);
      expect(theirs.totalCount).toBe(1);
    }
    const org6 = (await get(org.token, `/survey/organization/response/${surveyId}?status=approved`)).json();
    expect(org6.totalCount).toBe(5);
    const bad = await get(org.token, `/survey/organization/response/${surveyId}?status=paid`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ msg: 'status must be approved, pending, returned or rejected' });
  });

  it("limits the supervisor's cards to their field users", async () => {
    const res = await get(sup.token, `/survey/supervisor/top-performer/${surveyId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ topPerformer: 'Mine Only', activeFieldUsers: 1, totalResponses: 1, flaggedResponses: expect.any(Number) });
    expect((await get(org.token, `/survey/organization/top-performer/${surveyId}`)).json()).toEqual({ topPerformer: 'Theirs Only', activeFieldUsers: 3, totalResponses: 6, flaggedResponses: expect.any(Number) });
  });

  it('answers 404 to a supervisor of another survey and 403 to an organization', async () => {
    const elsewhere = await createSurvey(t.app, org.id);
    const stranger = await member(elsewhere.id, 'Stranger Supervisor', { role: Role.supervisor });
    for (const url of [`/supervisor/response/${surveyId}`, `/survey/supervisor/top-performer/${surveyId}`, `/survey/supervisorName/response/download/${surveyId}`]) {
      const res = await get(stranger.token, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ msg: ApiMsg.surveyNotFound });
      expect((await get(org.token, url)).statusCode).toBe(403);
    }
  });
});

describe("a supervisor's later pages", () => {
  it('skip their field users\' responses by the index alone (SQLite), and list the right rows', async () => {
    const survey = await createSurvey(t.app, org.id);
    const sup = await member(survey.id, 'Index Supervisor', { role: Role.supervisor });
    const mine = await member(survey.id, 'Index Mine', { supervisorId: sup.id });
    const other = await member(survey.id, 'Index Other');
    const base = Date.UTC(2026, 10, 1);
    const made = await many(30, (i) => respond(i % 3 === 0 ? mine : other, survey.id, { createdAt: base + i }));
    const expected = made.filter((_, i) => i % 3 === 0).map((r) => r.id).reverse();

    const captured: { sql: string; parameters: readonly unknown[] }[] = [];
    const db = t.app.db;
    let repo = new InsightRepository(db);
    if (db.engine === 'sqlite') {
      const kysely = new Kysely<any>({ dialect: new SqliteDialect({ database: db.sqlite! }), log: (e) => void captured.push(e.query) });
      repo = new InsightRepository({ ...db, kysely });
    }
    const page = pageOf(2, 4);
    const got = await repo.listResponses({ surveyId: survey.id, supervisorMemberId: sup.id }, '', page);
    expect(got.rows.map((r) => r.id)).toEqual(expected.slice(4, 8));
    expect(got.totalCount).toBe(10);
    if (db.engine !== 'sqlite') return;

    const skip = captured.find((q) => /\boffset\b/i.test(q.sql));
    expect(skip, 'the page start is found by an OFFSET').toBeDefined();
    const plan = db.sqlite!.prepare(`explain query plan ${skip!.sql}`).all(...(skip!.parameters as unknown[])) as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' | ')).toMatch(/COVERING INDEX responses_survey_created_member/);
  });
});

describe('responses by weeks', () => {
  // Sunday 22 November 2026, 00:00 in Lagos (UTC+1), and the Sunday after.
  const start = Date.parse('2026-11-22T00:00:00+01:00');
  const end = start + 7 * DAY;
  const week = (token: string, surveyId: string, s: string, e: string) =>
    get(token, `/survey/organization/by-weeks/${surveyId}?startDate=${encodeURIComponent(s)}&endDate=${encodeURIComponent(e)}`);

  it('answers seven empty days, Sunday to Saturday', async () => {
    const survey = await createSurvey(t.app, org.id);
    const res = await week(org.token, survey.id, '2026-11-22T00:00:00+01:00', '2026-11-29T00:00:00+01:00');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((day) => ({ day, value: 0, amount: 0 })));
  });

  it('puts Saturday 23:59:59.999 in Saturday and the next Sunday 00:00 in no day, counting responses and naira', async () => {
    const survey = await createSurvey(t.app, org.id);
    const fu = await member(survey.id, 'Week Worker');
    await respond(fu, survey.id, { createdAt: start - 1, rate: 1000 }); // previous Saturday
    await respond(fu, survey.id, { createdAt: start, rate: 200 }); // Sunday 00:00
    await respond(fu, survey.id, { createdAt: start + DAY - 1, rate: 300 }); // Sunday 23:59:59.999
    await respond(fu, survey.id, { createdAt: start + DAY, rate: 50 }); // Monday 00:00
    await respond(fu, survey.id, { createdAt: start + 3 * DAY + 5, rate: 0 }); // Wednesday
    await respond(fu, survey.id, { createdAt: end - 1, rate: 700 }); // Saturday 23:59:59.999
    await respond(fu, survey.id, { createdAt: end, rate: 9000 }); // next Sunday 00:00
    const res = await week(org.token, survey.id, '2026-11-22T00:00:00+01:00', '2026-11-29T00:00:00+01:00');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { day: 'Sunday', value: 2, amount: 500 },
      { day: 'Monday', value: 1, amount: 50 },
      { day: 'Tuesday', value: 0, amount: 0 },
      { day: 'Wednesday', value: 1, amount: 0 },
      { day: 'Thursday', value: 0, amount: 0 },
      { day: 'Friday', value: 0, amount: 0 },
      { day: 'Saturday', value: 1, amount: 700 },
    ]);
    // The same instants seen from UTC: the week starts an hour later, so Lagos' Sunday 00:00-01:00 falls out.
    const utc = (await week(org.token, survey.id, '2026-11-22T00:00:00Z', '2026-11-29T00:00:00Z')).json();
    expect(utc[0]).toEqual({ day: 'Sunday', value: 2, amount: 350 });
    expect(utc[2]).toEqual({ day: 'Tuesday', value: 1, amount: 0 });
    expect(utc[6]).toEqual({ day: 'Saturday', value: 2, amount: 9700 });
  });

  it('accepts a 25-hour daylight-saving week and puts its last hour in Saturday', async () => {
    const survey = await createSurvey(t.app, org.id);
    const fu = await member(survey.id, 'Dst Worker');
    // Europe/London, autumn 2026: clocks go back on Sunday 25 October, so that week is 7 days + 1 hour.
    const dstStart = Date.parse('2026-10-25T00:00:00+01:00');
    const dstEnd = Date.parse('2026-11-01T00:00:00Z');
    await respond(fu, survey.id, { createdAt: dstEnd - 30 * 60_000 });
    const res = await week(org.token, survey.id, new Date(dstStart).toISOString(), new Date(dstEnd).toISOString());
    expect(res.statusCode).toBe(200);
    expect(res.json()[6]).toEqual({ day: 'Saturday', value: 1, amount: 0 });
  });

  it('refuses an empty, reversed, too long or malformed range', async () => {
    const survey = await createSurvey(t.app, org.id);
    const iso = (ms: number) => new Date(ms).toISOString();
    expect((await week(org.token, survey.id, iso(start), iso(start))).json()).toMatchObject({ msg: ApiMsg.weekRangeOrder });
    expect((await week(org.token, survey.id, iso(end), iso(start))).statusCode).toBe(400);
    const long = await week(org.token, survey.id, iso(start), iso(end + 3_600_000 + 1));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ msg: ApiMsg.weekRangeTooLong });
    const bad = await week(org.token, survey.id, 'last sunday', iso(end));
    expect(bad.statusCode).toBe(400);
    expect(typeof bad.json().msg).toBe('string');
    const missing = await get(org.token, `/survey/organization/by-weeks/${survey.id}`);
    expect(missing.statusCode).toBe(400);
  });
});
