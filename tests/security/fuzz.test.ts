import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, Role, routes, type RouteName } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../apps/api/test/fixtures.js';
import { PASSWORD, buildTestApp, call, createUser, login, type TestApp } from '../../apps/api/test/helpers.js';

/**
 * Every JSON body, querystring and path parameter of every route in the contracts table, fuzzed
 * with fast-check by a caller allowed to reach the handler. Afterwards the database must show that
 * no protected field (role, verified, rate, user_id, member_id, paid_at, organization_id, ids)
 * ever came from a body. SECURITY_FULL=1: 500 runs per route; otherwise a quick CI pass.
 */
const FULL = process.env.SECURITY_FULL === '1';
const RUNS = FULL ? 500 : 60;
/** Each valid export starts a worker thread: the quick pass keeps a few so the battery stays short. */
const EXPORT_RUNS = FULL ? 500 : 6;

/** Values a mass-assignment attempt puts in a body; any of them found in the database is a failure. */
const FORGED = { id: 'forged-id-0000', rate: 777_777, paidAt: 1_234_567_890_123, createdAt: 86_400_000 };

let t: TestApp;
const w = {
  orgA: { id: '', email: '', userId: '', token: '' },
  orgB: { id: '', email: '', userId: '', token: '' },
  surveyA: '', surveyB: '', surveyEdited: '',
  supA: { id: '', token: '', userId: '' }, fuA: { id: '', token: '', userId: '' },
  fuB: { id: '', userId: '' }, goneA: '',
  responseA: '', payoutToPay: 'payout-to-pay-0001', payoutToCancel: 'payout-to-cancel-0001',
  admin: '', pwUser: '', pwEmail: 'password-changer@fuzz.ng', pwHash: '', signOutEmail: 'signs-out@fuzz.ng',
  startedAt: 0,
};
let usersBefore: Map<string, { role: string; verified: number }>;
let membersBefore: Map<string, { rate: number; role: string; user_id: string | null; organization_id: string; survey_id: string }>;

