import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, type FieldUserListReply, type OrganizationReply } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { SyncDigest } from './sync-digest.js';

const DAY = 86_400_000;
/** Noon UTC, two days from now: a digest day that starts empty, and after SYNC_DIGEST_HOUR_UTC. */
const NOON = Math.floor(Date.now() / DAY) * DAY + 2 * DAY + 12 * 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
let otherSurveyId: string;
let sade: Awaited<ReturnType<typeof addMember>>;
let tunde: Awaited<ReturnType<typeof addMember>>;
let ada: Awaited<ReturnType<typeof addMember>>;
let bayo: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Digest Org');
  other = await createOrganization(t.app, 'Other Digest Org');
  surveyId = (await createSurvey(t.app, org.id)).id;
  otherSurveyId = (await createSurvey(t.app, other.id)).id;
  sade = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Sade Supervisor' });
  tunde = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Tunde Supervisor' });
  ada = await addMember(t.app, surveyId, org.id, { fullName: 'Ada Silent', supervisorId: sade.id });
  bayo = await addMember(t.app, surveyId, org.id, { fullName: 'Bayo Failed', supervisorId: sade.id });
  const chi = await addMember(t.app, surveyId, org.id, { fullName: 'Chi Fine', supervisorId: sade.id });
  await addMember(t.app, surveyId, org.id, { fullName: 'Dede Never Reported', supervisorId: sade.id });
  const efe = await addMember(t.app, surveyId, org.id, { fullName: 'Efe Silent Too', supervisorId: tunde.id });
  const report = (token: string | null, body: object) => call(t.app, token, { method: 'POST', url: '/api/v1/me/device', payload: { deviceId: 'phone-1', appVersion: '1', waiting: 0, failed: 0, photosWaiting: 0, ...body } });
  // Ada: work on the phone and no sync for 5 days; Bayo: synced an hour ago with a failed response;
  // Chi: synced an hour ago, nothing failed; Efe (Tunde's): silent for 10 days.
  expect((await report(ada.token, { waiting: 3, photosWaiting: 2, lastSyncAt: iso(NOON - 5 * DAY) })).statusCode).toBe(200);
  expect((await report(bayo.token, { failed: 1, lastSyncAt: iso(Date.now() - 3_600_000) })).statusCode).toBe(200);
  expect((await report(chi.token, { waiting: 1, lastSyncAt: iso(Date.now() - 3_600_000) })).statusCode).toBe(200);
  expect((await report(efe.token, { waiting: 1, lastSyncAt: iso(NOON - 10 * DAY) })).statusCode).toBe(200);
});
afterAll(() => t.close());

const settings = (token: string | null, payload: unknown) => call(t.app, token, { method: 'PATCH', url: '/api/v1/organization/settings', payload: payload as object });
const mySettings = (token: string | null, payload?: unknown) =>
  call(t.app, token, payload === undefined ? { method: 'GET', url: '/api/v1/me/supervisor-settings' } : { method: 'PATCH', url: '/api/v1/me/supervisor-settings', payload: payload as object });
const mailsTo = (email: string) => t.app.db.kysely.selectFrom('mail_outbox').select(['subject', 'text', 'link']).where('to_email', '=', email).orderBy('created_at').execute();

