import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Limits, Role } from '@survey-bird/contracts';
import { buildTestApp, call, createUser, lastMail, login, type TestApp } from '../../../test/helpers.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  await createUser(t.app, 'root@admin.ng', Role.masterAdmin);
  admin = await login(t.app, 'root@admin.ng');
});
afterAll(() => t.close());

const add = (payload: unknown, token = admin) => call(t.app, token, { method: 'POST', url: '/api/v1/organization', payload: payload as object });
const sendMail = (payload: unknown, token = admin) => call(t.app, token, { method: 'POST', url: '/api/v1/organization/mail', payload: payload as object });

describe('POST /organization', () => {
  it('validates the name, then the e-mail, with the words of the spec', async () => {
    for (const [body, msg] of [
      [{ email: 'a@b.ng' }, ApiMsg.organizationNameShort],
      [{ organizationName: 'ab', email: 'a@b.ng' }, ApiMsg.organizationNameShort],
      [{ organizationName: '  ab  ', email: 'a@b.ng' }, ApiMsg.organizationNameShort],
      [{ organizationName: 'Acme' }, ApiMsg.invalidEmail],
      [{ organizationName: 'Acme', email: 'not-an-email' }, ApiMsg.invalidEmail],
    ] as const) {
      const res = await add(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ msg });
    }
  });

  it('adds the organization and mails its owner a registration link; the owner registers as organization', async () => {
    const res = await add({ organizationName: 'Lagos Polls', email: ' Owner@LagosPolls.ng ' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.msg).toBe(ApiMsg.organizationCreated);
    expect(body.organization).toMatchObject({ organization_name: 'Lagos Polls', email: 'owner@lagospolls.ng' });
    expect(new Date(body.organization.createdAt).getTime()).toBeGreaterThan(0);
    const mail = await lastMail(t.app, 'owner@lagospolls.ng');
    expect(mail?.link).toMatch(/^http:\/\/sb\.test\/register\?email=owner%40lagospolls\.ng&invite=[\w-]{43}$/);
    expect(mail?.text).toContain('Lagos Polls');
    expect(mail?.subject).toBe('You are invited to run Lagos Polls on Survey Bird');

    const invite = new URL(mail!.link!).searchParams.get('invite');
    const reg = await call(t.app, null, { method: 'POST', url: '/api/v1/user/register', payload: { email: 'owner@lagospolls.ng', password: 'pw-123456', invite } });
    expect(reg.statusCode).toBe(200);
    const user = await t.app.db.kysely.selectFrom('users').select('role').where('email', '=', 'owner@lagospolls.ng').executeTakeFirstOrThrow();
    expect(user.role).toBe(Role.organization);
  });

  it('refuses a second organization with the same e-mail (409)', async () => {
    expect((await add({ organizationName: 'First Co', email: 'dup@org.ng' })).statusCode).toBe(200);
    const res = await add({ organizationName: 'Second Co', email: 'DUP@org.ng' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ msg: ApiMsg.organizationExists });
  });

  it('answers concurrent duplicates with one success and 409s, never a 500', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => add({ organizationName: 'Race Co', email: 'race@org.ng' })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json()).toMatchObject({ msg: ApiMsg.organizationExists });
    const rows = await t.app.db.kysely.selectFrom('organizations').select('id').where('email', '=', 'race@org.ng').execute();
    expect(rows).toHaveLength(1);
  });

  it('upgrades an existing account of role nothing and mails a sign-in link instead', async () => {
    await createUser(t.app, 'waiting@org.ng', Role.nothing);
    const res = await add({ organizationName: 'Waiting Ltd', email: 'waiting@org.ng' });
    expect(res.statusCode).toBe(200);
    expect((await lastMail(t.app, 'waiting@org.ng'))?.link).toBe('http://sb.test/login?email=waiting%40org.ng');
    const token = await login(t.app, 'waiting@org.ng');
    const me = await call(t.app, token, { method: 'GET', url: '/api/v1/organization' });
    expect(me.statusCode).toBe(200);
    expect(me.json().organization).toMatchObject({ organization_name: 'Waiting Ltd', email: 'waiting@org.ng' });
  });

  it('refuses an e-mail that belongs to an account or invitation of another role (409), adding nothing', async () => {
    await createUser(t.app, 'worker@org.ng', Role.fieldUser);
    const res = await add({ organizationName: 'Worker Org', email: 'worker@org.ng' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ msg: ApiMsg.emailHasOtherRole });

    const other = await createOrganization(t.app, 'Other');
    const survey = await createSurvey(t.app, other.id);
    await addMember(t.app, survey.id, other.id, { email: 'pending@org.ng', registered: false });
    // A pending field-user invitation never stops the admin making them an owner.
    const pending = await add({ organizationName: 'Pending Org', email: 'pending@org.ng' });
    expect(pending.statusCode).toBe(200);
    const rows = await t.app.db.kysely.selectFrom('organizations').select('email').where('email', 'in', ['worker@org.ng', 'pending@org.ng']).execute();
    expect(rows).toEqual([{ email: 'pending@org.ng' }]);
  });

  it('is for the master admin only', async () => {
    const org = await createOrganization(t.app, 'Not Admin');
    const res = await add({ organizationName: 'Sneaky', email: 'sneaky@org.ng' }, org.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ msg: ApiMsg.forbidden });
  });
});