beforeAll(async () => {
  // On PostgreSQL the deployment's default photo store, so the tus fuzz reaches the database's partial uploads and shared lock.
  t = await buildTestApp({ rateLimit: { max: 1e9, windowMs: 60_000 }, ...(process.env.TEST_DATABASE_URL ? { fileStore: 'postgres' as const } : {}) });
  w.startedAt = Date.now();
  w.orgA = await createOrganization(t.app, 'Fuzz Org A');
  w.orgB = await createOrganization(t.app, 'Victim Org B');
  // Its own survey for PUT: a fuzzed edit must not change the questions the fuzzed responses answer.
  w.surveyEdited = (await createSurvey(t.app, w.orgA.id, { title: 'Fuzz edited survey' })).id;
  w.surveyA = (await createSurvey(t.app, w.orgA.id, { title: 'Fuzz survey', questions: [
    { text: 'Name of outlet', type: QuestionType.text, compulsory: true, options: [] },
    { text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Shop'] },
    { text: 'Brands', type: QuestionType.checkbox, compulsory: false, options: ['Alpha', 'Beta'] },
    { text: 'Ward', type: QuestionType.largeSelect, compulsory: false, options: [], optionCount: 2 },
  ] })).id;
  await t.app.db.kysely.insertInto('dataset_options').values([
    { survey_id: w.surveyA, question: 'Ward', position: 0, value: 'Agege Ward A', value_lower: 'agege ward a' },
    { survey_id: w.surveyA, question: 'Ward', position: 1, value: 'Ikeja Ward B', value_lower: 'ikeja ward b' },
  ]).execute();
  const supA = await addMember(t.app, w.surveyA, w.orgA.id, { role: Role.supervisor, fullName: 'Sup A' });
  const fuA = await addMember(t.app, w.surveyA, w.orgA.id, { fullName: 'Field A', supervisorId: supA.id, rate: 150 });
  w.supA = { id: supA.id, token: supA.token!, userId: supA.userId! };
  w.fuA = { id: fuA.id, token: fuA.token!, userId: fuA.userId! };
  w.responseA = (await addResponse(t.app, fuA, { id: w.surveyA, organizationId: w.orgA.id }, { rate: 150 })).id;
  // An open quality flag for the dismiss route (issue 18).
  await t.app.services.flags.worker.drain();
  await t.app.db.kysely.insertInto('response_flags').values({ response_id: w.responseA, flag: 'too_fast', survey_id: w.surveyA, member_id: fuA.id, reason: 'Filled in 3 s', other_response_id: null, created_at: Date.now(), dismissed_at: null, dismissed_by: null, dismissed_role: null, dismiss_note: null }).execute();
  // Payouts holding no response: marking one paid must not make any response paid (checked below).
  for (const id of [w.payoutToPay, w.payoutToCancel]) {
    await t.app.db.kysely.insertInto('payouts').values({ id, organization_id: w.orgA.id, survey_id: w.surveyA, idempotency_key: id, status: 'draft', total: 0, response_count: 0, reference: null, created_by: w.orgA.userId, created_at: Date.now(), paid_by: null, paid_at: null, cancelled_at: null }).execute();
  }
  w.surveyB = (await createSurvey(t.app, w.orgB.id, { title: 'Victim survey' })).id;
  const fuB = await addMember(t.app, w.surveyB, w.orgB.id, { fullName: 'Field B', rate: 300 });
  w.fuB = { id: fuB.id, userId: fuB.userId! };
  // The one member the withdrawal route may take off a survey (fuA and supA must keep theirs).
  w.goneA = (await addMember(t.app, w.surveyA, w.orgA.id, { fullName: 'Withdrawn A', registered: false })).id;
  await createUser(t.app, 'root@fuzz.ng', Role.masterAdmin);
  w.admin = await login(t.app, 'root@fuzz.ng');
  await createUser(t.app, w.pwEmail, Role.fieldUser);
  w.pwUser = await login(t.app, w.pwEmail);
  w.pwHash = (await t.app.db.kysely.selectFrom('users').select('password_hash').where('email', '=', w.pwEmail).executeTakeFirstOrThrow()).password_hash;
  await createUser(t.app, w.signOutEmail, Role.supervisor);
  await createUser(t.app, 'pending@fuzz.ng', Role.fieldUser, { verified: false });
  await createUser(t.app, 'nothing@fuzz.ng', Role.nothing);

  const k = t.app.db.kysely;
  usersBefore = new Map((await k.selectFrom('users').select(['id', 'role', 'verified']).execute()).map((u) => [u.id, { role: u.role, verified: Number(u.verified) }]));
  membersBefore = new Map((await k.selectFrom('members').select(['id', 'rate', 'role', 'user_id', 'organization_id', 'survey_id']).execute()).map(({ id, ...m }) => [id, { ...m, rate: Number(m.rate) }]));
});
afterAll(() => t.close());

type Caller = 'public' | 'organization' | 'supervisor' | 'field_user' | 'admin' | 'password' | 'fresh';
interface Sample {
  caller: Caller;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  runs?: number;
}

/** A valid request of every route, by a caller its access admits. */
function samples(): Record<RouteName, Sample | 'multipart' | 'tus'> {
  const sA = { surveyId: w.surveyA };
  const page = { page: '1', searchQuery: 'a' };
  const week = { startDate: new Date(Date.now() - 6 * 86_400_000).toISOString(), endDate: new Date(Date.now() + 86_400_000).toISOString() };
  const answers = { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk', Brands: ['Alpha'] };
  return {
    login: { caller: 'public', body: { email: w.signOutEmail, password: PASSWORD } },
    register: { caller: 'public', body: { email: 'newcomer-UNIQ@fuzz.ng', password: 'pw-123456' } },
    sendRefreshToken: { caller: 'public', body: { email: 'pending@fuzz.ng' } },
    resetPassword: { caller: 'public', body: { resetToken: 'not-a-token', newPassword: 'pw-123456' } },
    resendVerification: { caller: 'public', body: { email: 'pending@fuzz.ng' } },
    confirmEmail: { caller: 'public', params: { id: 'not-a-token' } },
    getImage: { caller: 'public', params: { id: 'A'.repeat(43) } },
    exportQueue: { caller: 'organization', query: {} },
    healthz: { caller: 'public', query: {} },
    readyz: { caller: 'public', query: {} },
    currentUser: { caller: 'field_user', query: {} },
    changePassword: { caller: 'password', body: { oldPassword: PASSWORD, newPassword: PASSWORD, signOutOthers: false } },
    signOut: { caller: 'fresh', body: {} },
    signOutAll: { caller: 'fresh', body: {} },
    allUsers: { caller: 'admin', query: page },
    currentOrganization: { caller: 'organization', query: {} },
    allOrganizations: { caller: 'admin', query: page },
    createOrganization: { caller: 'admin', body: { organizationName: 'Fuzzed Org', email: 'fresh-org-UNIQ@fuzz.ng' } },
    sendMail: { caller: 'admin', body: { organization_id: w.orgA.id, subject: 'Hello', body: 'A message' } },
    createSurvey: { caller: 'organization', body: { title: 'Fuzzed survey', description: '', expectedResponseCount: 10, questions: [{ text: 'Q1', type: QuestionType.text, compulsory: true, options: [] }, { text: 'Q2', type: QuestionType.select, options: ['a', 'b'] }] } },
    updateSurvey: { caller: 'organization', params: { id: w.surveyEdited }, body: { title: 'Fuzzed edit', description: 'v2', expectedResponseCount: 5, questions: [{ text: 'Q1', type: QuestionType.text, compulsory: true, options: [] }, { text: 'Q2', type: QuestionType.select, options: ['a', 'b'] }] } },
    surveyVersions: { caller: 'organization', params: { id: w.surveyEdited }, query: page },
    // A JSON body where a multipart upload is expected: always a 400, never a 5xx (tests/security/uploads.test.ts-like cases are in surveys/xlsform.test.ts).
    importXlsform: { caller: 'organization', body: { file: 'survey.xlsx' } },
    organizationSurveys: { caller: 'organization', query: page },
    fieldUserSurveys: { caller: 'field_user', query: page },
    supervisorSurveys: { caller: 'supervisor', query: page },
    largeDataset: { caller: 'field_user', query: { organization_id: w.orgA.id, survey_id: w.surveyA, question: 'Ward', searchQuery: 'ward' } },
    datasetExport: { caller: 'field_user', query: { survey_id: w.surveyA, question: 'Ward' } },
    respond: { caller: 'field_user', body: { survey_id: w.surveyA, organization_id: w.orgA.id, answers, clientId: '00000000-0000-4000-8000-UNIQ', capturedAt: new Date().toISOString(), openedAt: new Date().toISOString(), durationMs: 60_000, locationAccuracy: 12, locationFixedAt: new Date().toISOString(), deviceId: 'fuzz-phone', appVersion: '1', photoHashes: { 'Name of outlet': '0123456789abcdef' }, sentAt: new Date().toISOString() } },
    syncResponses: { caller: 'field_user', body: { responses: [{ survey_id: w.surveyA, organization_id: w.orgA.id, answers, clientId: '00000000-0000-4000-8000-UNIQ' }] } },
    uploadImage: 'multipart',
    // The tus protocol speaks in headers and raw bytes: fuzzed below, by headers and bytes.
    resumableCreate: 'tus',
    resumableOffset: 'tus',
    resumableAppend: 'tus',
    resumableTerminate: 'tus',
    organizationResponses: { caller: 'organization', params: sA, query: page },
    organizationExport: { caller: 'organization', params: sA, query: page, runs: EXPORT_RUNS },
    organizationTopPerformer: { caller: 'organization', params: sA, query: {} },
    organizationByWeeks: { caller: 'organization', params: sA, query: week },
    supervisorResponses: { caller: 'supervisor', params: sA, query: page },
    supervisorTopPerformer: { caller: 'supervisor', params: sA, query: {} },
    supervisorExport: { caller: 'supervisor', params: sA, query: page, runs: EXPORT_RUNS },
    fieldUsers: { caller: 'organization', params: sA, query: page },
    inviteFieldUser: { caller: 'organization', body: { survey_id: w.surveyA, fullName: 'Invited Person', email: 'invitee-UNIQ@fuzz.ng', phoneNumber: '08030000000', accountNumber: '0123456789', accountName: 'Invited', bank: 'GTB', rate: 200 } },
    allFieldUsers: { caller: 'admin', query: page },
    supervisors: { caller: 'organization', params: sA, query: page },
    inviteSupervisor: { caller: 'organization', body: { survey_id: w.surveyA, fullName: 'Invited Sup', email: 'sup-invitee-UNIQ@fuzz.ng', phoneNumber: '08030000000', accountNumber: '0123456789', accountName: 'Invited Sup', bank: 'GTB' } },
    assignSupervisor: { caller: 'organization', body: { supervisorId: w.supA.id, fieldUserId: w.fuA.id, survey_id: w.surveyA } },
    withdrawMember: { caller: 'organization', params: { surveyId: w.surveyA, memberId: w.goneA } },
    supervisorFieldUsers: { caller: 'supervisor', params: sA, query: page },
    currentSupervisorName: { caller: 'supervisor', query: {} },
    surveySettings: { caller: 'organization', params: { id: w.surveyA }, body: { payAfterReview: false, photoQuality: 'standard' } },
    reviewResponses: { caller: 'supervisor', body: { responseIds: [w.responseA], status: 'approved', comment: 'Looks right' } },
    responseDetail: { caller: 'organization', params: { id: w.responseA } },
    dismissFlag: { caller: 'supervisor', params: { id: w.responseA, flag: 'too_fast' }, body: { note: 'Checked on site' } },
    createPayout: { caller: 'organization', body: { survey_id: w.surveyA, key: '00000000-0000-4000-8000-UNIQ' } },
    markPayoutPaid: { caller: 'organization', params: { id: w.payoutToPay }, body: { reference: 'TRF-0001' } },
    cancelPayout: { caller: 'organization', params: { id: w.payoutToCancel } },
    payouts: { caller: 'supervisor', query: { survey_id: w.surveyA, page: '1' } },
    payout: { caller: 'organization', params: { id: w.payoutToPay } },
    payoutDownload: { caller: 'organization', params: { id: w.payoutToPay }, query: { format: 'csv', part: 'transfers' } },
    myResponseChanges: { caller: 'field_user', query: { since: '0_' } },
    myEarnings: { caller: 'field_user', query: {} },
    myResponses: { caller: 'field_user', query: { page: '1' } },
    reportDevice: { caller: 'field_user', body: { deviceId: 'fuzz-phone', appVersion: '1', waiting: 1, failed: 0, photosWaiting: 0, storageUsed: 10, storageQuota: 100, lastSyncAt: '2026-11-25T10:00:00.000Z' } },
    organizationSettings: { caller: 'organization', body: { staleSyncDays: 5 } },
    supervisorSettings: { caller: 'supervisor', query: {} },
    updateSupervisorSettings: { caller: 'supervisor', body: { syncDigest: true } },
  };
}

async function tokenOf(caller: Caller): Promise<string | null> {
  switch (caller) {
    case 'public': return null;
    case 'organization': return w.orgA.token;
    case 'supervisor': return w.supA.token;
    case 'field_user': return w.fuA.token;
    case 'admin': return w.admin;
    case 'password': return w.pwUser;
    case 'fresh': return login(t.app, w.signOutEmail);
  }
}

// ---------- arbitraries ----------

const huge = fc.oneof(
  fc.integer({ min: 1_000, max: 120_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 100, max: 5_000 }).map((n) => '𝕏é\u0000\u202e漢'.repeat(n)),
);
const nasty = fc.constantFrom(
  '', ' ', '\u0000', '%00', '../../etc/passwd', "' OR 1=1 --", "'; DROP TABLE users; --", '${7*7}', '{{7*7}}', '<script>alert(1)</script>',
  '\ud800', '\udfff', 'NaN', 'Infinity', '-1', '-0', '1e309', '0x10', '9007199254740993', '__proto__', 'constructor', 'prototype', '%', '%zz', '\u202e', 'null', 'true', '[]', '{}', '=1+1', '\r\n', 'Ａ', '😀'.repeat(300),
);
const strangeString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 3, arbitrary: nasty },
  { weight: 1, arbitrary: huge },
);
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  strangeString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(strangeString, { maxLength: 5 }),
  fc.dictionary(strangeString, strangeString, { maxKeys: 4 }),
);

