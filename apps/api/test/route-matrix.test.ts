import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, Role, routes, type RouteName } from '@survey-bird/contracts';
import { buildTestApp, call, createUser, login, type TestApp } from './helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from './fixtures.js';

/**
 * Every route of the contracts table x every kind of caller. Organization A owns the data; every
 * caller comes from organization B or has no business there. No caller may get a 2xx that reveals
 * or changes A's data, and a route without an entry in `samples` fails this test.
 */
let t: TestApp;
const a = { orgId: '', surveyId: '', supervisorMemberId: '', fieldUserMemberId: '', responseId: '', payoutId: '', ownerEmail: '', secret: 'Only-A-Knows-This-Outlet' };
const callers: Record<string, string | null> = {};

/** The master admin's job is to see across organizations. */
const CROSS_ORGANIZATION: RouteName[] = ['allOrganizations', 'allFieldUsers', 'allUsers', 'sendMail'];
const PUBLIC: RouteName[] = ['login', 'register', 'sendRefreshToken', 'resetPassword', 'resendVerification', 'confirmEmail', 'getImage', 'healthz', 'readyz'];

function samples(): Record<RouteName, { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }> {
  const surveyParams = { surveyId: a.surveyId };
  const week = { startDate: new Date(Date.now() - 6 * 86_400_000).toISOString(), endDate: new Date(Date.now() + 86_400_000).toISOString() };
  return {
    login: {}, register: {}, sendRefreshToken: {}, resetPassword: {}, resendVerification: {}, confirmEmail: { params: { id: 'x' } }, getImage: { params: { id: 'x' } },
    healthz: {}, readyz: {},
    currentUser: {}, changePassword: { body: { oldPassword: 'wrong-one', newPassword: 'n' } }, signOut: {}, signOutAll: {},
    allUsers: { query: { searchQuery: '' } },
    currentOrganization: {}, allOrganizations: {}, createOrganization: { body: { organizationName: 'Intruder Org', email: a.ownerEmail } },
    sendMail: { body: { organization_id: a.orgId, subject: 'hi', body: 'hello' } },
    createSurvey: { body: { title: 'B survey', questions: [{ text: 'Q', type: QuestionType.text }] } },
    updateSurvey: { params: { id: a.surveyId }, body: { title: 'Hijacked', questions: [{ text: 'Q', type: QuestionType.text }] } },
    surveyVersions: { params: { id: a.surveyId } },
    importXlsform: {},
    organizationSurveys: {}, fieldUserSurveys: {}, supervisorSurveys: {},
    largeDataset: { query: { organization_id: a.orgId, survey_id: a.surveyId, question: 'Ward', searchQuery: 'a' } },
    datasetExport: { query: { survey_id: a.surveyId, question: 'Ward' } },
    respond: { body: { survey_id: a.surveyId, organization_id: a.orgId, answers: { 'Name of outlet': 'x', 'Outlet type': 'Kiosk' }, clientId: '3b241101-e2bb-4255-8caf-4136c566a962' } },
    syncResponses: { body: { responses: [{ survey_id: a.surveyId, organization_id: a.orgId, answers: { 'Name of outlet': 'x', 'Outlet type': 'Kiosk' }, clientId: '3b241101-e2bb-4255-8caf-4136c566a963' }] } },
    uploadImage: {},
    resumableCreate: {}, resumableOffset: { params: { id: '0123456789abcdef0123456789abcdef' } }, resumableAppend: { params: { id: '0123456789abcdef0123456789abcdef' } }, resumableTerminate: { params: { id: '0123456789abcdef0123456789abcdef' } },
    exportQueue: {},
    organizationResponses: { params: surveyParams }, organizationExport: { params: surveyParams }, organizationTopPerformer: { params: surveyParams },
    organizationByWeeks: { params: surveyParams, query: week },
    supervisorResponses: { params: surveyParams }, supervisorTopPerformer: { params: surveyParams }, supervisorExport: { params: surveyParams },
    fieldUsers: { params: surveyParams },
    inviteFieldUser: { body: { survey_id: a.surveyId, fullName: 'Intruder', email: 'intruder@b.ng', phoneNumber: '0803' } },
    allFieldUsers: {},
    supervisors: { params: surveyParams },
    inviteSupervisor: { body: { survey_id: a.surveyId, fullName: 'Intruder', email: 'intruder2@b.ng', phoneNumber: '0803', accountNumber: '0123456789', accountName: 'X' } },
    assignSupervisor: { body: { supervisorId: a.supervisorMemberId, fieldUserId: a.fieldUserMemberId, survey_id: a.surveyId } },
    withdrawMember: { params: { surveyId: a.surveyId, memberId: a.fieldUserMemberId } },
    supervisorFieldUsers: { params: surveyParams },
    currentSupervisorName: {},
    surveySettings: { params: { id: a.surveyId }, body: { payAfterReview: true, closed: true, photoQuality: 'high' } },
    reviewResponses: { body: { responseIds: [a.responseId], status: 'returned', comment: 'Intruder says fix it' } },
    responseDetail: { params: { id: a.responseId } },
    dismissFlag: { params: { id: a.responseId, flag: 'too_fast' }, body: { note: 'Intruder says it is fine' } },
    createPayout: { body: { survey_id: a.surveyId, key: '6f1c1c3e-6a4b-4d53-9a56-2d4f0c7f9e11' } },
    markPayoutPaid: { params: { id: a.payoutId }, body: { reference: 'INTRUDER' } },
    cancelPayout: { params: { id: a.payoutId } },
    payouts: { query: { survey_id: a.surveyId } },
    payout: { params: { id: a.payoutId } },
    payoutDownload: { params: { id: a.payoutId }, query: { format: 'csv' } },
    myResponseChanges: { query: { since: '0_' } },
    myEarnings: {},
    myResponses: { query: { page: '1' } },
    reportDevice: { body: { deviceId: 'matrix-phone', waiting: 0, failed: 0, photosWaiting: 0 } },
    organizationSettings: { body: { staleSyncDays: 9 } },
    supervisorSettings: {},
    updateSupervisorSettings: { body: { syncDigest: false } },
  };
}

