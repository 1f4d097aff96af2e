import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficeMsg, OfficeRole, QuestionType, Role } from '@survey-bird/contracts';
import { buildTestApp, call, createUser, lastMail, login, type TestApp } from '../../../test/helpers.js';
import { addMember, addOfficeUser, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyA = '';
let surveyB = '';
let fieldUser: Awaited<ReturnType<typeof addMember>>;
const office: Partial<Record<OfficeRole, string>> = {};

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Office Org');
  surveyA = (await createSurvey(t.app, org.id, { title: 'Survey A' })).id;
  surveyB = (await createSurvey(t.app, org.id, { title: 'Survey B' })).id;
  fieldUser = await addMember(t.app, surveyA, org.id, { fullName: 'Ada Field', rate: 100 });
  for (const role of [OfficeRole.admin, OfficeRole.analyst, OfficeRole.finance, OfficeRole.reviewer]) office[role] = (await addOfficeUser(t.app, org.id, role)).token;
});
afterAll(() => t.close());

const review = (token: string | undefined, responseId: string, status = 'approved') =>
  call(t.app, token!, { method: 'POST', url: '/api/v1/responses/review', payload: { responseIds: [responseId], status } });
const pending = async () => (await addResponse(t.app, fieldUser, { id: surveyA, organizationId: org.id }, { status: 'pending', rate: 100 })).id;

