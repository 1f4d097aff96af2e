import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICE_ROLES, OfficeRole, QuestionType, Role, routes, type RouteName } from '@survey-bird/contracts';
import { buildTestApp, call, createUser, login, type TestApp } from './helpers.js';
import { addMember, addOfficeUser, addResponse, createOrganization, createSurvey } from './fixtures.js';

/**
 * Every route of the contracts table x every kind of caller. Organization A owns the data; every
 * caller comes from organization B or has no business there. No caller may get a 2xx that reveals
 * or changes A's data, and a route without an entry in `samples` fails this test.
 */
let t: TestApp;
const a = { orgId: '', surveyId: '', supervisorMemberId: '', fieldUserMemberId: '', fieldUserEmail: '', bankChangeId: 'bank-change-of-a', responseId: '', payoutId: '', webhookId: 'webhook-of-a-0001', deliveryId: '', ownerEmail: '', officeUserId: '', tokenId: '', secret: 'Only-A-Knows-This-Outlet' };
const callers: Record<string, string | null> = {};

/** The master admin's job is to see across organizations. */
const CROSS_ORGANIZATION: RouteName[] = ['allOrganizations', 'allFieldUsers', 'allUsers', 'sendMail'];
const PUBLIC: RouteName[] = ['login', 'register', 'sendRefreshToken', 'resetPassword', 'resendVerification', 'confirmEmail', 'getImage', 'getBasemap', 'healthz', 'readyz'];

