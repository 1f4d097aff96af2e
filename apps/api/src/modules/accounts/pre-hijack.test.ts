import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Msg, Role } from '@survey-bird/contracts';
import { createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, lastMail, tokenFromLink, type TestApp } from '../../../test/helpers.js';

// An attacker who registers an invited e-mail first never gets a usable account.
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Hijack Org');
  surveyId = (await createSurvey(t.app, org.id)).id;
});
afterAll(() => t.close());

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1/user${url}`, payload });
const me = (token: string) => call(t.app, token, { method: 'GET', url: '/api/v1/user' });
const invite = (email: string) => call(t.app, org.token, { method: 'POST', url: '/api/v1/field-user', payload: { survey_id: surveyId, fullName: 'Invited Person', email, phoneNumber: '08030000000' } });
const respond = (token: string) => call(t.app, token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: surveyId, organization_id: org.id, answers: { 'Name of outlet': 'x', 'Outlet type': 'Kiosk' } } });
const inviteToken = async (email: string) => new URL((await lastMail(t.app, email))!.link!).searchParams.get('invite')!;

describe('account pre-hijacking', () => {
  it('after the invitation: registering without the mailed token creates nothing, the invitee registers from the link', async () => {
    expect((await invite('victim1@team.ng')).statusCode).toBe(200);
    const attack = await post('/register', { email: 'victim1@team.ng', password: 'attacker-pw' });
    expect(attack.statusCode).toBe(200);
    expect(attack.json()).toMatchObject({ msg: Msg.accountCreated });
    const forged = await post('/register', { email: 'victim1@team.ng', password: 'attacker-pw', invite: 'A'.repeat(43) });
    expect(forged.json()).toMatchObject({ msg: Msg.accountCreated });
    expect(await t.app.db.kysely.selectFrom('users').select('id').where('email', '=', 'victim1@team.ng').executeTakeFirst()).toBeUndefined();
    expect((await post('/login', { email: 'victim1@team.ng', password: 'attacker-pw' })).statusCode).toBe(401);

    // The invitee is mailed the invitation link again, and registers with it.
    const mail = await lastMail(t.app, 'victim1@team.ng');
    expect(mail?.subject).toBe('Create your Survey Bird account from your invitation');
    const registered = await post('/register', { email: 'victim1@team.ng', password: 'victim-pw', invite: await inviteToken('victim1@team.ng') });
    expect(registered.statusCode).toBe(200);
    const signIn = await post('/login', { email: 'victim1@team.ng', password: 'victim-pw' });
    expect(signIn.statusCode).toBe(200);
    expect((await me(signIn.json().token)).json().user).toMatchObject({ role: Role.fieldUser, verified: true });
    expect((await respond(signIn.json().token)).statusCode).toBe(200);
    // Once the account exists the attacker's later attempts change nothing.
    await post('/register', { email: 'victim1@team.ng', password: 'attacker-pw', invite: await inviteToken('victim1@team.ng') });
    expect((await post('/login', { email: 'victim1@team.ng', password: 'attacker-pw' })).statusCode).toBe(401);
  });

  it('before the invitation: the unverified account and its session go when the e-mail is invited', async () => {
    expect((await post('/register', { email: 'victim2@team.ng', password: 'attacker-pw' })).statusCode).toBe(200);
    const attacker = (await post('/login', { email: 'victim2@team.ng', password: 'attacker-pw' })).json().token as string;
    expect((await me(attacker)).statusCode).toBe(403);
    const staleConfirm = tokenFromLink((await lastMail(t.app, 'victim2@team.ng'))?.link);

    expect((await invite('victim2@team.ng')).statusCode).toBe(200);
    expect((await me(attacker)).statusCode).toBe(401);
    expect((await respond(attacker)).statusCode).toBe(401);
    // The victim clicking the attacker's confirmation mail now confirms nothing.
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/user/${staleConfirm}` })).statusCode).toBe(400);
    expect((await post('/login', { email: 'victim2@team.ng', password: 'attacker-pw' })).statusCode).toBe(401);

    const link = (await lastMail(t.app, 'victim2@team.ng'))?.link;
    expect(link).toContain('/register?email=victim2%40team.ng&invite=');
    await post('/register', { email: 'victim2@team.ng', password: 'victim-pw', invite: await inviteToken('victim2@team.ng') });
    const victim = (await post('/login', { email: 'victim2@team.ng', password: 'victim-pw' })).json().token as string;
    expect((await respond(victim)).statusCode).toBe(200);
  });

  it('confirming an e-mail revokes every session created before the confirmation', async () => {
    await post('/register', { email: 'self@person.ng', password: 'own-pw-1' });
    const before = (await post('/login', { email: 'self@person.ng', password: 'own-pw-1' })).json().token as string;
    expect((await me(before)).statusCode).toBe(403);
    const confirm = await t.app.inject({ method: 'GET', url: `/api/v1/user/${tokenFromLink((await lastMail(t.app, 'self@person.ng'))?.link)}` });
    expect(confirm.json()).toMatchObject({ msg: ApiMsg.accountVerified });
    expect((await me(before)).statusCode).toBe(401);
    const after = (await post('/login', { email: 'self@person.ng', password: 'own-pw-1' })).json().token as string;
    expect((await me(after)).statusCode).toBe(200);
  });
});