function hs256(payload: object, secret: string, alg = 'HS256'): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${enc({ alg, typ: 'JWT' })}.${enc(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

beforeAll(async () => {
  t = await buildTestApp();
  const orgA = await createOrganization(t.app, 'Org A');
  a.orgId = orgA.id;
  a.ownerEmail = orgA.email;
  a.surveyId = (await createSurvey(t.app, orgA.id, { title: 'A secret survey', questions: [
    { text: 'Name of outlet', type: QuestionType.text, compulsory: true, options: [] },
    { text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Shop'] },
    { text: 'Ward', type: QuestionType.largeSelect, compulsory: false, options: [], optionCount: 1 },
  ] })).id;
  await t.app.db.kysely.insertInto('dataset_options').values({ survey_id: a.surveyId, question: 'Ward', position: 0, value: 'Agege Ward A', value_lower: 'agege ward a' }).execute();
  const supA = await addMember(t.app, a.surveyId, a.orgId, { role: Role.supervisor, fullName: 'Sup A' });
  a.supervisorMemberId = supA.id;
  const fuA = await addMember(t.app, a.surveyId, a.orgId, { fullName: 'Field A', supervisorId: supA.id, rate: 100 });
  a.fieldUserMemberId = fuA.id;
  a.responseId = (await addResponse(t.app, fuA, { id: a.surveyId, organizationId: a.orgId }, { answers: { 'Name of outlet': a.secret, 'Outlet type': 'Kiosk' } })).id;
  // A's response carries an open flag: nobody outside A may dismiss it.
  await t.app.services.flags.worker.drain();
  await t.app.db.kysely.insertInto('response_flags').values({ response_id: a.responseId, flag: 'too_fast', survey_id: a.surveyId, member_id: fuA.id, reason: 'Filled in 3 s', other_response_id: null, created_at: Date.now(), dismissed_at: null, dismissed_by: null, dismissed_role: null, dismiss_note: null }).execute();
  a.payoutId = 'payout-of-a-0001';
  await t.app.db.kysely.insertInto('payouts').values({ id: a.payoutId, organization_id: a.orgId, survey_id: a.surveyId, idempotency_key: 'key-of-a', status: 'draft', total: 100, response_count: 1, reference: null, created_by: orgA.userId, created_at: Date.now(), paid_by: null, paid_at: null, cancelled_at: null }).execute();

  const orgB = await createOrganization(t.app, 'Org B');
  const surveyB = await createSurvey(t.app, orgB.id, { title: 'B survey' });
  callers.organization = orgB.token;
  callers.supervisor = (await addMember(t.app, surveyB.id, orgB.id, { role: Role.supervisor })).token;
  callers.field_user = (await addMember(t.app, surveyB.id, orgB.id, {})).token;
  await createUser(t.app, 'root@matrix.ng', Role.masterAdmin);
  callers.master_admin = await login(t.app, 'root@matrix.ng');
  await createUser(t.app, 'nobody@matrix.ng', Role.nothing);
  callers.nothing = await login(t.app, 'nobody@matrix.ng');
  await createUser(t.app, 'cs@matrix.ng', Role.customerService);
  callers.customer_service = await login(t.app, 'cs@matrix.ng');
  await createUser(t.app, 'unverified@matrix.ng', Role.organization, { verified: false });
  callers.unverified = await login(t.app, 'unverified@matrix.ng');

  const victim = await createUser(t.app, 'victim@matrix.ng', Role.organization);
  const revoked = await login(t.app, 'victim@matrix.ng');
  await call(t.app, revoked, { method: 'POST', url: '/api/v1/user/sign-out' });
  callers.revoked = revoked;
  const sessionId = JSON.parse(Buffer.from(revoked.split('.')[1]!, 'base64url').toString()).sid;
  const now = Math.floor(Date.now() / 1000);
  callers.expired = hs256({ sid: sessionId, sub: victim.id, iat: now - 7200, exp: now - 3600 }, t.config.jwtSecret);
  callers.noExp = hs256({ sid: sessionId, sub: victim.id, iat: now }, t.config.jwtSecret);
  callers.algNone = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sid: sessionId, sub: victim.id, exp: now + 3600 })).toString('base64url')}.`;
  callers.wrongKey = hs256({ sid: sessionId, sub: victim.id, iat: now, exp: now + 3600 }, 'not-the-secret');
  callers.garbage = 'not.a.token';
  callers.anonymous = null;
});
afterAll(() => t.close());

function fill(path: string, params: Record<string, string> = {}) {
  return path.replace(/:(\w+)/g, (_m, k: string) => encodeURIComponent(params[k] ?? 'x'));
}

describe('route x role x tenant matrix', () => {
  it('has a sample for every route, and every route of the table is registered', () => {
    const s = samples();
    for (const name of Object.keys(routes) as RouteName[]) {
      expect(s[name], `sample for ${name}`).toBeDefined();
      expect(t.app.hasRoute({ method: routes[name].method, url: routes[name].path }), `${name} registered`).toBe(true);
    }
  });

  it('only the allow-listed routes are public', () => {
    const publicRoutes = (Object.keys(routes) as RouteName[]).filter((n) => routes[n].access === 'public');
    expect(publicRoutes.sort()).toEqual([...PUBLIC].sort());
  });

  it('gives no caller a 2xx it should not have, and leaks nothing of organization A', async () => {
    const s = samples();
    const failures: string[] = [];
    const aMarkers = () => [a.orgId, a.surveyId, a.supervisorMemberId, a.fieldUserMemberId, a.responseId, a.payoutId, a.secret, 'A secret survey'];
    // Signing out ends the caller's session: those routes go last so the rest are not vacuous 401s.
    const last: RouteName[] = ['signOut', 'signOutAll'];
    const order = [...(Object.keys(routes) as RouteName[]).filter((n) => !last.includes(n)), ...last];
    const allowedOk: string[] = [];
    for (const name of order) {
      const def = routes[name];
      if (def.access === 'public') continue;
      const sample = s[name];
      for (const [caller, token] of Object.entries(callers)) {
        const url = fill(def.path, sample.params) + (sample.query ? `?${new URLSearchParams(sample.query)}` : '');
        const res = await call(t.app, token, { method: def.method, url, ...(sample.body !== undefined ? { payload: sample.body as object } : {}) });
        const ok = res.statusCode >= 200 && res.statusCode < 300;
        const roleAllowed = def.access === 'user' ? caller in { organization: 1, supervisor: 1, field_user: 1, master_admin: 1, nothing: 1, customer_service: 1, unverified: 1 } : (def.access as readonly string[]).includes(caller);
        if (ok && !roleAllowed) failures.push(`${name} gave ${res.statusCode} to ${caller}`);
        if (ok && roleAllowed) allowedOk.push(`${name}:${caller}`);
        const crossOrgByDesign = caller === 'master_admin' && CROSS_ORGANIZATION.includes(name);
        // A review answers every id it was sent: the caller's own input comes back, as a 404 each.
        const echoed = name === 'reviewResponses' && ok ? res.body.replaceAll(`"_id":"${a.responseId}","status":404`, '') : res.body;
        if (ok && !crossOrgByDesign && aMarkers().some((m) => echoed.includes(m))) failures.push(`${name} leaked organization A data to ${caller}`);
        if (res.statusCode >= 500) failures.push(`${name} gave ${res.statusCode} to ${caller}: ${res.body}`);
        if (!roleAllowed && !ok) expect([401, 403], `${name} for ${caller}`).toContain(res.statusCode);
      }
    }
    expect(failures).toEqual([]);
    // The matrix must exercise real access: every role reaches its own routes.
    for (const expected of ['currentUser:organization', 'organizationSurveys:organization', 'fieldUserSurveys:field_user', 'supervisorSurveys:supervisor', 'allOrganizations:master_admin', 'signOut:organization']) {
      expect(allowedOk).toContain(expected);
    }
  });

  it('changed nothing of organization A', async () => {
    const k = t.app.db.kysely;
    const members = await k.selectFrom('members').selectAll().where('survey_id', '=', a.surveyId).execute();
    expect(members).toHaveLength(2);
    expect(members.find((m) => m.id === a.fieldUserMemberId)?.supervisor_id).toBe(a.supervisorMemberId);
    expect(members.map((m) => m.withdrawn_at)).toEqual([null, null]);
    const responses = await k.selectFrom('responses').select(['id', 'status', 'paid_at']).where('survey_id', '=', a.surveyId).execute();
    expect(responses).toEqual([{ id: a.responseId, status: 'approved', paid_at: null }]);
    expect(await k.selectFrom('payout_items').select('response_id').execute()).toEqual([]);
    expect(await k.selectFrom('payouts').select(['id', 'status', 'reference']).where('survey_id', '=', a.surveyId).execute()).toEqual([{ id: a.payoutId, status: 'draft', reference: null }]);
    expect(await k.selectFrom('surveys').select(['pay_after_review', 'version', 'closed_at', 'title', 'photo_quality']).where('id', '=', a.surveyId).executeTakeFirstOrThrow()).toEqual({ pay_after_review: 0, version: 1, closed_at: null, title: 'A secret survey', photo_quality: 'standard' });
    expect(await k.selectFrom('survey_versions').select('version').where('survey_id', '=', a.surveyId).execute()).toEqual([]);
    expect(await k.selectFrom('response_reviews').select('id').execute()).toEqual([]);
    expect(await k.selectFrom('response_flags').select(['flag', 'dismissed_at']).where('response_id', '=', a.responseId).execute()).toEqual([{ flag: 'too_fast', dismissed_at: null }]);
    expect(await k.selectFrom('flag_dismissals').select('id').execute()).toEqual([]);
    const orgs = await k.selectFrom('organizations').select(['email', 'stale_sync_days']).where('email', '=', a.ownerEmail).execute();
    expect(orgs.map((o) => Number(o.stale_sync_days))).toEqual([3]);
    const supA = await k.selectFrom('members').select('user_id').where('id', '=', a.supervisorMemberId).executeTakeFirstOrThrow();
    expect(await k.selectFrom('supervisor_settings').select('user_id').where('user_id', '=', supA.user_id!).execute()).toEqual([]);
  });
});