describe('office roles', () => {
  it('GET /user carries the office role; other accounts have none', async () => {
    expect((await call(t.app, org.token, { method: 'GET', url: '/api/v1/user' })).json().user).toMatchObject({ role: Role.organization, organization_id: org.id, officeRole: OfficeRole.owner });
    expect((await call(t.app, office.analyst!, { method: 'GET', url: '/api/v1/user' })).json().user).toMatchObject({ organization_id: org.id, officeRole: OfficeRole.analyst });
    expect((await call(t.app, fieldUser.token!, { method: 'GET', url: '/api/v1/user' })).json().user).toMatchObject({ role: Role.fieldUser, officeRole: null });
  });

  it('an analyst reads the dashboards, the table, a response and the export, and cannot approve, pay or change settings', async () => {
    const id = await pending();
    for (const url of [`/api/v1/survey/organization/response/${surveyA}`, `/api/v1/survey/organization/top-performer/${surveyA}`, `/api/v1/responses/${id}`, `/api/v1/survey/organization/response/download/${surveyA}`]) {
      expect((await call(t.app, office.analyst!, { method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect((await review(office.analyst, id)).statusCode).toBe(403);
    expect((await call(t.app, office.analyst!, { method: 'POST', url: '/api/v1/payouts', payload: { survey_id: surveyA, key: randomUUID() } })).statusCode).toBe(403);
    expect((await call(t.app, office.analyst!, { method: 'PATCH', url: `/api/v1/survey/${surveyA}/settings`, payload: { closed: true } })).statusCode).toBe(403);
    expect((await call(t.app, office.analyst!, { method: 'GET', url: `/api/v1/payouts?survey_id=${surveyA}` })).statusCode).toBe(403);
    const row = await t.app.db.kysely.selectFrom('responses').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('a finance user pays and reads the table, and cannot review or dismiss a flag', async () => {
    const id = await pending();
    expect((await review(office.finance, id)).statusCode).toBe(403);
    expect((await call(t.app, office.finance!, { method: 'POST', url: `/api/v1/responses/${id}/flags/too_fast/dismiss`, payload: { note: 'fine' } })).statusCode).toBe(403);
    expect((await call(t.app, office.finance!, { method: 'GET', url: `/api/v1/survey/organization/response/${surveyA}` })).statusCode).toBe(200);
    expect((await review(org.token, id)).json().results[0].status).toBe(200);
    const paid = await call(t.app, office.finance!, { method: 'POST', url: '/api/v1/payouts', payload: { survey_id: surveyA, key: randomUUID() } });
    expect(paid.statusCode, paid.body).toBe(200);
    const payoutId = paid.json().payout._id as string;
    expect((await call(t.app, office.finance!, { method: 'POST', url: `/api/v1/payouts/${payoutId}/paid`, payload: { reference: 'TRF-1' } })).statusCode).toBe(200);
  });

  it('a reviewer reviews and cannot pay, download a payout or invite', async () => {
    const id = await pending();
    expect((await review(office.reviewer, id)).json().results[0]).toMatchObject({ status: 200, reviewStatus: 'approved' });
    expect((await call(t.app, office.reviewer!, { method: 'POST', url: '/api/v1/payouts', payload: { survey_id: surveyA, key: randomUUID() } })).statusCode).toBe(403);
    expect((await call(t.app, office.reviewer!, { method: 'GET', url: `/api/v1/payouts/${randomUUID()}/download` })).statusCode).toBe(403);
    expect((await call(t.app, office.reviewer!, { method: 'POST', url: '/api/v1/field-user', payload: { survey_id: surveyA, fullName: 'X', email: 'x@team.ng', phoneNumber: '0803' } })).statusCode).toBe(403);
    const audit = await t.app.db.kysely.selectFrom('response_reviews').select(['actor_role', 'actor_name']).where('response_id', '=', id).execute();
    expect(audit).toEqual([{ actor_role: Role.organization, actor_name: 'The reviewer' }]);
  });

  it('an admin does everything but office users', async () => {
    expect((await call(t.app, office.admin!, { method: 'PATCH', url: `/api/v1/survey/${surveyB}/settings`, payload: { payAfterReview: true } })).statusCode).toBe(200);
    expect((await call(t.app, office.admin!, { method: 'GET', url: '/api/v1/organization/office-users' })).statusCode).toBe(403);
    expect((await call(t.app, office.admin!, { method: 'POST', url: '/api/v1/organization/office-users', payload: { email: 'sneaky@office.ng', role: 'owner' } })).statusCode).toBe(403);
  });
});

describe('survey-limited office users', () => {
  it('see only their surveys: the list, the table, a response, review and payouts of another survey are not found', async () => {
    const limited = await addOfficeUser(t.app, org.id, OfficeRole.admin, [surveyB]);
    const list = await call(t.app, limited.token, { method: 'GET', url: '/api/v1/survey/organization' });
    expect(list.json().survey.map((s: { _id: string }) => s._id)).toEqual([surveyB]);
    expect((await call(t.app, limited.token, { method: 'GET', url: `/api/v1/survey/organization/response/${surveyA}` })).statusCode).toBe(404);
    expect((await call(t.app, limited.token, { method: 'GET', url: `/api/v1/survey/organization/response/${surveyB}` })).statusCode).toBe(200);
    expect((await call(t.app, limited.token, { method: 'GET', url: `/api/v1/field-user/${surveyA}` })).statusCode).toBe(404);
    const id = await pending();
    expect((await call(t.app, limited.token, { method: 'GET', url: `/api/v1/responses/${id}` })).statusCode).toBe(404);
    expect((await review(limited.token, id)).json().results[0].status).toBe(404);
    expect((await call(t.app, limited.token, { method: 'GET', url: `/api/v1/payouts?survey_id=${surveyA}` })).statusCode).toBe(404);
    // Org-wide changes need every survey.
    expect((await call(t.app, limited.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Mine', questions: [{ text: 'Q', type: QuestionType.text }] } })).json().msg).toBe(OfficeMsg.limitedCannot);
    expect((await call(t.app, limited.token, { method: 'PATCH', url: '/api/v1/organization/settings', payload: { staleSyncDays: 5 } })).statusCode).toBe(403);
  });
});

describe('office users: invite, change, remove', () => {
  const url = '/api/v1/organization/office-users';

  it('invites by e-mail; the invitee registers from the mailed link and signs in as an analyst limited to one survey', async () => {
    const res = await call(t.app, org.token, { method: 'POST', url, payload: { email: ' New.Analyst@Office.NG ', role: 'analyst', surveyIds: [surveyA] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ msg: OfficeMsg.invited, officeUser: { email: 'new.analyst@office.ng', role: 'analyst', surveyIds: [surveyA], registered: false } });
    const mail = await lastMail(t.app, 'new.analyst@office.ng');
    expect(mail?.text).toContain('Office Org has invited you to Survey Bird as an analyst of its office');
    const invite = new URL(mail!.link!).searchParams.get('invite');
    expect((await call(t.app, null, { method: 'POST', url: '/api/v1/user/register', payload: { email: 'new.analyst@office.ng', password: 'pw-123456', invite } })).statusCode).toBe(200);
    const token = await login(t.app, 'new.analyst@office.ng', 'pw-123456');
    expect((await call(t.app, token, { method: 'GET', url: '/api/v1/user' })).json().user).toMatchObject({ role: Role.organization, officeRole: OfficeRole.analyst, organization_id: org.id });
    expect((await call(t.app, token, { method: 'GET', url: '/api/v1/survey/organization' })).json().survey.map((s: { _id: string }) => s._id)).toEqual([surveyA]);
    const listed = (await call(t.app, org.token, { method: 'GET', url })).json();
    expect(listed.officeUsers[0]).toMatchObject({ email: org.email, role: 'owner' });
    expect(listed.officeUsers.find((u: { email: string }) => u.email === 'new.analyst@office.ng')).toMatchObject({ registered: true });
  });

  it('refuses an e-mail already in an office, another role\'s account, another organization\'s surveys and a survey-limited owner', async () => {
    const other = await createOrganization(t.app, 'Other Org');
    const otherSurvey = (await createSurvey(t.app, other.id, { title: 'Theirs' })).id;
    expect((await call(t.app, org.token, { method: 'POST', url, payload: { email: other.email, role: 'admin' } })).json().msg).toBe(OfficeMsg.alreadyOfficeUser);
    expect((await call(t.app, org.token, { method: 'POST', url, payload: { email: fieldUser.email, role: 'admin' } })).statusCode).toBe(409);
    expect((await call(t.app, org.token, { method: 'POST', url, payload: { email: 'x1@office.ng', role: 'admin', surveyIds: [otherSurvey] } })).json().msg).toBe(OfficeMsg.surveysUnknown);
    expect((await call(t.app, org.token, { method: 'POST', url, payload: { email: 'x2@office.ng', role: 'owner', surveyIds: [surveyA] } })).json().msg).toBe(OfficeMsg.ownerSeesAll);
    expect((await call(t.app, org.token, { method: 'POST', url, payload: { email: 'x3@office.ng', role: 'boss' } })).json().msg).toBe(OfficeMsg.roleRequired);
  });

  it('a role change applies at the next request; a removed office user loses the organization at once', async () => {
    const person = await addOfficeUser(t.app, org.id, OfficeRole.analyst);
    expect((await review(person.token, await pending())).statusCode).toBe(403);
    const changed = await call(t.app, org.token, { method: 'PATCH', url: `${url}/${person.id}`, payload: { role: 'reviewer' } });
    expect(changed.json()).toMatchObject({ msg: OfficeMsg.updated, officeUser: { role: 'reviewer', surveyIds: null } });
    expect((await review(person.token, await pending())).statusCode).toBe(200);
    expect((await call(t.app, org.token, { method: 'DELETE', url: `${url}/${person.id}` })).json().msg).toBe(OfficeMsg.removed);
    expect((await call(t.app, person.token, { method: 'GET', url: '/api/v1/survey/organization' })).statusCode).toBe(403);
    expect((await call(t.app, person.token, { method: 'GET', url: '/api/v1/user' })).json().user).toMatchObject({ organization_id: null, officeRole: null });
    expect((await call(t.app, org.token, { method: 'DELETE', url: `${url}/${person.id}` })).statusCode).toBe(404);
  });

  it('the last owner cannot be removed or demoted; with a second owner, either can go', async () => {
    const own = await t.app.db.kysely.selectFrom('office_users').select('id').where('email', '=', org.email).executeTakeFirstOrThrow();
    expect((await call(t.app, org.token, { method: 'DELETE', url: `${url}/${own.id}` })).json()).toMatchObject({ msg: OfficeMsg.lastOwner });
    expect((await call(t.app, org.token, { method: 'PATCH', url: `${url}/${own.id}`, payload: { role: 'admin' } })).statusCode).toBe(409);
    const second = await addOfficeUser(t.app, org.id, OfficeRole.owner);
    // Two owners removing each other at once: one wins, the organization keeps an owner.
    const [a, b] = await Promise.all([
      call(t.app, org.token, { method: 'DELETE', url: `${url}/${second.id}` }),
      call(t.app, second.token, { method: 'DELETE', url: `${url}/${own.id}` }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409].sort());
    const owners = await t.app.db.kysely.selectFrom('office_users').select('id').where('organization_id', '=', org.id).where('role', '=', OfficeRole.owner).execute();
    expect(owners).toHaveLength(1);
    // Whoever is left restores the other as owner for the rest of the file.
    if (owners[0]!.id !== own.id) {
      await t.app.db.kysely.insertInto('office_users').values({ id: own.id, organization_id: org.id, email: org.email, role: OfficeRole.owner, survey_ids: null, invited_by: null, created_at: Date.now() }).execute();
    }
  });

  it('another organization\'s office user is not found, and only the owner manages office users', async () => {
    const other = await createOrganization(t.app, 'Third Org');
    const mine = await addOfficeUser(t.app, org.id, OfficeRole.finance);
    expect((await call(t.app, other.token, { method: 'PATCH', url: `${url}/${mine.id}`, payload: { role: 'owner' } })).statusCode).toBe(404);
    expect((await call(t.app, other.token, { method: 'DELETE', url: `${url}/${mine.id}` })).statusCode).toBe(404);
    expect((await call(t.app, mine.token, { method: 'DELETE', url: `${url}/${mine.id}` })).statusCode).toBe(403);
  });

  it('an organization with no membership yet (made by an older instance) is run by its owner e-mail; once it has one, that fallback ends', async () => {
    const id = randomUUID();
    const email = `legacy-${id.slice(0, 6)}@org.ng`;
    await t.app.db.kysely.insertInto('organizations').values({ id, name: 'Legacy Org', email, created_at: Date.now() }).execute();
    await createUser(t.app, email, Role.organization);
    const token = await login(t.app, email);
    expect((await call(t.app, token, { method: 'GET', url: '/api/v1/user' })).json().user).toMatchObject({ organization_id: id, officeRole: OfficeRole.owner });
    await addOfficeUser(t.app, id, OfficeRole.owner);
    expect((await call(t.app, token, { method: 'GET', url: '/api/v1/user' })).json().user).toMatchObject({ organization_id: null, officeRole: null });
  });
});
