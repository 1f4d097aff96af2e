import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Role } from '@survey-bird/contracts';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

/** The Access delete icon: DELETE /api/v1/member/:surveyId/:memberId (docs/decisions.md, role model). */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let intruder: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string; organizationId: string };
let sup: Awaited<ReturnType<typeof addMember>>;
let ada: Awaited<ReturnType<typeof addMember>>;
let bayo: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Withdraw Org');
  intruder = await createOrganization(t.app, 'Other Org');
  survey = { id: (await createSurvey(t.app, org.id, { title: 'Withdraw survey' })).id, organizationId: org.id };
  sup = await addMember(t.app, survey.id, org.id, { role: Role.supervisor, fullName: 'Sup Wale', email: 'sup.wale@team.ng' });
  ada = await addMember(t.app, survey.id, org.id, { fullName: 'Ada Obi', email: 'ada.w@team.ng', rate: 100, supervisorId: sup.id });
  bayo = await addMember(t.app, survey.id, org.id, { fullName: 'Bayo Ade', email: 'bayo.w@team.ng', rate: 50, supervisorId: sup.id });
  await addResponse(t.app, ada, survey, { rate: 100, paid: true });
  await addResponse(t.app, ada, survey, { rate: 100 });
  await addResponse(t.app, ada, survey, { rate: 100 });
});
afterAll(() => t.close());