function samples(): Record<RouteName, { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }> {
  const surveyParams = { surveyId: a.surveyId };
  const week = { startDate: new Date(Date.now() - 6 * 86_400_000).toISOString(), endDate: new Date(Date.now() + 86_400_000).toISOString() };
  return {
    login: {}, register: {}, sendRefreshToken: {}, resetPassword: {}, resendVerification: {}, confirmEmail: { params: { id: 'x' } }, getImage: { params: { id: 'x' } },
    healthz: {}, readyz: {},
    currentUser: {}, setLanguage: { body: { language: 'yo' } }, changePassword: { body: { oldPassword: 'wrong-one', newPassword: 'n' } }, signOut: {}, signOutAll: {},
    allUsers: { query: { searchQuery: '' } },
    currentOrganization: {}, allOrganizations: {}, createOrganization: { body: { organizationName: 'Intruder Org', email: a.ownerEmail } },
    sendMail: { body: { organization_id: a.orgId, subject: 'hi', body: 'hello' } },
    officeUsers: {}, inviteOfficeUser: { body: { email: 'intruder-office@b.ng', role: 'admin' } },
    updateOfficeUser: { params: { id: a.officeUserId }, body: { role: 'owner' } }, removeOfficeUser: { params: { id: a.officeUserId } },
    createSurvey: { body: { title: 'B survey', questions: [{ text: 'Q', type: QuestionType.text }] } },
    updateSurvey: { params: { id: a.surveyId }, body: { title: 'Hijacked', questions: [{ text: 'Q', type: QuestionType.text }] } },
    surveyVersions: { params: { id: a.surveyId } },
    surveyXlsform: { params: { id: a.surveyId } },
    surveyChanges: { params: { id: a.surveyId } },
    surveyWebhooks: { params: { id: a.surveyId } },
    createWebhook: { params: { id: a.surveyId }, body: { url: 'https://intruder.example/hook', events: ['response.created'] } },
    deleteWebhook: { params: { id: a.webhookId } },
    webhookDeliveries: { params: { id: a.webhookId } },
    retryDelivery: { params: { id: a.webhookId, deliveryId: a.deliveryId } },
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
    responseAudio: { params: { id: a.responseId } },
    reviewAudio: { params: { id: a.responseId }, body: { verdict: 'does_not_match', status: 'rejected', reason: 'Intruder says it does not match' } },
    createPayout: { body: { survey_id: a.surveyId, key: '6f1c1c3e-6a4b-4d53-9a56-2d4f0c7f9e11' } },
    markPayoutPaid: { params: { id: a.payoutId }, body: { reference: 'INTRUDER' } },
    cancelPayout: { params: { id: a.payoutId } },
    payouts: { query: { survey_id: a.surveyId } },
    payout: { params: { id: a.payoutId } },
    payoutDownload: { params: { id: a.payoutId }, query: { format: 'csv' } },
    payoutHolds: { query: { survey_id: a.surveyId } },
    myResponseChanges: { query: { since: '0_' } },
    myEarnings: {},
    myResponses: { query: { page: '1' } },
    reportDevice: { body: { deviceId: 'matrix-phone', waiting: 0, failed: 0, photosWaiting: 0 } },
    organizationSettings: { body: { staleSyncDays: 9 } },
    supervisorSettings: {},
    updateSupervisorSettings: { body: { syncDigest: false } },
    bulkInviteFieldUsers: { query: { dryRun: 'false' } }, bulkInviteSupervisors: { query: { dryRun: 'false' } }, bulkTemplate: { query: { role: 'field_user' } },
    myBank: {}, requestBankChange: { body: { survey_id: a.surveyId, bank: 'Intruder Bank', accountNumber: '9999999999', accountName: 'Intruder' } },
    bankChangeRequests: {}, approveBankChange: { params: { id: a.bankChangeId } }, rejectBankChange: { params: { id: a.bankChangeId }, body: { reason: 'Intruder says no' } },
    inviteToSurveys: { body: { role: 'field_user', surveyIds: [a.surveyId], fullName: 'Intruder Person', email: 'intruder-many@b.ng', phoneNumber: '08030000001', rate: 5 } },
    copyTeam: { body: { fromSurveyId: a.surveyId, toSurveyId: '7b0f4c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e' } },
    updateMember: { params: { surveyId: a.surveyId, memberId: a.fieldUserMemberId }, body: { rate: 999, bank: 'Intruder Bank', accountNumber: '9999999999', accountName: 'Intruder', supervisorId: null } },
    bulkAssignSupervisor: { body: { survey_id: a.surveyId, supervisorId: a.supervisorMemberId, fieldUserIds: [a.fieldUserMemberId] } },
    deactivatePerson: { body: { email: a.fieldUserEmail } }, reactivatePerson: { body: { email: a.fieldUserEmail } }, deactivatedPeople: {},
    audit: { query: { surveyId: a.surveyId } }, auditExport: { query: { surveyId: a.surveyId } },
    surveyMap: { params: { id: a.surveyId }, query: { zoom: '16' } },
    teamMap: { params: { id: a.surveyId } },
    uploadBasemap: {},
    getBasemap: { params: { id: '0123456789abcdef0123456789abcdef' } },
    tokens: {}, createToken: { body: { name: 'Intruder key', surveyId: a.surveyId, expiresAt: new Date(Date.now() + 86_400_000).toISOString() } }, revokeToken: { params: { id: a.tokenId } },
    odataService: { params: surveyParams }, odataMetadata: { params: surveyParams }, odataEntitySet: { params: { surveyId: a.surveyId, entitySet: 'Responses' } }, odataCount: { params: { surveyId: a.surveyId, entitySet: 'Responses' } },
    eraseResponse: { params: { id: a.responseId }, body: { reason: 'Intruder erases' } },
    // A's respondent is named in A's answer: no one outside A finds them.
    respondents: { query: { search: a.secret } }, respondentExport: { query: { search: a.secret } },
    myData: {},
    backcheckForm: { params: { id: a.surveyId }, body: { questions: [{ text: 'Did an enumerator visit you?', type: QuestionType.select, options: ['Yes', 'No'] }] } },
    surveyBackchecks: { params: { id: a.surveyId }, query: { page: '1' } },
    backcheckExport: { params: { id: a.surveyId } },
    responseBackcheck: { params: { id: a.responseId } },
    myBackchecks: { query: { page: '1' } },
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
  a.fieldUserEmail = fuA.email;
  a.responseId = (await addResponse(t.app, fuA, { id: a.surveyId, organizationId: a.orgId }, { answers: { 'Name of outlet': a.secret, 'Outlet type': 'Kiosk' } })).id;
  // A's response carries an open flag: nobody outside A may dismiss it.
  await t.app.services.flags.worker.drain();
  await t.app.db.kysely.insertInto('response_flags').values({ response_id: a.responseId, flag: 'too_fast', survey_id: a.surveyId, member_id: fuA.id, reason: 'Filled in 3 s', other_response_id: null, created_at: Date.now(), dismissed_at: null, dismissed_by: null, dismissed_role: null, dismiss_note: null }).execute();
  await t.app.db.kysely.insertInto('bank_change_requests').values({ id: a.bankChangeId, organization_id: a.orgId, survey_id: a.surveyId, member_id: fuA.id, bank: 'Intruder Bank', account_number: '9999999999', account_name: 'Intruder', status: 'pending', created_at: Date.now(), decided_at: null, decided_by: null }).execute();
  // A's response has an audio audit clip: nobody outside A may hear or judge it.
  await t.app.db.kysely.updateTable('responses').set({ audio: 'recorded' }).where('id', '=', a.responseId).execute();
  await t.app.db.kysely.insertInto('files').values({ id: 'audio-of-a-0001', path: 'uploads/audio-of-a-0001.webm', user_id: fuA.userId!, client_id: 'clip-of-a', question: '', survey_id: a.surveyId, mime: 'audio/webm', size: 4, sha256: '0'.repeat(64), created_at: Date.now(), store: 'disk' }).execute();
  await t.app.db.kysely.insertInto('audio_audits').values({ response_id: a.responseId, survey_id: a.surveyId, file_id: 'audio-of-a-0001', uploaded_at: Date.now(), verdict: null, note: null, reviewed_by: null, reviewed_at: null }).execute();
  a.payoutId = 'payout-of-a-0001';
  await t.app.db.kysely.insertInto('payouts').values({ id: a.payoutId, organization_id: a.orgId, survey_id: a.surveyId, idempotency_key: 'key-of-a', status: 'draft', total: 100, response_count: 1, reference: null, created_by: orgA.userId, created_at: Date.now(), paid_by: null, paid_at: null, cancelled_at: null }).execute();

  // A's webhook (its URL is A's secret too) and one delivered event: nobody outside A may see, delete or retry them.
  await t.app.db.kysely.insertInto('webhooks').values({ id: a.webhookId, organization_id: a.orgId, survey_id: a.surveyId, url: `https://a.example/${a.secret}`, events: ',response.created,', secret: 'secret-of-a-webhook', created_by: orgA.userId, created_at: Date.now(), failing_since: null, disabled_at: null }).execute();
  await t.app.db.kysely.insertInto('webhook_deliveries').values({ webhook_id: a.webhookId, event_id: `response.created:${a.responseId}`, event_type: 'response.created', survey_id: a.surveyId, response_id: a.responseId, payout_id: null, status: 'delivered', attempts: 1, next_attempt_at: 0, expires_at: 0, last_status_code: 200, last_error: null, last_attempt_at: Date.now(), delivered_at: Date.now(), created_at: Date.now() }).execute();
  a.deliveryId = String((await t.app.db.kysely.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', a.webhookId).executeTakeFirstOrThrow()).id);
  a.officeUserId = (await addOfficeUser(t.app, a.orgId, OfficeRole.analyst)).id;
  // A's API token: nobody outside A may see or revoke it.
  a.tokenId = (await call(t.app, orgA.token, { method: 'POST', url: '/api/v1/tokens', payload: { name: 'A key', expiresAt: new Date(Date.now() + 86_400_000).toISOString() } })).json().token._id;

  const orgB = await createOrganization(t.app, 'Org B');
  const surveyB = await createSurvey(t.app, orgB.id, { title: 'B survey' });
  callers.organization = orgB.token;
  // B owner's API token: it reaches only the routes marked for tokens, and only B's data.
  callers.api_token = (await call(t.app, orgB.token, { method: 'POST', url: '/api/v1/tokens', payload: { name: 'B key', expiresAt: new Date(Date.now() + 86_400_000).toISOString() } })).json().secret;
  // B's office users of every other office role (callers.organization is B's owner).
  for (const role of OFFICE_ROLES.filter((r) => r !== OfficeRole.owner)) callers[`office_${role}`] = (await addOfficeUser(t.app, orgB.id, role)).token;
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
    const aMarkers = () => [a.tokenId, a.bankChangeId, a.orgId, a.surveyId, a.supervisorMemberId, a.fieldUserMemberId, a.responseId, a.payoutId, a.officeUserId, a.secret, 'A secret survey'];
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
        const officeRole = caller === 'organization' ? OfficeRole.owner : caller.startsWith('office_') ? (caller.slice(7) as OfficeRole) : null;
        const signedIn = { organization: 1, supervisor: 1, field_user: 1, master_admin: 1, nothing: 1, customer_service: 1, unverified: 1, ...Object.fromEntries(OFFICE_ROLES.map((r) => [`office_${r}`, 1])) };
        const roleAllowed = caller === 'api_token'
          ? (def as { token?: string }).token !== undefined && ((def as { office?: readonly string[] }).office ?? []).includes(OfficeRole.owner)
          : def.access === 'user'
          ? caller in signedIn
          : officeRole !== null
            ? (def.access as readonly string[]).includes(Role.organization) && ((def as { office?: readonly string[] }).office ?? []).includes(officeRole)
            : (def.access as readonly string[]).includes(caller);
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
    for (const expected of ['organizationSurveys:office_analyst', 'currentOrganization:office_finance', 'exportQueue:office_reviewer', 'organizationSurveys:office_admin', 'officeUsers:organization', 'currentUser:organization', 'organizationSurveys:organization', 'fieldUserSurveys:field_user', 'supervisorSurveys:supervisor', 'allOrganizations:master_admin', 'signOut:organization', 'organizationSurveys:api_token', 'tokens:office_analyst']) {
      expect(allowedOk).toContain(expected);
    }
  });

  it('changed nothing of organization A', async () => {
    const k = t.app.db.kysely;
    const members = await k.selectFrom('members').selectAll().where('survey_id', '=', a.surveyId).execute();
    expect(members).toHaveLength(2);
    expect(members.find((m) => m.id === a.fieldUserMemberId)?.supervisor_id).toBe(a.supervisorMemberId);
    expect(members.map((m) => m.withdrawn_at)).toEqual([null, null]);
    expect(members.map((m) => m.deactivated_at)).toEqual([null, null]);
    expect(await k.selectFrom('bank_change_requests').select(['id', 'status']).execute()).toEqual([{ id: a.bankChangeId, status: 'pending' }]);
    expect(members.find((m) => m.id === a.fieldUserMemberId)).toMatchObject({ rate: 100, bank: 'Zenith Bank', account_number: '0123456789', bank_changed_at: null });
    expect(await k.selectFrom('audit_events').select('action').where('organization_id', '=', a.orgId).where('action', 'not in', ['account.sign_in', 'token.create']).execute()).toEqual([]);
    const responses = await k.selectFrom('responses').select(['id', 'status', 'paid_at']).where('survey_id', '=', a.surveyId).execute();
    expect(responses).toEqual([{ id: a.responseId, status: 'approved', paid_at: null }]);
    expect((await k.selectFrom('responses').select(['answers', 'erased_at']).where('id', '=', a.responseId).executeTakeFirstOrThrow())).toMatchObject({ erased_at: null, answers: expect.stringContaining(a.secret) });
    expect(await k.selectFrom('payout_items').select('response_id').execute()).toEqual([]);
    expect(await k.selectFrom('payouts').select(['id', 'status', 'reference']).where('survey_id', '=', a.surveyId).execute()).toEqual([{ id: a.payoutId, status: 'draft', reference: null }]);
    expect(await k.selectFrom('surveys').select(['pay_after_review', 'version', 'closed_at', 'title', 'photo_quality']).where('id', '=', a.surveyId).executeTakeFirstOrThrow()).toEqual({ pay_after_review: 0, version: 1, closed_at: null, title: 'A secret survey', photo_quality: 'standard' });
    expect(await k.selectFrom('survey_versions').select('version').where('survey_id', '=', a.surveyId).execute()).toEqual([]);
    expect(await k.selectFrom('webhooks').select(['id', 'disabled_at']).where('survey_id', '=', a.surveyId).execute()).toEqual([{ id: a.webhookId, disabled_at: null }]);
    expect(await k.selectFrom('webhook_deliveries').select(['status']).where('webhook_id', '=', a.webhookId).execute()).toEqual([{ status: 'delivered' }]);
    expect(await k.selectFrom('response_reviews').select('id').execute()).toEqual([]);
    expect(await k.selectFrom('api_tokens').select(['id', 'revoked_at']).where('organization_id', '=', a.orgId).execute()).toEqual([{ id: a.tokenId, revoked_at: null }]);
    expect(await k.selectFrom('response_flags').select(['flag', 'dismissed_at']).where('response_id', '=', a.responseId).execute()).toEqual([{ flag: 'too_fast', dismissed_at: null }]);
    expect(await k.selectFrom('flag_dismissals').select('id').execute()).toEqual([]);
    expect(await k.selectFrom('backcheck_forms').select('version').where('survey_id', '=', a.surveyId).execute()).toEqual([]);
    expect(await k.selectFrom('backcheck_settings').select('survey_id').where('survey_id', '=', a.surveyId).execute()).toEqual([]);
    const orgs = await k.selectFrom('organizations').select(['email', 'stale_sync_days']).where('email', '=', a.ownerEmail).execute();
    expect(orgs.map((o) => Number(o.stale_sync_days))).toEqual([3]);
    const supA = await k.selectFrom('members').select('user_id').where('id', '=', a.supervisorMemberId).executeTakeFirstOrThrow();
    expect(await k.selectFrom('supervisor_settings').select('user_id').where('user_id', '=', supA.user_id!).execute()).toEqual([]);
    const office = await k.selectFrom('office_users').select(['email', 'role']).where('organization_id', '=', a.orgId).orderBy('role', 'desc').execute();
    expect(office.map((o) => o.role)).toEqual([OfficeRole.owner, OfficeRole.analyst]);
    expect(await k.selectFrom('office_users').select('id').where('email', '=', 'intruder-office@b.ng').where('organization_id', '=', a.orgId).execute()).toEqual([]);
  });
});
