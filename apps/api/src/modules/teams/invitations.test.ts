import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Msg, Role } from '@survey-bird/contracts';
import { buildTestApp, call, createUser, lastMail, login, type TestApp } from '../../../test/helpers.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Inviting Org');
  surveyId = (await createSurvey(t.app, org.id, { title: 'Retail audit' })).id;
});
afterAll(() => t.close());

const inviteFieldUser = (payload: Record<string, unknown>, token = org.token) => call(t.app, token, { method: 'POST', url: '/api/v1/field-user', payload });
const inviteSupervisor = (payload: Record<string, unknown>, token = org.token) => call(t.app, token, { method: 'POST', url: '/api/v1/supervisor', payload });
const person = (email: string) => ({ survey_id: surveyId, fullName: 'Ngozi Eze', email, phoneNumber: '08031234567' });
const supervisorPerson = (email: string) => ({ ...person(email), accountNumber: '0123456789', accountName: 'Ngozi Eze', bank: 'Access Bank' });
const member = (email: string) => t.app.db.kysely.selectFrom('members').selectAll().where('survey_id', '=', surveyId).where('email', '=', email).executeTakeFirst();

describe('POST /field-user: validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['no active survey', { survey_id: undefined }, Msg.noActiveSurvey],
    ['an empty survey id', { survey_id: '' }, Msg.noActiveSurvey],
    ['a short name', { fullName: 'Al' }, ApiMsg.fullNameShort],
    ['a missing name', { fullName: undefined }, ApiMsg.fullNameShort],
    ['a bad e-mail', { email: 'ngozi@' }, ApiMsg.invalidEmail],
    ['no phone', { phoneNumber: ' ' }, ApiMsg.providePhone],
    ['a negative rate', { rate: -5 }, 'Rate cannot be negative'],
    ['a fractional rate', { rate: 10.5 }, 'Rate must be a whole number of naira'],
    ['a 9-digit account number', { accountNumber: '012345678' }, ApiMsg.invalidAccountNumber],
    ['an 11-digit account number', { accountNumber: '01234567890' }, ApiMsg.invalidAccountNumber],
    ['an account number with a letter', { accountNumber: '01234567O9' }, ApiMsg.invalidAccountNumber],
    ['an account number that is not text', { accountNumber: 123456789 }, ApiMsg.invalidAccountNumber],
  ];
  for (const [name, body, msg] of cases) {
    it(`refuses ${name}: '${msg}'`, async () => {
      const res = await inviteFieldUser({ ...person('valid@team.ng'), ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ msg });
    });
  }
});

describe('POST /supervisor: validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['no active survey', { survey_id: undefined }, Msg.noActiveSurvey],
    ['a short name', { fullName: 'Al' }, ApiMsg.fullNameShort],
    ['a bad e-mail', { email: 'no-at-sign' }, ApiMsg.invalidEmail],
    ['no phone', { phoneNumber: '' }, ApiMsg.providePhone],
    ['no account number', { accountNumber: undefined }, ApiMsg.invalidAccountNumber],
    ['a 9-character account number', { accountNumber: '012345678' }, ApiMsg.invalidAccountNumber],
    ['an 11-character account number', { accountNumber: '01234567890' }, ApiMsg.invalidAccountNumber],
    ['a 10-character account number with spaces inside', { accountNumber: '0123 45678' }, ApiMsg.invalidAccountNumber],
    ['no account name', { accountName: '  ' }, ApiMsg.provideAccountName],
  ];
  for (const [name, body, msg] of cases) {
    it(`refuses ${name}: '${msg}'`, async () => {
      const res = await inviteSupervisor({ ...supervisorPerson('svp-valid@team.ng'), ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ msg });
    });
  }
});