const withdraw = (memberId: string, token: string | null = org.token, surveyId = survey.id) => call(t.app, token, { method: 'DELETE', url: `/api/v1/member/${surveyId}/${memberId}` });
const get = (url: string, token: string | null) => call(t.app, token, { method: 'GET', url });
const respond = (token: string | null) => call(t.app, token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: survey.id, organization_id: org.id, answers: { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' }, clientId: randomUUID() } });
const ids = (rows: { _id: string }[]) => rows.map((r) => r._id).sort();

describe('DELETE /api/v1/member/:surveyId/:memberId', () => {
  it('is refused to field users and supervisors (403) and unknown to another organization (404)', async () => {
    expect((await withdraw(bayo.id, ada.token)).statusCode).toBe(403);
    expect((await withdraw(bayo.id, sup.token)).statusCode).toBe(403);
    expect((await withdraw(bayo.id, null)).statusCode).toBe(401);
    const other = await withdraw(bayo.id, intruder.token);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ msg: ApiMsg.notFound });
    expect((await withdraw(randomUUID())).statusCode).toBe(404);
    expect((await get(`/api/v1/field-user/${survey.id}`, org.token)).json().totalCount).toBe(2);
  });

  it('takes the survey from the field user at once; responses and money owed stay with the organization', async () => {
    expect((await respond(ada.token)).statusCode).toBe(200);
    expect((await get('/api/v1/survey/field-user', ada.token)).json().survey.map((s: { _id: string }) => s._id)).toEqual([survey.id]);

    const res = await withdraw(ada.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ msg: ApiMsg.memberWithdrawn });
    expect((await withdraw(ada.id)).json()).toMatchObject({ msg: ApiMsg.memberWithdrawn });

    const refused = await respond(ada.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ msg: ApiMsg.withdrawnFromSurvey });
    const synced = await call(t.app, ada.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: [{ survey_id: survey.id, organization_id: org.id, answers: { 'Name of outlet': 'X', 'Outlet type': 'Kiosk' }, clientId: randomUUID() }] } });
    expect(JSON.stringify(synced.json())).toContain(ApiMsg.withdrawnFromSurvey);
    expect((await get('/api/v1/survey/field-user', ada.token)).json().survey).toEqual([]);
    expect((await get('/api/v1/user', ada.token)).statusCode).toBe(200);

    const list = (await get(`/api/v1/field-user/${survey.id}`, org.token)).json();
    expect(ids(list.fieldUsers)).toEqual([bayo.id]);
    const responses = (await get(`/api/v1/survey/organization/response/${survey.id}`, org.token)).json();
    expect(responses.totalCount).toBe(4);
    const owed = await t.app.db.kysely.selectFrom('responses').select(['rate', 'paid_at']).where('member_id', '=', ada.id).execute();
    expect(owed.filter((r) => r.paid_at === null).reduce((n, r) => n + Number(r.rate), 0)).toBe(300);
    expect(owed.filter((r) => r.paid_at !== null)).toHaveLength(1);
    expect(owed).toHaveLength(4);
  });

  it('gives a re-invited field user their supervisor back', async () => {
    const cara = await addMember(t.app, survey.id, org.id, { fullName: 'Cara Uche', email: 'cara.w@team.ng', rate: 80, supervisorId: sup.id });
    expect((await withdraw(cara.id)).statusCode).toBe(200);
    const again = await call(t.app, org.token, { method: 'POST', url: '/api/v1/field-user', payload: { survey_id: survey.id, fullName: 'Cara Uche', email: 'cara.w@team.ng', phoneNumber: '08031234567' } });
    expect(again.statusCode).toBe(200);
    expect(again.json().fieldsUser).toMatchObject({ _id: cara.id, supervisorId: sup.id, supervisorName: 'Sup Wale' });
    const row = (await get(`/api/v1/field-user/${survey.id}`, org.token)).json().fieldUsers.find((f: { _id: string }) => f._id === cara.id);
    expect(row).toMatchObject({ supervisorId: sup.id, supervisorName: 'Sup Wale' });
    expect(ids((await get(`/api/v1/supervisor/field-user/${survey.id}`, sup.token)).json().fieldUsers)).toEqual(ids([bayo, cara].map((m) => ({ _id: m.id }))));
    expect((await withdraw(cara.id)).statusCode).toBe(200);
  });

  it('unassigns a withdrawn supervisor\'s field users and takes the survey from the supervisor', async () => {
    expect((await get('/api/v1/survey/supervisor', sup.token)).json().survey).toHaveLength(1);
    expect((await withdraw(sup.id)).statusCode).toBe(200);
    expect((await get('/api/v1/survey/supervisor', sup.token)).json().survey).toEqual([]);
    expect((await get(`/api/v1/supervisor/field-user/${survey.id}`, sup.token)).statusCode).toBe(404);
    expect((await get(`/api/v1/supervisor/response/${survey.id}`, sup.token)).statusCode).toBe(404);
    expect((await get(`/api/v1/supervisor/${survey.id}`, org.token)).json().supervisors).toEqual([]);
    const bayoRow = (await get(`/api/v1/field-user/${survey.id}`, org.token)).json().fieldUsers[0];
    expect(bayoRow).toMatchObject({ _id: bayo.id, supervisorId: null, supervisorName: null });
    const assign = await call(t.app, org.token, { method: 'POST', url: '/api/v1/supervisor/assign', payload: { supervisorId: sup.id, fieldUserId: bayo.id, survey_id: survey.id } });
    expect(assign.statusCode).toBe(404);
  });

  it('lets the organization invite the same e-mail again: the row comes back with its responses and money owed', async () => {
    const payload = { survey_id: survey.id, fullName: 'Ada Obi', email: 'ada.w@team.ng', phoneNumber: '08031234567', rate: 120 };
    const again = await call(t.app, org.token, { method: 'POST', url: '/api/v1/field-user', payload });
    expect(again.statusCode).toBe(200);
    expect(again.json().fieldsUser._id).toBe(ada.id);
    expect((await call(t.app, org.token, { method: 'POST', url: '/api/v1/field-user', payload })).statusCode).toBe(409);
    const asSupervisor = await call(t.app, org.token, { method: 'POST', url: '/api/v1/supervisor', payload: { ...payload, accountNumber: '0123456789', accountName: 'Ada Obi', bank: 'Access Bank' } });
    expect(asSupervisor.statusCode).toBe(409);
    const row = (await get(`/api/v1/field-user/${survey.id}`, org.token)).json().fieldUsers.find((f: { _id: string }) => f._id === ada.id);
    expect(row).toMatchObject({ responses: 4, outstanding: 300, rate: 120, supervisorId: null });
    expect((await get('/api/v1/survey/field-user', ada.token)).json().survey).toHaveLength(1);
    expect((await respond(ada.token)).statusCode).toBe(200);
  });

  it('gives a re-invited supervisor back the field users a withdrawal set aside, not those assigned elsewhere since', async () => {
    const other = await addMember(t.app, survey.id, org.id, { role: Role.supervisor, fullName: 'Sup Other', email: 'sup.other@team.ng' });
    const dayo = await addMember(t.app, survey.id, org.id, { fullName: 'Dayo Ola', email: 'dayo.w@team.ng', rate: 60 });
    const assign = (fieldUserId: string, supervisorId: string) => call(t.app, org.token, { method: 'POST', url: '/api/v1/supervisor/assign', payload: { supervisorId, fieldUserId, survey_id: survey.id } });
    // sup was withdrawn above with bayo assigned (ada was withdrawn before sup and re-invited while sup was away)
    expect((await assign(dayo.id, other.id)).statusCode).toBe(200);
    const payload = { survey_id: survey.id, fullName: 'Sup Wale', email: 'sup.wale@team.ng', phoneNumber: '08031234567', accountNumber: '0123456789', accountName: 'Sup Wale', bank: 'Access Bank' };
    expect((await call(t.app, org.token, { method: 'POST', url: '/api/v1/supervisor', payload })).statusCode).toBe(200);
    const rows = (await get(`/api/v1/field-user/${survey.id}`, org.token)).json().fieldUsers as { _id: string; supervisorId: string | null }[];
    const supervisorOf = Object.fromEntries(rows.map((r) => [r._id, r.supervisorId]));
    expect(supervisorOf).toEqual({ [ada.id]: sup.id, [bayo.id]: sup.id, [dayo.id]: other.id });
    expect((await get(`/api/v1/supervisor/${survey.id}`, org.token)).json().supervisors.find((s: { _id: string }) => s._id === sup.id)).toMatchObject({ fieldUserCount: 2 });
  });
});