describe("the organization's no-sync threshold (issue 18)", () => {
  it('is 3 days until the organization sets it, and the field-user lists of its surveys carry it', async () => {
    expect(((await call(t.app, org.token, { method: 'GET', url: '/api/v1/organization' })).json() as OrganizationReply).organization.staleSyncDays).toBe(3);
    const res = await settings(org.token, { staleSyncDays: 5 });
    expect(res.statusCode).toBe(200);
    expect((res.json() as OrganizationReply).organization).toMatchObject({ _id: org.id, staleSyncDays: 5 });
    const orgList = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/field-user/${surveyId}` })).json() as FieldUserListReply;
    expect(orgList.staleSyncDays).toBe(5);
    // The supervisor's page follows the organization's value.
    const supList = (await call(t.app, sade.token, { method: 'GET', url: `/api/v1/supervisor/field-user/${surveyId}` })).json() as FieldUserListReply;
    expect(supList.staleSyncDays).toBe(5);
    // Another organization keeps its own.
    expect(((await call(t.app, other.token, { method: 'GET', url: `/api/v1/field-user/${otherSurveyId}` })).json() as FieldUserListReply).staleSyncDays).toBe(3);
    expect((await settings(org.token, { staleSyncDays: 3 })).statusCode).toBe(200);
  });

  it.each([
    ['a hex string', { staleSyncDays: '0x10' }],
    ['a digit string', { staleSyncDays: '5' }],
    ['zero', { staleSyncDays: 0 }],
    ['a fraction', { staleSyncDays: 1.5 }],
    ['more than 90', { staleSyncDays: 91 }],
  ])('refuses %s with a clear 400', async (_, payload) => {
    const res = await settings(org.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('staleSyncDays must be a whole number of days from 1 to 90');
  });

  it('refuses an empty body, and anyone but an organization', async () => {
    expect((await settings(org.token, {})).json()).toMatchObject({ msg: 'Provide staleSyncDays' });
    expect((await settings(sade.token, { staleSyncDays: 9 })).statusCode).toBe(403);
    expect((await settings(ada.token, { staleSyncDays: 9 })).statusCode).toBe(403);
    expect((await settings(null, { staleSyncDays: 9 })).statusCode).toBe(401);
  });
});

describe("supervisors' daily sync e-mail (issue 18)", () => {
  it('mails a supervisor once a day the field users with no sync for N days or with failed responses', async () => {
    const digest = () => new SyncDigest(t.app.db.kysely, t.app.mailer, 'https://sb.example');
    // Before 06:00 UTC nobody is checked.
    expect(await digest().run(NOON - 7 * 3_600_000)).toBe(0);
    expect(await t.app.db.kysely.selectFrom('sync_digests').selectAll().execute()).toEqual([]);

    expect(await digest().run(NOON)).toBe(2);
    const [mail] = await mailsTo(sade.email);
    expect(mail!.subject).toBe('Survey Bird: 2 field users to check');
    expect(mail!.link).toBe('https://sb.example/survey-bird/supervisor/field-user/manage');
    const lines = mail!.text.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`- Ada Silent: no sync for 5 days (last ${iso(NOON - 5 * DAY).slice(0, 16).replace('T', ' ')} UTC); 3 responses and 2 photos waiting on the phone`);
    expect(lines[1]).toMatch(/^- Bayo Failed: last sync \d{4}-\d\d-\d\d \d\d:\d\d UTC; 1 failed response$/);
    expect(mail!.text).not.toMatch(/Chi Fine|Dede/);
    expect((await mailsTo(tunde.email)).map((m) => m.subject)).toEqual(['Survey Bird: 1 field user to check']);

    // Later the same day, on this or another instance: nothing more.
    expect(await digest().run(NOON + 3_600_000)).toBe(0);
    expect(await mailsTo(sade.email)).toHaveLength(1);
  });

  it('follows the organization\'s threshold, skips supervisors who opted out, and sends a claim a stopped run left', async () => {
    const digest = () => new SyncDigest(t.app.db.kysely, t.app.mailer, 'https://sb.example');
    const nextDay = NOON + DAY;
    // 7 days: Ada (6 days silent by then) is no longer listed, Bayo's failure still is.
    expect((await settings(org.token, { staleSyncDays: 7 })).statusCode).toBe(200);
    expect((await mySettings(tunde.token, { syncDigest: false })).json()).toEqual({ syncDigest: false });
    expect(await digest().run(nextDay)).toBe(1);
    const sade2 = (await mailsTo(sade.email))[1]!;
    expect(sade2.subject).toBe('Survey Bird: 1 field user to check');
    expect(sade2.text).not.toContain('Ada Silent');
    expect(await mailsTo(tunde.email)).toHaveLength(1);

    // A claim that was never mailed (the run stopped after claiming) goes out once, with the next run.
    const day3 = nextDay + DAY;
    await t.app.db.kysely.insertInto('sync_digests').values({ user_id: tunde.userId!, day: iso(day3).slice(0, 10), field_users: 1, text: '- Efe Silent Too: no sync for 12 days', created_at: day3, mailed_at: null }).execute();
    expect(await digest().run(day3)).toBe(2);
    expect(await digest().run(day3 + 60_000)).toBe(0);
    expect((await mailsTo(tunde.email)).map((m) => m.subject)).toEqual(['Survey Bird: 1 field user to check', 'Survey Bird: 1 field user to check']);
    expect((await mailsTo(sade.email))).toHaveLength(3);
    await settings(org.token, { staleSyncDays: 3 });
  });
});

describe("a supervisor's own settings", () => {
  it('the e-mail is on until the supervisor turns it off; each supervisor changes only their own', async () => {
    expect((await mySettings(sade.token)).json()).toEqual({ syncDigest: true });
    expect((await mySettings(sade.token, { syncDigest: false })).json()).toEqual({ syncDigest: false });
    expect((await mySettings(sade.token)).json()).toEqual({ syncDigest: false });
    expect((await mySettings(sade.token, { syncDigest: true })).json()).toEqual({ syncDigest: true });
    expect((await mySettings(tunde.token)).json()).toEqual({ syncDigest: false });
  });

  it.each([['a string', { syncDigest: 'false' }], ['a number', { syncDigest: 0 }], ['nothing', {}]])('refuses %s with a clear 400', async (_, payload) => {
    const res = await mySettings(sade.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: 'syncDigest must be true or false' });
  });

  it('is for supervisors only', async () => {
    for (const token of [org.token, ada.token]) {
      expect((await mySettings(token)).statusCode).toBe(403);
      expect((await mySettings(token, { syncDigest: false })).statusCode).toBe(403);
    }
    expect((await mySettings(null)).statusCode).toBe(401);
  });
});