/** Fields a client must never set; each carries a forged value, or another tenant's or user's id. */
function protectedExtras(): Record<string, unknown> {
  return {
    role: Role.masterAdmin, verified: true, organization_id: w.orgB.id, rate: FORGED.rate, user_id: w.orgB.userId, member_id: w.fuB.id,
    paid_at: FORGED.paidAt, paidAt: FORGED.paidAt, _id: FORGED.id, id: FORGED.id, created_at: FORGED.createdAt, createdAt: new Date(FORGED.createdAt).toISOString(),
    supervisor_id: w.supA.id, survey_id: w.surveyB, password_hash: 'scrypt$1$1$1$AA$AA', isAdmin: true, admin: true, sub: w.orgB.userId, sid: 'x',
  };
}

const POLLUTION = '{"role":"master_admin","verified":true,"isAdmin":true,"polluted":"yes","prototype":{"polluted":"yes"}}';
/** Raw JSON, since an object literal would turn a "__proto__" key into a prototype instead of sending it. */
function withKey(json: string, key: string, at: 'top' | 'nested'): string {
  const inject = (s: string) => s.replace(/^\{(\}?)/, (_m, empty: string) => `{"${key}":${POLLUTION}${empty ? '}' : ','}`);
  if (at === 'top') return inject(json);
  return json.replace(/:\{(\}?)/, (_m, empty: string) => `:{"${key}":${POLLUTION}${empty ? '}' : ','}`);
}