describe('GET /organization', () => {
  it("returns the signed-in organization's own record", async () => {
    const org = await createOrganization(t.app, 'Mine Ltd');
    const res = await call(t.app, org.token, { method: 'GET', url: '/api/v1/organization' });
    expect(res.statusCode).toBe(200);
    expect(res.json().organization).toEqual({ _id: org.id, organization_name: 'Mine Ltd', email: org.email, createdAt: expect.any(String), staleSyncDays: 3 });
  });

  it('is refused to other roles', async () => {
    const res = await call(t.app, admin, { method: 'GET', url: '/api/v1/organization' });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /organization/all', () => {
  let s: TestApp;
  let root: string;
  beforeAll(async () => {
    s = await buildTestApp();
    await createUser(s.app, 'root@list.ng', Role.masterAdmin);
    root = await login(s.app, 'root@list.ng');
  });
  afterAll(() => s.close());
  const get = (query: string) => call(s.app, root, { method: 'GET', url: `/api/v1/organization/all${query}` });

  it('is empty on a fresh install', async () => {
    const res = await get('');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ organizations: [], page: 1, totalCount: 0, hasNextPage: false, hasPreviousPage: false });
  });

  it('pages newest first: exactly one page, then a last page of one', async () => {
    const base = Date.now() - 100_000;
    const rows = Array.from({ length: Limits.pageSize }, (_, i) => ({ id: `org-${String(i).padStart(2, '0')}`, name: `Company ${i}`, email: `c${i}@list.ng`, created_at: base + i }));
    await s.app.db.kysely.insertInto('organizations').values(rows).execute();
    const one = (await get('')).json();
    expect(one.organizations).toHaveLength(Limits.pageSize);
    expect(one.organizations[0].organization_name).toBe(`Company ${Limits.pageSize - 1}`);
    expect(one).toMatchObject({ page: 1, totalCount: Limits.pageSize, hasNextPage: false, hasPreviousPage: false });

    await s.app.db.kysely.insertInto('organizations').values({ id: 'org-oldest', name: 'Oldest Co', email: 'oldest@list.ng', created_at: base - 1 }).execute();
    const first = (await get('?page=1')).json();
    expect(first).toMatchObject({ totalCount: Limits.pageSize + 1, hasNextPage: true, hasPreviousPage: false });
    const last = (await get('?page=2')).json();
    expect(last.organizations.map((o: { organization_name: string }) => o.organization_name)).toEqual(['Oldest Co']);
    expect(last).toMatchObject({ page: 2, hasNextPage: false, hasPreviousPage: true });
    const beyond = (await get('?page=3')).json();
    expect(beyond).toMatchObject({ organizations: [], page: 3, hasNextPage: false, hasPreviousPage: true });
  });

  it('searches name and e-mail, case-insensitively, and reports misses as an empty page', async () => {
    const byName = (await get('?searchQuery=OLDEST')).json();
    expect(byName.organizations.map((o: { email: string }) => o.email)).toEqual(['oldest@list.ng']);
    const byEmail = (await get('?searchQuery=C1')).json();
    expect(byEmail.totalCount).toBe(11); // c1, c10..c19
    const miss = (await get('?searchQuery=zzz')).json();
    expect(miss).toEqual({ organizations: [], page: 1, totalCount: 0, hasNextPage: false, hasPreviousPage: false });
    const literal = (await get('?searchQuery=%25')).json();
    expect(literal.totalCount).toBe(0);
  });

  it('rejects a bad page number', async () => {
    const res = await get('?page=0');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: 'page must be a positive whole number' });
  });
});

describe('POST /organization/mail', () => {
  it('mails one organization', async () => {
    const org = await createOrganization(t.app, 'Mail One');
    const res = await sendMail({ organization_id: org.id, subject: 'Maintenance', body: 'We will be down on Sunday.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ msg: ApiMsg.mailSent, recipients: 1 });
    const mail = await lastMail(t.app, org.email);
    expect(mail).toMatchObject({ subject: 'Maintenance', text: 'We will be down on Sunday.' });
  });

  it('mails every organization without organization_id', async () => {
    const total = await t.app.db.kysely.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await sendMail({ subject: 'News', body: 'Hello all' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ msg: ApiMsg.mailSent, recipients: Number(total.n) });
    const sent = await t.app.db.kysely.selectFrom('mail_outbox').select('to_email').where('subject', '=', 'News').execute();
    expect(sent).toHaveLength(Number(total.n));
  });

  it('404s an unknown organization and validates subject and body', async () => {
    const unknown = await sendMail({ organization_id: 'no-such-org', subject: 'x', body: 'y' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ msg: ApiMsg.notFound });
    expect((await sendMail({ body: 'y' })).json()).toMatchObject({ msg: 'Provide a subject' });
    expect((await sendMail({ subject: 'x', body: '  ' })).json()).toMatchObject({ msg: 'Provide a message' });
  });
});
