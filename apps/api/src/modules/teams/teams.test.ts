import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Limits, Role } from '@survey-bird/contracts';
import { buildTestApp, call, createUser, login, type TestApp } from '../../../test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

/**
 * One survey with two supervisors and three field users whose responses were received at
 * different rates, some already paid:
 *   Ada (rate 100, Sup One): 3 responses at 100, one of them paid      -> outstanding 200
 *   Bayo (Sup One): 2 responses at 150 and 1 at 50 (rate changed), none paid -> outstanding 350
 *   Chi (Sup Two): 2 responses at 300, both paid                        -> outstanding 0
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let intruder: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
let survey: { id: string; organizationId: string };
let supOne: Awaited<ReturnType<typeof addMember>>;
let supTwo: Awaited<ReturnType<typeof addMember>>;
let ada: Awaited<ReturnType<typeof addMember>>;
let bayo: Awaited<ReturnType<typeof addMember>>;
let chi: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Pay Org');
  intruder = await createOrganization(t.app, 'Intruder Org');
  surveyId = (await createSurvey(t.app, org.id, { title: 'Payroll survey' })).id;
  survey = { id: surveyId, organizationId: org.id };
  supOne = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Sup One', email: 'sup.one@team.ng' });
  supTwo = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Sup Two', email: 'sup.two@team.ng' });
  ada = await addMember(t.app, surveyId, org.id, { fullName: 'Ada Obi', email: 'ada@team.ng', rate: 100, supervisorId: supOne.id });
  bayo = await addMember(t.app, surveyId, org.id, { fullName: 'Bayo Ade', email: 'bayo@team.ng', rate: 150, supervisorId: supOne.id });
  chi = await addMember(t.app, surveyId, org.id, { fullName: 'Chi Nwa', email: 'chi@team.ng', rate: 300, supervisorId: supTwo.id });
  for (const [i, m] of [supOne, supTwo, ada, bayo, chi].entries()) await t.app.db.kysely.updateTable('members').set({ created_at: 1_000 + i }).where('id', '=', m.id).execute();
  for (const paid of [true, false, false]) await addResponse(t.app, ada, survey, { rate: 100, paid });
  for (const rate of [150, 150, 50]) await addResponse(t.app, bayo, survey, { rate });
  for (let i = 0; i < 2; i++) await addResponse(t.app, chi, survey, { rate: 300, paid: true });
});
afterAll(() => t.close());

const get = (url: string, token: string | null) => call(t.app, token, { method: 'GET', url });
const byName = <T extends { fullName: string }>(rows: T[]) => Object.fromEntries(rows.map((r) => [r.fullName, r]));

describe('GET /field-user/:surveyId', () => {
  it('lists field users with responses, outstanding, supervisor and the total due', async () => {
    const res = await get(`/api/v1/field-user/${surveyId}`, org.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ totalDue: 550, page: 1, totalCount: 3, hasNextPage: false, hasPreviousPage: false });
    const rows = byName(body.fieldUsers);
    expect(rows['Ada Obi']).toEqual({
      _id: ada.id, fullName: 'Ada Obi', phoneNumber: '08030000000', email: 'ada@team.ng', bank: 'Zenith Bank', accountNumber: '0123456789', accountName: 'Ada Obi',
      rate: 100, responses: 3, outstanding: 200, awaitingReview: 0, supervisorId: supOne.id, supervisorName: 'Sup One',
      // No phone has reported yet.
      device: null,
      // Open quality flags: the fixture's identical answers may be flagged by now (modules/flags).
      flags: expect.any(Number),
    });
    expect(rows['Bayo Ade']).toMatchObject({ responses: 3, outstanding: 350, supervisorName: 'Sup One' });
    expect(rows['Chi Nwa']).toMatchObject({ responses: 2, outstanding: 0, supervisorName: 'Sup Two' });
    expect(body.fieldUsers.map((f: { fullName: string }) => f.fullName)).toEqual(['Chi Nwa', 'Bayo Ade', 'Ada Obi']);
  });

  it('searches name, e-mail and phone; totalDue follows the search', async () => {
    const bayoOnly = (await get(`/api/v1/field-user/${surveyId}?searchQuery=BAYO`, org.token)).json();
    expect(bayoOnly.fieldUsers.map((f: { _id: string }) => f._id)).toEqual([bayo.id]);
    expect(bayoOnly.totalDue).toBe(350);
    expect((await get(`/api/v1/field-user/${surveyId}?searchQuery=ada%40team`, org.token)).json().totalDue).toBe(200);
    expect((await get(`/api/v1/field-user/${surveyId}?searchQuery=0803000`, org.token)).json().totalCount).toBe(3);
    const miss = (await get(`/api/v1/field-user/${surveyId}?searchQuery=nobody`, org.token)).json();
    expect(miss).toEqual({ fieldUsers: [], totalDue: 0, staleSyncDays: 3, page: 1, totalCount: 0, hasNextPage: false, hasPreviousPage: false });
  });

  it("404s another organization's survey and an unknown id, leaking nothing", async () => {
    for (const [url, token] of [[`/api/v1/field-user/${surveyId}`, intruder.token], ['/api/v1/field-user/no-such-survey', org.token]] as const) {
      const res = await get(url, token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ msg: ApiMsg.notFound });
    }
  });

  it('is refused to supervisors and field users', async () => {
    expect((await get(`/api/v1/field-user/${surveyId}`, supOne.token)).statusCode).toBe(403);
    expect((await get(`/api/v1/field-user/${surveyId}`, ada.token)).statusCode).toBe(403);
  });
});

describe('paging field users', () => {
  let pagedSurvey: string;
  beforeAll(async () => {
    pagedSurvey = (await createSurvey(t.app, org.id, { title: 'Paged' })).id;
  });
  const page = (n: number) => get(`/api/v1/field-user/${pagedSurvey}?page=${n}`, org.token);

  it('is empty with no field users', async () => {
    expect((await page(1)).json()).toEqual({ fieldUsers: [], totalDue: 0, staleSyncDays: 3, page: 1, totalCount: 0, hasNextPage: false, hasPreviousPage: false });
  });

  it('fills exactly one page, then spills to a last page; totalDue counts every page', async () => {
    const members = [];
    for (let i = 0; i < Limits.pageSize; i++) {
      const m = await addMember(t.app, pagedSurvey, org.id, { fullName: `Paged ${i}`, rate: 10, registered: i < 3 });
      if (i < 3) await addResponse(t.app, m, { id: pagedSurvey, organizationId: org.id }, { rate: 10 });
      members.push(m);
    }
    const full = (await page(1)).json();
    expect(full.fieldUsers).toHaveLength(Limits.pageSize);
    expect(full).toMatchObject({ totalCount: Limits.pageSize, totalDue: 30, hasNextPage: false, hasPreviousPage: false });

    await t.app.db.kysely.updateTable('members').set({ created_at: 1 }).where('id', '=', members[0]!.id).execute();
    await addMember(t.app, pagedSurvey, org.id, { fullName: 'Paged last' });
    const first = (await page(1)).json();
    expect(first).toMatchObject({ totalCount: Limits.pageSize + 1, totalDue: 30, hasNextPage: true, hasPreviousPage: false });
    const last = (await page(2)).json();
    expect(last.fieldUsers.map((f: { _id: string }) => f._id)).toEqual([members[0]!.id]);
    expect(last).toMatchObject({ page: 2, totalDue: 30, hasNextPage: false, hasPreviousPage: true });
  });
});

describe('GET /supervisor/:surveyId', () => {
  it("lists supervisors with their field-user count and what those field users are owed", async () => {
    const res = await get(`/api/v1/supervisor/${surveyId}`, org.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, totalCount: 2, hasNextPage: false, hasPreviousPage: false });
    const rows = byName(body.supervisors);
    expect(rows['Sup One']).toEqual({
      _id: supOne.id, fullName: 'Sup One', phoneNumber: '08030000000', email: 'sup.one@team.ng', bank: 'Zenith Bank', accountNumber: '0123456789', accountName: 'Sup One',
      outstanding: 550, awaitingReview: 0, fieldUserCount: 2,
    });
    expect(rows['Sup Two']).toMatchObject({ outstanding: 0, fieldUserCount: 1 });
  });

  it('searches (the assign modal) and 404s other organizations', async () => {
    const hit = (await get(`/api/v1/supervisor/${surveyId}?searchQuery=two`, org.token)).json();
    expect(hit.supervisors.map((s: { _id: string }) => s._id)).toEqual([supTwo.id]);
    expect((await get(`/api/v1/supervisor/${surveyId}?searchQuery=zzz`, org.token)).json()).toEqual({ supervisors: [], page: 1, totalCount: 0, hasNextPage: false, hasPreviousPage: false });
    const other = await get(`/api/v1/supervisor/${surveyId}`, intruder.token);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ msg: ApiMsg.notFound });
  });
});

describe('POST /supervisor/assign', () => {
  const assign = (body: Record<string, string>, token = org.token) => call(t.app, token, { method: 'POST', url: '/api/v1/supervisor/assign', payload: body });

  it('assigns, and reassigns, replying with the refreshed field user', async () => {
    const fresh = await addMember(t.app, surveyId, org.id, { fullName: 'Dayo New', email: 'dayo@team.ng', rate: 20 });
    await addResponse(t.app, fresh, survey, { rate: 20 });
    const first = await assign({ supervisorId: supTwo.id, fieldUserId: fresh.id, survey_id: surveyId });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      msg: ApiMsg.supervisorAssigned,
      data: expect.objectContaining({ _id: fresh.id, fullName: 'Dayo New', supervisorId: supTwo.id, supervisorName: 'Sup Two', responses: 1, outstanding: 20 }),
    });
    const again = await assign({ supervisorId: supOne.id, fieldUserId: fresh.id, survey_id: surveyId });
    expect(again.json().data).toMatchObject({ supervisorId: supOne.id, supervisorName: 'Sup One' });
    const sups = byName((await get(`/api/v1/supervisor/${surveyId}`, org.token)).json().supervisors);
    expect(sups['Sup One']).toMatchObject({ fieldUserCount: 3, outstanding: 570 });
    expect(sups['Sup Two']).toMatchObject({ fieldUserCount: 1 });
  });

  it('400s swapped roles', async () => {
    const swapped = await assign({ supervisorId: ada.id, fieldUserId: bayo.id, survey_id: surveyId });
    expect(swapped.statusCode).toBe(400);
    expect(swapped.json()).toMatchObject({ msg: 'supervisorId is not a supervisor of this survey' });
    const notFieldUser = await assign({ supervisorId: supOne.id, fieldUserId: supTwo.id, survey_id: surveyId });
    expect(notFieldUser.statusCode).toBe(400);
    expect(notFieldUser.json()).toMatchObject({ msg: 'fieldUserId is not a field user of this survey' });
  });

  it("404s members of another survey and another organization's survey, changing nothing", async () => {
    const otherSurvey = (await createSurvey(t.app, org.id, { title: 'Other survey' })).id;
    const foreignSup = await addMember(t.app, otherSurvey, org.id, { role: Role.supervisor });
    const cross = await assign({ supervisorId: foreignSup.id, fieldUserId: ada.id, survey_id: surveyId });
    expect(cross.statusCode).toBe(404);
    const viaOther = await assign({ supervisorId: foreignSup.id, fieldUserId: ada.id, survey_id: otherSurvey });
    expect(viaOther.statusCode).toBe(404);
    const stolen = await assign({ supervisorId: supTwo.id, fieldUserId: ada.id, survey_id: surveyId }, intruder.token);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toMatchObject({ msg: ApiMsg.notFound });
    const row = await t.app.db.kysely.selectFrom('members').select('supervisor_id').where('id', '=', ada.id).executeTakeFirstOrThrow();
    expect(row.supervisor_id).toBe(supOne.id);
  });
});

describe('GET /supervisor/field-user/:surveyId', () => {
  it("shows a supervisor exactly their own field users, with their total due", async () => {
    const res = await get(`/api/v1/supervisor/field-user/${surveyId}`, supTwo.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.fieldUsers.map((f: { _id: string }) => f._id)).toEqual([chi.id]);
    expect(body).toMatchObject({ totalDue: 0, totalCount: 1 });

    const one = (await get(`/api/v1/supervisor/field-user/${surveyId}`, supOne.token)).json();
    expect(one.fieldUsers.map((f: { fullName: string }) => f.fullName).sort()).toEqual(['Ada Obi', 'Bayo Ade', 'Dayo New']);
    expect(one.totalDue).toBe(570);
    const searched = (await get(`/api/v1/supervisor/field-user/${surveyId}?searchQuery=chi`, supOne.token)).json();
    expect(searched).toMatchObject({ fieldUsers: [], totalDue: 0, totalCount: 0 });
  });

  it('is empty for a supervisor with nobody assigned yet', async () => {
    const idle = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Idle Sup' });
    const res = await get(`/api/v1/supervisor/field-user/${surveyId}`, idle.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ fieldUsers: [], totalDue: 0, staleSyncDays: 3, page: 1, totalCount: 0, hasNextPage: false, hasPreviousPage: false });
  });

  it('404s a survey the supervisor is not on', async () => {
    const other = await createOrganization(t.app, 'Elsewhere');
    const otherSurvey = await createSurvey(t.app, other.id);
    const stranger = await addMember(t.app, otherSurvey.id, other.id, { role: Role.supervisor });
    const res = await get(`/api/v1/supervisor/field-user/${surveyId}`, stranger.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ msg: ApiMsg.notFound });
    expect((await get(`/api/v1/supervisor/field-user/${surveyId}`, org.token)).statusCode).toBe(403);
  });
});

describe('GET /supervisor/current-supervisor/name', () => {
  it("gives the name of the supervisor's invitation", async () => {
    const res = await get('/api/v1/supervisor/current-supervisor/name', supOne.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ supervisor: 'Sup One' });
  });

  it("falls back to the account's name", async () => {
    await createUser(t.app, 'solo@team.ng', Role.supervisor, { fullName: 'Solo Account' });
    const res = await get('/api/v1/supervisor/current-supervisor/name', await login(t.app, 'solo@team.ng'));
    expect(res.json()).toEqual({ supervisor: 'Solo Account' });
  });

  it('is for supervisors only', async () => {
    expect((await get('/api/v1/supervisor/current-supervisor/name', ada.token)).statusCode).toBe(403);
  });
});

describe('GET /field-user/all (master admin)', () => {
  let admin: string;
  beforeAll(async () => {
    await createUser(t.app, 'root@teams.ng', Role.masterAdmin);
    admin = await login(t.app, 'root@teams.ng');
  });

  it('lists field users across organizations with organization, survey, responses and outstanding', async () => {
    const res = await get('/api/v1/field-user/all?searchQuery=bayo', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      fieldUsers: [{ _id: bayo.id, fullName: 'Bayo Ade', email: 'bayo@team.ng', phoneNumber: '08030000000', organization_name: 'Pay Org', surveyTitle: 'Payroll survey', responses: 3, outstanding: 350 }],
      page: 1, totalCount: 1, hasNextPage: false, hasPreviousPage: false,
    });
  });

  it('searches organization names and survey titles and pages', async () => {
    const byOrg = (await get('/api/v1/field-user/all?searchQuery=pay%20org', admin)).json();
    expect(byOrg.totalCount).toBeGreaterThan(Limits.pageSize);
    expect(byOrg.fieldUsers).toHaveLength(Limits.pageSize);
    expect(byOrg.hasNextPage).toBe(true);
    const byTitle = (await get('/api/v1/field-user/all?searchQuery=payroll', admin)).json();
    expect(byTitle.totalCount).toBe(4);
    expect((await get('/api/v1/field-user/all?searchQuery=nothing-matches', admin)).json()).toMatchObject({ fieldUsers: [], totalCount: 0 });
  });

  it('All users names the organizations that invited a supervisor or field user, and the owner\'s own', async () => {
    const intruderSurvey = (await createSurvey(t.app, intruder.id, { title: 'Second job' })).id;
    await addMember(t.app, surveyId, org.id, { fullName: 'Dual Worker', email: 'dual@team.ng' });
    await addMember(t.app, intruderSurvey, intruder.id, { fullName: 'Dual Worker', email: 'dual@team.ng' });
    const users = async (q: string) => (await get(`/api/v1/user/all?searchQuery=${q}`, admin)).json().users as { email: string; organization_name: string | null }[];
    expect(await users('dual%40team.ng')).toEqual([expect.objectContaining({ email: 'dual@team.ng', organization_name: 'Intruder Org, Pay Org' })]);
    expect(await users('sup.one%40team.ng')).toEqual([expect.objectContaining({ email: 'sup.one@team.ng', organization_name: 'Pay Org' })]);
    expect(await users('root%40teams.ng')).toEqual([expect.objectContaining({ organization_name: null })]);
  });

  it('is for the master admin only', async () => {
    expect((await get('/api/v1/field-user/all', org.token)).statusCode).toBe(403);
  });
});