function bodyArb(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(valid);
  const json = JSON.stringify(valid);
  const extras = Object.entries(protectedExtras());
  const variants: fc.Arbitrary<string>[] = [
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    fc.subarray(extras, { minLength: 1 }).map((picked) => JSON.stringify({ ...valid, ...Object.fromEntries(picked) })),
    fc.subarray(extras, { minLength: 1 }).map((picked) => JSON.stringify({ ...Object.fromEntries(picked), ...valid })),
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.constantFrom('top' as const, 'nested' as const)).map(([k, at]) => withKey(json, k, at)),
    fc.dictionary(strangeString, weirdValue, { maxKeys: 5 }).map((extra) => JSON.stringify({ ...valid, ...extra })),
    fc.constantFrom('', 'null', '[]', '"string"', '1', '{', '{"a":', '{"a":1}}', '\u0000', '{"a":"\\ud800"}', '[' .repeat(5000) + ']'.repeat(5000)),
  ];
  if (keys.length > 0) {
    variants.push(
      fc.tuple(fc.constantFrom(...keys), weirdValue).map(([key, value]) => JSON.stringify({ ...valid, [key]: value })),
      fc.subarray(keys, { minLength: 1 }).map((drop) => JSON.stringify(Object.fromEntries(Object.entries(valid).filter(([k]) => !drop.includes(k))))),
      fc.array(strangeString, { minLength: keys.length, maxLength: keys.length }).map((values) => JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, typeof valid[k] === 'string' ? values[i] : valid[k]])))),
    );
  }
  return fc.oneof(...variants);
}