describe('inviting', () => {
  it('invites a new field user with rate 0 by default and mails a registration link; registering links the invitation', async () => {
    const res = await inviteFieldUser({ ...person(' New.Person@Team.ng '), bank: 'GTBank' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.msg).toBe(ApiMsg.fieldUserInvited);
    expect(body.fieldsUser).toEqual({
      _id: expect.any(String), fullName: 'Ngozi Eze', phoneNumber: '08031234567', email: 'new.person@team.ng', bank: 'GTBank', accountNumber: '', accountName: '',
      rate: 0, responses: 0, outstanding: 0, awaitingReview: 0, supervisorId: null, supervisorName: null,
    });
    const mail = await lastMail(t.app, 'new.person@team.ng');
    expect(mail?.subject).toBe('Inviting Org invites you to Survey Bird');
    expect(mail?.text).toContain('Inviting Org has invited you to Survey Bird as a field user of the survey "Retail audit"');
    const link = mail?.link;
    expect(link).toMatch(/^http:\/\/sb\.test\/register\?email=new\.person%40team\.ng&invite=[\w-]{43}$/);
    expect((await member('new.person@team.ng'))?.user_id).toBeNull();

    const invite = new URL(link!).searchParams.get('invite');
    const reg = await call(t.app, null, { method: 'POST', url: '/api/v1/user/register', payload: { email: 'new.person@team.ng', password: 'pw-123456', invite } });
    expect(reg.statusCode).toBe(200);
    const user = await t.app.db.kysely.selectFrom('users').select(['id', 'role']).where('email', '=', 'new.person@team.ng').executeTakeFirstOrThrow();
    expect(user.role).toBe(Role.fieldUser);
    expect((await member('new.person@team.ng'))?.user_id).toBe(user.id);
  });

  it('keeps the rate given in naira', async () => {
    const res = await inviteFieldUser({ ...person('rated@team.ng'), rate: 250 });
    expect(res.json().fieldsUser.rate).toBe(250);
    expect((await member('rated@team.ng'))?.rate).toBe(250);
  });

  it('links an existing account of the same role at once and mails a sign-in link, without a new registration', async () => {
    const other = await createSurvey(t.app, org.id, { title: 'Earlier survey' });
    const existing = await addMember(t.app, other.id, org.id, { email: 'veteran@team.ng' });
    const res = await inviteFieldUser(person('veteran@team.ng'));
    expect(res.statusCode).toBe(200);
    expect((await member('veteran@team.ng'))?.user_id).toBe(existing.userId);
    expect((await lastMail(t.app, 'veteran@team.ng'))?.link).toBe('http://sb.test/login?email=veteran%40team.ng');
    const users = await t.app.db.kysely.selectFrom('users').select('id').where('email', '=', 'veteran@team.ng').execute();
    expect(users).toHaveLength(1);
    const surveys = (await call(t.app, existing.token, { method: 'GET', url: '/api/v1/survey/field-user' })).json();
    expect(surveys.totalCount).toBe(2);
  });

  it('upgrades an account of role nothing to the invited role', async () => {
    await createUser(t.app, 'newcomer@team.ng', Role.nothing);
    const res = await inviteSupervisor(supervisorPerson('newcomer@team.ng'));
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe(ApiMsg.supervisorInvited);
    expect(res.json().fieldsUser).toEqual({
      _id: expect.any(String), fullName: 'Ngozi Eze', phoneNumber: '08031234567', email: 'newcomer@team.ng', bank: 'Access Bank', accountNumber: '0123456789', accountName: 'Ngozi Eze',
      outstanding: 0, awaitingReview: 0, fieldUserCount: 0,
    });
    const user = await t.app.db.kysely.selectFrom('users').select(['id', 'role']).where('email', '=', 'newcomer@team.ng').executeTakeFirstOrThrow();
    expect(user.role).toBe(Role.supervisor);
    expect((await member('newcomer@team.ng'))?.user_id).toBe(user.id);
    expect((await lastMail(t.app, 'newcomer@team.ng'))?.link).toBe('http://sb.test/login?email=newcomer%40team.ng');
    const name = await call(t.app, await login(t.app, 'newcomer@team.ng'), { method: 'GET', url: '/api/v1/supervisor/current-supervisor/name' });
    expect(name.json()).toEqual({ supervisor: 'Ngozi Eze' });
  });

  it('refuses an e-mail whose account, organization or pending invitation has another role (409), creating nothing', async () => {
    await createUser(t.app, 'boss@team.ng', Role.supervisor);
    const res = await inviteFieldUser(person('boss@team.ng'));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ msg: ApiMsg.emailHasOtherRole });
    expect(await member('boss@team.ng')).toBeUndefined();

    expect((await inviteFieldUser(person('pending-fu@team.ng'))).statusCode).toBe(200);
    const other = await createSurvey(t.app, org.id, { title: 'Another' });
    const pending = await inviteSupervisor({ ...supervisorPerson('pending-fu@team.ng'), survey_id: other.id });
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({ msg: ApiMsg.emailHasOtherRole });
  });

  it('never tells an organization that an e-mail is an admin or an owner: the invitation is accepted and stays inert', async () => {
    await createUser(t.app, 'root@admin.ng', Role.masterAdmin);
    const otherOrg = await createOrganization(t.app, 'Owner Elsewhere');
    for (const email of ['root@admin.ng', otherOrg.email, org.email]) {
      const res = await inviteSupervisor(supervisorPerson(email));
      expect(res.statusCode, email).toBe(200);
      expect((await member(email))?.user_id, email).toBeNull();
      const users = await t.app.db.kysely.selectFrom('users').select('role').where('email', '=', email).execute();
      expect(users.length, email).toBe(1);
      expect(users[0]!.role).not.toBe(Role.supervisor);
    }
    const adminToken = await login(t.app, 'root@admin.ng');
    expect((await call(t.app, adminToken, { method: 'GET', url: '/api/v1/survey/supervisor' })).statusCode).toBe(403);
  });

  it("lets another organization's pending invitation of another role never block a different organization", async () => {
    const orgB = await createOrganization(t.app, 'Second Org');
    const surveyB = await createSurvey(t.app, orgB.id);
    expect((await inviteSupervisor(supervisorPerson('shared-person@team.ng'))).statusCode).toBe(200);
    const asFieldUser = await inviteFieldUser({ ...person('shared-person@team.ng'), survey_id: surveyB.id }, orgB.token);
    expect(asFieldUser.statusCode).toBe(200);
    // Within one organization a pending invitation of another role still answers 409.
    const again = await inviteFieldUser({ ...person('shared-person@team.ng'), survey_id: (await createSurvey(t.app, org.id)).id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ msg: ApiMsg.emailHasOtherRole });
  });

  it('refuses the same e-mail twice on one survey (409)', async () => {
    expect((await inviteFieldUser(person('twice@team.ng'))).statusCode).toBe(200);
    const res = await inviteFieldUser({ ...person('TWICE@team.ng'), fullName: 'Someone Else' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ msg: ApiMsg.alreadyInvited });
  });

  it('answers concurrent invitations of one e-mail with one success and 409s', async () => {
    const results = await Promise.all([1, 2, 3].map(() => inviteFieldUser(person('racer@team.ng'))));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json()).toMatchObject({ msg: ApiMsg.alreadyInvited });
    const rows = await t.app.db.kysely.selectFrom('members').select('id').where('email', '=', 'racer@team.ng').execute();
    expect(rows).toHaveLength(1);
  });

  it("404s another organization's survey and an unknown one, creating nothing and mailing nobody", async () => {
    const intruder = await createOrganization(t.app, 'Intruder');
    for (const res of [
      await inviteFieldUser(person('spy@team.ng'), intruder.token),
      await inviteSupervisor(supervisorPerson('spy@team.ng'), intruder.token),
      await inviteFieldUser({ ...person('spy@team.ng'), survey_id: 'no-such-survey' }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ msg: ApiMsg.notFound });
    }
    expect(await t.app.db.kysely.selectFrom('members').select('id').where('email', '=', 'spy@team.ng').execute()).toEqual([]);
    expect(await lastMail(t.app, 'spy@team.ng')).toBeUndefined();
  });

  it('is for organizations only', async () => {
    const fu = await addMember(t.app, surveyId, org.id);
    expect((await inviteFieldUser(person('x@team.ng'), fu.token!)).statusCode).toBe(403);
  });
});