/** Percent-encodes every byte outside the unreserved set (lone surrogates go through as U+FFFD). */
const enc = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

function queryArb(valid: Record<string, string>): fc.Arbitrary<string> {
  const keys = Object.keys(valid);
  const pairs = (q: Record<string, string>) => Object.entries(q).map(([k, v]) => `${enc(k)}=${enc(v)}`);
  const extraKeys = fc.constantFrom('__proto__[role]', 'constructor[prototype][role]', '__proto__', 'constructor', 'role', 'organization_id', 'user_id', 'rate', 'verified', 'page[]', 'page[$gt]', 'a[b][c][d][e]');
  const variants: fc.Arbitrary<string[]>[] = [
    fc.array(fc.tuple(strangeString, strangeString), { maxLength: 6 }).map((kv) => kv.map(([k, v]) => `${enc(k)}=${enc(v)}`)),
    fc.array(fc.tuple(extraKeys, strangeString), { minLength: 1, maxLength: 4 }).map((kv) => [...pairs(valid), ...kv.map(([k, v]) => `${k}=${enc(v)}`)]),
    fc.constantFrom('%', '%zz', '%u0000', '%00=%00', '&&&', '=', '==', '[]=1', 'page=1&page=2', 'page=', 'page=-1', 'page=1e3', 'page=0x10', 'page=1.5', 'page=NaN', 'searchQuery=%F0%28%8C%28', 'searchQuery=%C0%AF').map((raw) => [...pairs(valid), raw]),
  ];
  if (keys.length > 0) {
    variants.push(
      fc.tuple(fc.constantFrom(...keys), strangeString).map(([key, value]) => pairs({ ...valid, [key]: value })),
      fc.tuple(fc.constantFrom(...keys), fc.array(strangeString, { minLength: 2, maxLength: 4 })).map(([key, values]) => [...pairs(valid), ...values.map((v) => `${enc(key)}=${enc(v)}`)]),
      fc.subarray(keys, { minLength: 1 }).map((drop) => pairs(Object.fromEntries(Object.entries(valid).filter(([k]) => !drop.includes(k))))),
    );
  }
  return fc.oneof(...variants).map((p) => p.join('&'));
}

function paramsArb(valid: Record<string, string>): fc.Arbitrary<Record<string, string>> {
  const keys = Object.keys(valid);
  return fc.oneof(
    fc.constant(valid),
    fc.tuple(fc.constantFrom(...keys), fc.oneof(strangeString, fc.constantFrom(w.surveyB, w.orgB.id, FORGED.id, '..', '%2e%2e'))).map(([k, v]) => ({ ...valid, [k]: v })),
  );
}

// ---------- the properties ----------

const fill = (path: string, params: Record<string, string>) => path.replace(/:(\w+)/g, (_m, k: string) => enc(params[k] ?? ''));
/** Replies that are files rather than JSON when they succeed. */
const BINARY: RouteName[] = ['organizationExport', 'supervisorExport', 'getImage', 'payoutDownload'];

const seen: { name: RouteName; status: number; reply: string }[] = [];
let uniq = 0;

describe('OWASP API3:2023 (Broken Object Property Level Authorization: mass assignment), API8:2023 and ASVS 5.0 V1.5/V2.2 (input validation): fuzzing every route of the contracts table', () => {
  it('has a fuzz sample for every route of the table', () => {
    const s = samples();
    for (const name of Object.keys(routes) as RouteName[]) expect(s[name], `fuzz sample for ${name}`).toBeDefined();
  });

  for (const name of Object.keys(routes) as RouteName[]) {
    it(`${routes[name].method} ${routes[name].path}: no 5xx, only { msg } refusals`, async () => {
      const sample = samples()[name];
      if (sample === 'multipart' || sample === 'tus') return; // tests/security/uploads.test.ts; tus: the block below
      const def = routes[name];
      const arb = fc.record({
        params: sample.params ? paramsArb(sample.params) : fc.constant({}),
        query: sample.query ? queryArb(sample.query) : fc.constant(''),
        body: sample.body ? bodyArb(sample.body) : fc.constant(undefined),
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ params, query, body }) => {
          const token = await tokenOf(sample.caller);
          // UNIQ in a sample (e-mails, clientIds) becomes a fresh 12-digit number, so valid bodies keep creating rows.
          body = body?.replaceAll('UNIQ', String(++uniq).padStart(12, '0'));
          const url = fill(def.path, { ...(sample.params ?? {}), ...params }) + (query ? `?${query}` : '');
          const res = await call(t.app, token, {
            method: def.method,
            url,
            remoteAddress: `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.1`,
            ...(body !== undefined ? { payload: body, headers: { 'content-type': 'application/json' } } : {}),
          });
          const what = `${name} ${res.statusCode} ${url.slice(0, 200)} ${String(body).slice(0, 200)} -> ${res.body.slice(0, 200)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          if (res.statusCode >= 400 || !BINARY.includes(name)) expect(res.headers['content-type'], what).toMatch(/^application\/json/);
          if (res.statusCode >= 400) {
            const reply = res.json();
            expect(Object.keys(reply), what).toEqual(['msg']);
            expect(typeof reply.msg).toBe('string');
            expect(reply.msg, what).not.toMatch(/SQLITE|syntax error|relation "|at \/|node_modules|stack/i);
          }
          seen.push({ name, status: res.statusCode, reply: BINARY.includes(name) && res.statusCode === 200 ? '' : res.body });
          // A fuzzed change-password may succeed: put the password back so the next run starts alike.
          if (name === 'changePassword') await t.app.db.kysely.updateTable('users').set({ password_hash: w.pwHash }).where('email', '=', w.pwEmail).execute();
          expect(({} as Record<string, unknown>).polluted, 'Object.prototype polluted').toBeUndefined();
          expect(({} as Record<string, unknown>).role, 'Object.prototype polluted').toBeUndefined();
        }),
        {
          numRuns: sample.runs ?? RUNS,
          endOnFailure: !FULL,
          // The valid sample itself always runs once, so a short quick-mode fuzz still reaches the handler.
          examples: [[{ params: sample.params ?? {}, query: Object.entries(sample.query ?? {}).map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&'), body: sample.body ? JSON.stringify(sample.body) : undefined }]],
        },
      );
      // The fuzz must not have turned into a wall of 401/403: the caller really reached the handler.
      expect(seen.filter((s) => s.name === name).every((s) => s.status === 401 || s.status === 403), `${name}: every fuzzed call refused by access`).toBe(false);
    });
  }
});

describe('OWASP API3:2023 mass assignment: no protected field came from a body', () => {
  const k = () => t.app.db.kysely;

  it('no user gained a role or verification from a body; one master admin only', async () => {
    const users = await k().selectFrom('users').select(['id', 'email', 'role', 'verified']).execute();
    expect(users.filter((u) => u.role === Role.masterAdmin).map((u) => u.email)).toEqual(['root@fuzz.ng']);
    for (const u of users) {
      const before = usersBefore.get(u.id);
      if (before) {
        expect({ email: u.email, role: u.role, verified: Number(u.verified) }).toEqual({ email: u.email, ...before });
        continue;
      }
      // Registered during the fuzz: never verified (only a mailed link does that), and the role an invitation gave.
      expect(Number(u.verified), u.email).toBe(0);
      if (u.role === Role.organization) expect(await k().selectFrom('organizations').select('id').where('email', '=', u.email).executeTakeFirst(), u.email).toBeDefined();
      else if (u.role === Role.fieldUser || u.role === Role.supervisor) expect(await k().selectFrom('members').select('id').where('email', '=', u.email).where('role', '=', u.role).executeTakeFirst(), u.email).toBeDefined();
      else expect(u.role, u.email).toBe(Role.nothing);
    }
  });

  it('every response has the rate, person and organization of its member row, is unpaid, and has a server id and time', async () => {
    const rows = await k()
      .selectFrom('responses')
      .innerJoin('members', 'members.id', 'responses.member_id')
      .innerJoin('surveys', 'surveys.id', 'responses.survey_id')
      .select(['responses.id', 'responses.rate', 'responses.user_id', 'responses.paid_at', 'responses.organization_id', 'responses.created_at', 'responses.survey_id', 'members.rate as member_rate', 'members.user_id as member_user', 'members.survey_id as member_survey', 'surveys.organization_id as survey_org'])
      .execute();
    const fuzzed = rows.filter((r) => Number(r.created_at) >= w.startedAt);
    expect(fuzzed.length).toBeGreaterThan(1);
    for (const r of rows) {
      expect(r.id).not.toBe(FORGED.id);
      expect(Number(r.rate)).toBe(Number(r.member_rate));
      expect(Number(r.rate)).not.toBe(FORGED.rate);
      expect(r.user_id).toBe(r.member_user);
      expect(r.survey_id).toBe(r.member_survey);
      expect(r.organization_id).toBe(r.survey_org);
      expect(r.paid_at).toBeNull();
      expect(Number(r.created_at)).toBeGreaterThanOrEqual(w.startedAt - 60_000);
    }
    expect(rows.filter((r) => r.survey_id === w.surveyB)).toEqual([]);
  });

  it('members keep their rate, role and person; new ones belong to the caller, supervisors are never paid a rate', async () => {
    const rows = await k().selectFrom('members').selectAll().execute();
    for (const m of rows) {
      expect(m.id).not.toBe(FORGED.id);
      const before = membersBefore.get(m.id);
      if (before) {
        expect({ rate: Number(m.rate), role: m.role, user_id: m.user_id, organization_id: m.organization_id, survey_id: m.survey_id }).toEqual(before);
      } else {
        // Invited by organization A during the fuzz: A's survey, and a rate only on a field user (set by the owner's invite).
        expect(m.organization_id).toBe(w.orgA.id);
        expect(m.survey_id).toBe(w.surveyA);
        if (m.role === Role.supervisor) expect(Number(m.rate)).toBe(0);
        else expect(m.role).toBe(Role.fieldUser);
        if (m.user_id) {
          const user = await k().selectFrom('users').select('email').where('id', '=', m.user_id).executeTakeFirstOrThrow();
          expect(user.email).toBe(m.email);
        }
      }
      if (m.withdrawn_at !== null) expect(m.id, 'only the withdrawal sample is withdrawn').toBe(w.goneA);
      if (m.supervisor_id) {
        const sup = await k().selectFrom('members').select(['role', 'survey_id']).where('id', '=', m.supervisor_id).executeTakeFirstOrThrow();
        expect(sup).toEqual({ role: Role.supervisor, survey_id: m.survey_id });
      }
    }
    expect(rows.filter((m) => m.organization_id === w.orgB.id)).toHaveLength(1);
  });

  it('new surveys and organizations got server ids, and surveys the caller\'s organization', async () => {
    const surveys = await k().selectFrom('surveys').select(['id', 'organization_id']).execute();
    expect(surveys.map((s) => s.id)).not.toContain(FORGED.id);
    expect(surveys.filter((s) => s.organization_id === w.orgB.id).map((s) => s.id)).toEqual([w.surveyB]);
    const orgs = await k().selectFrom('organizations').select(['id', 'created_at', 'stale_sync_days']).execute();
    expect(orgs.map((o) => o.id)).not.toContain(FORGED.id);
    // Settings change the caller's own organization and supervisor only, whatever ids a body names.
    expect(Number(orgs.find((o) => o.id === w.orgB.id)!.stale_sync_days)).toBe(3);
    expect((await k().selectFrom('supervisor_settings').select('user_id').execute()).map((r) => r.user_id)).toEqual([w.supA.userId]);
    for (const o of orgs) expect(Number(o.created_at)).not.toBe(FORGED.createdAt);
  });

  it('tus routes (resumable photo uploads): no 5xx and no internals whatever the headers and bytes, from any caller', async () => {
    const hex32 = fc.stringMatching(/^[0-9a-f]{32}$/);
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const arb = fc.record({
      caller: fc.constantFrom<Caller>('field_user', 'supervisor', 'organization', 'public'),
      method: fc.constantFrom('POST', 'HEAD', 'PATCH', 'GET', 'DELETE', 'OPTIONS'),
      id: fc.oneof(hex32, fc.string({ maxLength: 40 }).map((v) => encodeURIComponent(v) || 'x')),
      version: fc.option(fc.constantFrom('1.0.0', '0.2.2', '', 'x')),
      length: fc.option(fc.oneof(fc.nat({ max: 20_000_000 }).map(String), fc.constantFrom('-1', 'abc', '1e9', ''))),
      offset: fc.option(fc.oneof(fc.nat({ max: 100 }).map(String), fc.constantFrom('-5', 'x'))),
      metadata: fc.option(fc.oneof(
        fc.record({ question: fc.string({ maxLength: 20 }), survey_id: fc.constantFrom(w.surveyA, w.surveyB, 'x'), organization_id: fc.constantFrom(w.orgA.id, w.orgB.id), clientId: fc.uuid() })
          .map((m) => Object.entries(m).map(([k, v]) => `${k} ${b64(v)}`).join(',')),
        fc.string({ maxLength: 60 }),
      )),
      contentType: fc.option(fc.constantFrom('application/offset+octet-stream', 'application/json', 'text/plain')),
      body: fc.uint8Array({ maxLength: 64 }),
    });
    await fc.assert(
      fc.asyncProperty(arb, async (r) => {
        const token = await tokenOf(r.caller);
        const headers: Record<string, string> = {};
        if (token) headers.authorization = `Bearer ${token}`;
        if (r.version !== null) headers['tus-resumable'] = r.version;
        if (r.length !== null) headers['upload-length'] = r.length;
        if (r.offset !== null) headers['upload-offset'] = r.offset;
        if (r.metadata !== null) headers['upload-metadata'] = r.metadata;
        if (r.contentType !== null) headers['content-type'] = r.contentType;
        const url = r.method === 'POST' ? '/api/v1/files/tus' : `/api/v1/files/tus/${r.id}`;
        const res = await t.app.inject({ method: r.method as 'POST', url, headers, ...(r.method === 'PATCH' || r.method === 'POST' ? { payload: Buffer.from(r.body) } : {}), remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.1` });
        const what = `${r.method} ${url} ${JSON.stringify(headers).slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, what).toBeLessThan(500);
        expect(res.body, what).not.toMatch(/SQLITE|syntax error|relation "|at \/|node_modules|stack/i);
      }),
      { numRuns: RUNS, endOnFailure: !FULL },
    );
  });

  it('the fuzz reached the handlers: every route answered 2xx at least once (bar those no valid sample can pass)', () => {
    const neverOk: RouteName[] = ['resetPassword', 'confirmEmail', 'getImage', 'uploadImage', 'importXlsform', 'resumableCreate', 'resumableOffset', 'resumableAppend', 'resumableTerminate'];
    const histogram: Record<string, Record<number, number>> = {};
    for (const s of seen) (histogram[s.name] ??= {})[s.status] = ((histogram[s.name] ?? {})[s.status] ?? 0) + 1;
    if (process.env.SECURITY_VERBOSE) console.log(JSON.stringify(histogram), JSON.stringify(seen.filter((s) => s.status === 403).slice(0, 5)));
    for (const name of Object.keys(routes) as RouteName[]) {
      if (neverOk.includes(name)) continue;
      const ok = Object.entries(histogram[name] ?? {}).filter(([status]) => Number(status) < 300).reduce((n, [, c]) => n + c, 0);
      expect(ok, `${name}: ${JSON.stringify(histogram[name])}`).toBeGreaterThan(0);
    }
  });

  it('no reply echoed a forged id, rate or payment time', () => {
    const ok = seen.filter((s) => s.status === 200);
    expect(ok.length).toBeGreaterThan(100);
    for (const s of ok) {
      expect(s.reply, s.name).not.toContain(FORGED.id);
      expect(s.reply, s.name).not.toContain(String(FORGED.paidAt));
      if (s.name !== 'inviteFieldUser') expect(s.reply, s.name).not.toContain(`"rate":${FORGED.rate}`);
    }
  });
});
