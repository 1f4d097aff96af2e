import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICE_ROLES, OfficeRole, QuestionType, Role, routes, type RouteName } from '@survey-bird/contracts';
import { addMember, addOfficeUser, addResponse, createOrganization, createSurvey } from '../../apps/api/test/fixtures.js';
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
  fuB: { id: '', userId: '' }, goneA: '', goneAEmail: '', offAEmail: '', editA: '', bankChangeApprove: 'bank-change-to-approve', bankChangeReject: 'bank-change-to-reject',
  responseA: '', payoutToPay: 'payout-to-pay-0001', payoutToCancel: 'payout-to-cancel-0001',
  admin: '', pwUser: '', pwEmail: 'password-changer@fuzz.ng', pwHash: '', signOutEmail: 'signs-out@fuzz.ng',
  startedAt: 0,
  /** Organization A's office users by office role (the owner is orgA), and two memberships the office-user routes change and remove. */
  office: {} as Record<string, string>, officeChanged: '', officeGone: '',
  /** Organization A owner's API token, and a token of A's the revoke route may revoke. */
  apiToken: '', tokenToRevoke: '',
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
  // An audio audit clip on it, stored by the audio service as a finished upload is: the clip and verdict routes have one to serve.
  const clip = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(512, 7)]);
  const clipSha = createHash('sha256').update(clip).digest('hex');
  const { client_id: clientA } = await t.app.db.kysely.selectFrom('responses').select('client_id').where('id', '=', w.responseA).executeTakeFirstOrThrow();
  await t.app.db.kysely.updateTable('responses').set({ audio: 'recorded', meta: JSON.stringify({ audio: { selected: true, status: 'recorded', consent: true, size: clip.length, sha256: clipSha } }) }).where('id', '=', w.responseA).execute();
  const clipTemp = t.app.services.uploads.tempPath();
  await writeFile(clipTemp, clip);
  await t.app.services.audio.store(fuA.userId!, { survey_id: w.surveyA, organization_id: w.orgA.id, clientId: clientA }, { tempPath: clipTemp, size: clip.length, sha256: clipSha });
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
  const goneA = await addMember(t.app, w.surveyA, w.orgA.id, { fullName: 'Withdrawn A', registered: false });
  w.goneA = goneA.id;
  w.goneAEmail = goneA.email;
  // The one person deactivation may switch off and on (the withdrawal route may take goneA off first).
  w.offAEmail = (await addMember(t.app, w.surveyA, w.orgA.id, { fullName: 'Deactivated A', registered: false })).email;
  // The one member the edit route may change (rate, phone, bank).
  w.editA = (await addMember(t.app, w.surveyA, w.orgA.id, { fullName: 'Edited A', registered: false, rate: 150 })).id;
  // Two bank change requests of the edited member's, one to approve (it changes that member's bank only) and one to reject.
  for (const id of [w.bankChangeApprove, w.bankChangeReject]) {
    await t.app.db.kysely.insertInto('bank_change_requests').values({ id, organization_id: w.orgA.id, survey_id: w.surveyA, member_id: w.editA, bank: 'GTBank', account_number: '0123456780', account_name: 'Edited A', status: 'pending', created_at: Date.now(), decided_at: null, decided_by: null }).execute();
  }
  await createUser(t.app, 'root@fuzz.ng', Role.masterAdmin);
  w.admin = await login(t.app, 'root@fuzz.ng');
  await createUser(t.app, w.pwEmail, Role.fieldUser);
  w.pwUser = await login(t.app, w.pwEmail);
  w.pwHash = (await t.app.db.kysely.selectFrom('users').select('password_hash').where('email', '=', w.pwEmail).executeTakeFirstOrThrow()).password_hash;
  await createUser(t.app, w.signOutEmail, Role.supervisor);
  await createUser(t.app, 'pending@fuzz.ng', Role.fieldUser, { verified: false });
  await createUser(t.app, 'nothing@fuzz.ng', Role.nothing);

  for (const role of OFFICE_ROLES.filter((r) => r !== OfficeRole.owner)) w.office[role] = (await addOfficeUser(t.app, w.orgA.id, role)).token;
  w.officeChanged = (await addOfficeUser(t.app, w.orgA.id, OfficeRole.analyst)).id;
  w.officeGone = (await addOfficeUser(t.app, w.orgA.id, OfficeRole.analyst)).id;

  const inADay = new Date(Date.now() + 86_400_000).toISOString();
  w.apiToken = (await call(t.app, w.orgA.token, { method: 'POST', url: '/api/v1/tokens', payload: { name: 'Fuzz key', expiresAt: inADay } })).json().secret;
  w.tokenToRevoke = (await call(t.app, w.orgA.token, { method: 'POST', url: '/api/v1/tokens', payload: { name: 'Revoked key', expiresAt: inADay } })).json().token._id;

  const k = t.app.db.kysely;
  usersBefore = new Map((await k.selectFrom('users').select(['id', 'role', 'verified']).execute()).map((u) => [u.id, { role: u.role, verified: Number(u.verified) }]));
  membersBefore = new Map((await k.selectFrom('members').select(['id', 'rate', 'role', 'user_id', 'organization_id', 'survey_id']).execute()).map(({ id, ...m }) => [id, { ...m, rate: Number(m.rate) }]));
});
afterAll(() => t.close());

type Caller = 'public' | 'api_token' | 'organization' | 'supervisor' | 'field_user' | 'admin' | 'password' | 'fresh' | `office_${Exclude<OfficeRole, 'owner'>}`;
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
    setLanguage: { caller: 'field_user', body: { language: 'ha' } },
    signOutAll: { caller: 'fresh', body: {} },
    allUsers: { caller: 'admin', query: page },
    currentOrganization: { caller: 'organization', query: {} },
    allOrganizations: { caller: 'admin', query: page },
    createOrganization: { caller: 'admin', body: { organizationName: 'Fuzzed Org', email: 'fresh-org-UNIQ@fuzz.ng' } },
    sendMail: { caller: 'admin', body: { organization_id: w.orgA.id, subject: 'Hello', body: 'A message' } },
    officeUsers: { caller: 'organization', query: page },
    inviteOfficeUser: { caller: 'organization', body: { email: 'office-UNIQ@fuzz.ng', role: 'analyst', surveyIds: [w.surveyA] } },
    updateOfficeUser: { caller: 'organization', params: { id: w.officeChanged }, body: { role: 'reviewer', surveyIds: [w.surveyA] } },
    removeOfficeUser: { caller: 'organization', params: { id: w.officeGone } },
    createSurvey: { caller: 'organization', body: { title: 'Fuzzed survey', description: '', expectedResponseCount: 10, questions: [{ text: 'Q1', type: QuestionType.text, compulsory: true, options: [] }, { text: 'Q2', type: QuestionType.select, options: ['a', 'b'] }] } },
    updateSurvey: { caller: 'organization', params: { id: w.surveyEdited }, body: { title: 'Fuzzed edit', description: 'v2', expectedResponseCount: 5, questions: [{ text: 'Q1', type: QuestionType.text, compulsory: true, options: [] }, { text: 'Q2', type: QuestionType.select, options: ['a', 'b'] }] } },
    surveyVersions: { caller: 'organization', params: { id: w.surveyEdited }, query: page },
    surveyXlsform: { caller: 'organization', params: { id: w.surveyEdited } },
    surveyChanges: { caller: 'organization', params: { id: w.surveyA }, query: { since: '0.', limit: '50' } },
    surveyWebhooks: { caller: 'organization', params: { id: w.surveyA } },
    createWebhook: { caller: 'organization', params: { id: w.surveyA }, body: { url: 'https://hooks.example/fuzz', events: ['response.created'], secret: 'a-fuzzing-secret-value' } },
    deleteWebhook: { caller: 'organization', params: { id: '6f1c1c3e-6a4b-4d53-9a56-2d4f0c7f9e12' } },
    webhookDeliveries: { caller: 'organization', params: { id: '6f1c1c3e-6a4b-4d53-9a56-2d4f0c7f9e12' }, query: page },
    retryDelivery: { caller: 'organization', params: { id: '6f1c1c3e-6a4b-4d53-9a56-2d4f0c7f9e12', deliveryId: '1' } },
    // A JSON body where a multipart upload is expected: always a 400, never a 5xx (tests/security/uploads.test.ts-like cases are in surveys/xlsform.test.ts).
    importXlsform: { caller: 'organization', body: { file: 'survey.xlsx' } },
    organizationSurveys: { caller: 'organization', query: page },
    fieldUserSurveys: { caller: 'field_user', query: page },
    supervisorSurveys: { caller: 'supervisor', query: page },
    largeDataset: { caller: 'field_user', query: { organization_id: w.orgA.id, survey_id: w.surveyA, question: 'Ward', searchQuery: 'ward' } },
    datasetExport: { caller: 'field_user', query: { survey_id: w.surveyA, question: 'Ward' } },
    respond: { caller: 'field_user', body: { survey_id: w.surveyA, organization_id: w.orgA.id, answers, clientId: '00000000-0000-4000-8000-UNIQ', capturedAt: new Date().toISOString(), openedAt: new Date().toISOString(), durationMs: 60_000, locationAccuracy: 12, locationFixedAt: new Date().toISOString(), deviceId: 'fuzz-phone', appVersion: '1', photoHashes: { 'Name of outlet': '0123456789abcdef' }, sentAt: new Date().toISOString(), audio: { status: 'recorded', consent: true, size: 2048, sha256: 'a'.repeat(64), durationMs: 60_000, mime: 'audio/webm;codecs=opus' } } },
    syncResponses: { caller: 'field_user', body: { responses: [{ survey_id: w.surveyA, organization_id: w.orgA.id, answers, clientId: '00000000-0000-4000-8000-UNIQ' }] } },
    uploadImage: 'multipart',
    // The tus protocol speaks in headers and raw bytes: fuzzed below, by headers and bytes.
    resumableCreate: 'tus',
    resumableOffset: 'tus',
    resumableAppend: 'tus',
    resumableTerminate: 'tus',
    organizationResponses: { caller: 'office_analyst', params: sA, query: page },
    organizationExport: { caller: 'organization', params: sA, query: page, runs: EXPORT_RUNS },
    organizationTopPerformer: { caller: 'office_analyst', params: sA, query: {} },
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
    surveySettings: { caller: 'office_admin', params: { id: w.surveyA }, body: { payAfterReview: false, photoQuality: 'standard', audioAudit: { percent: 10, consentText: 'We record for quality checks', alwaysFieldUserIds: [w.fuA.id] }, payGate: { approved: false, audioReviewed: true } } },
    reviewResponses: { caller: 'supervisor', body: { responseIds: [w.responseA], status: 'approved', comment: 'Looks right' } },
    responseDetail: { caller: 'office_reviewer', params: { id: w.responseA } },
    dismissFlag: { caller: 'supervisor', params: { id: w.responseA, flag: 'too_fast' }, body: { note: 'Checked on site' } },
    responseAudio: { caller: 'office_reviewer', params: { id: w.responseA } },
    reviewAudio: { caller: 'supervisor', params: { id: w.responseA }, body: { verdict: 'matches', reason: 'Same household and answers' } },
    createPayout: { caller: 'organization', body: { survey_id: w.surveyA, key: '00000000-0000-4000-8000-UNIQ' } },
    markPayoutPaid: { caller: 'organization', params: { id: w.payoutToPay }, body: { reference: 'TRF-0001' } },
    cancelPayout: { caller: 'office_finance', params: { id: w.payoutToCancel } },
    payouts: { caller: 'supervisor', query: { survey_id: w.surveyA, page: '1' } },
    payout: { caller: 'office_finance', params: { id: w.payoutToPay } },
    payoutDownload: { caller: 'organization', params: { id: w.payoutToPay }, query: { format: 'csv', part: 'transfers' } },
    payoutHolds: { caller: 'office_finance', query: { survey_id: w.surveyA } },
    myResponseChanges: { caller: 'field_user', query: { since: '0_' } },
    myEarnings: { caller: 'field_user', query: {} },
    myResponses: { caller: 'field_user', query: { page: '1' } },
    reportDevice: { caller: 'field_user', body: { deviceId: 'fuzz-phone', appVersion: '1', waiting: 1, failed: 0, photosWaiting: 0, storageUsed: 10, storageQuota: 100, lastSyncAt: '2026-11-25T10:00:00.000Z' } },
    organizationSettings: { caller: 'organization', body: { staleSyncDays: 5 } },
    supervisorSettings: { caller: 'supervisor', query: {} },
    updateSupervisorSettings: { caller: 'supervisor', body: { syncDigest: true } },
    bulkInviteFieldUsers: 'multipart', bulkInviteSupervisors: 'multipart',
    bulkTemplate: { caller: 'organization', query: { role: 'field_user' } },
    myBank: { caller: 'field_user', query: page },
    requestBankChange: { caller: 'field_user', body: { survey_id: w.surveyA, bank: 'GTBank', accountNumber: '0123456780', accountName: 'Field A' } },
    bankChangeRequests: { caller: 'organization', query: page },
    approveBankChange: { caller: 'organization', params: { id: w.bankChangeApprove } },
    rejectBankChange: { caller: 'organization', params: { id: w.bankChangeReject }, body: { reason: 'Not your account' } },
    inviteToSurveys: { caller: 'organization', body: { role: 'field_user', surveyIds: [w.surveyA], fullName: 'Many Surveys', email: 'many-UNIQ@fuzz.ng', phoneNumber: '08031112222', bank: 'GTBank', accountNumber: '0123456780', accountName: 'Many Surveys', rate: 120 } },
    copyTeam: { caller: 'organization', body: { fromSurveyId: w.surveyA, toSurveyId: w.surveyEdited, dryRun: false } },
    updateMember: { caller: 'organization', params: { surveyId: w.surveyA, memberId: w.editA }, body: { rate: 200, phoneNumber: '08031112222', bank: 'GTBank', accountNumber: '0123456780', accountName: 'Edited A' } },
    bulkAssignSupervisor: { caller: 'organization', body: { survey_id: w.surveyA, supervisorId: w.supA.id, fieldUserIds: [w.fuA.id] } },
    deactivatePerson: { caller: 'organization', body: { email: w.offAEmail } },
    reactivatePerson: { caller: 'organization', body: { email: w.offAEmail } },
    deactivatedPeople: { caller: 'organization', query: page },
    audit: { caller: 'organization', query: { page: '1', action: 'member.invite', surveyId: w.surveyA, from: '2026-01-01', to: new Date().toISOString() } },
    auditExport: { caller: 'organization', query: { action: 'payout.paid', from: '2026-01-01' } },
    surveyMap: { caller: 'organization', params: { id: w.surveyA }, query: { zoom: '3', status: 'pending', flag: 'any', bbox: '2,4,5,8', from: '2026-01-01T00:00:00.000Z' } },
    teamMap: { caller: 'supervisor', params: { id: w.surveyA }, query: { page: '1' } },
    uploadBasemap: 'multipart',
    getBasemap: { caller: 'public', params: { id: '0123456789abcdef0123456789abcdef' } },
    tokens: { caller: 'office_analyst', query: page },
    createToken: { caller: 'office_finance', body: { name: 'Fuzz UNIQ', surveyId: w.surveyA, expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() } },
    revokeToken: { caller: 'organization', params: { id: w.tokenToRevoke } },
    odataService: { caller: 'api_token', params: sA },
    odataMetadata: { caller: 'api_token', params: sA },
    odataEntitySet: { caller: 'api_token', params: { surveyId: w.surveyA, entitySet: 'Responses' }, query: { $top: '5', $skip: '0', $count: 'true', $filter: 'ReceivedAt ge 2026-01-01T00:00:00Z' } },
    odataCount: { caller: 'organization', params: { surveyId: w.surveyA, entitySet: 'Responses' }, query: { $filter: 'ReceivedAt lt 2030-01-01' } },
    eraseResponse: { caller: 'office_admin', params: { id: w.responseA }, body: { reason: 'The respondent asked' } },
    respondents: { caller: 'organization', query: { search: 'Mama', page: '1' } },
    respondentExport: { caller: 'organization', query: { search: '0803 000 0000' } },
    myData: { caller: 'field_user', query: {} },
    backcheckForm: { caller: 'office_admin', params: { id: w.surveyEdited }, body: { questions: [{ text: 'Did an enumerator visit you?', type: QuestionType.select, options: ['Yes', 'No'] }], tolerances: {}, respondentQuestionId: null } },
    surveyBackchecks: { caller: 'office_analyst', params: { id: w.surveyA }, query: { page: '1' } },
    backcheckExport: { caller: 'organization', params: { id: w.surveyA }, runs: EXPORT_RUNS },
    responseBackcheck: { caller: 'supervisor', params: { id: w.responseA } },
    myBackchecks: { caller: 'field_user', query: { page: '1' } },
  };
}

async function tokenOf(caller: Caller): Promise<string | null> {
  switch (caller) {
    case 'public': return null;
    case 'organization': return w.orgA.token;
    case 'api_token': return w.apiToken;
    case 'supervisor': return w.supA.token;
    case 'field_user': return w.fuA.token;
    case 'admin': return w.admin;
    case 'password': return w.pwUser;
    case 'fresh': return login(t.app, w.signOutEmail);
    default: return w.office[caller.slice(7)]!;
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
const BINARY: RouteName[] = ['odataMetadata', 'odataCount', 'organizationExport', 'supervisorExport', 'getImage', 'getBasemap', 'payoutDownload', 'surveyXlsform', 'auditExport', 'bulkTemplate', 'respondentExport', 'responseAudio', 'backcheckExport'];

const seen: { name: RouteName; status: number; reply: string }[] = [];
let uniq = 0;

describe('OWASP API3:2023 (Broken Object Property Level Authorization: mass assignment), API8:2023 and ASVS 5.0 V1.5/V2.2 (input validation): fuzzing every route of the contracts table', () => {
  it('has a fuzz sample for every route of the table', () => {
    const s = samples();
    for (const name of Object.keys(routes) as RouteName[]) expect(s[name], `fuzz sample for ${name}`).toBeDefined();
  });

  for (const name of Object.keys(routes) as RouteName[]) {
    it(`${routes[name].method} ${routes[name].path}: no 5xx, only { msg, code } refusals`, async () => {
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
            expect(Object.keys(reply).sort(), what).toEqual(['code', 'msg']);
            expect(typeof reply.msg).toBe('string');
            expect(reply.code, what).toMatch(/^[a-z][A-Za-z.]*$/);
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

describe('OWASP API5:2023 (Broken Function Level Authorization): each office role is refused every organization route it is not named on', () => {
  for (const role of OFFICE_ROLES.filter((r) => r !== OfficeRole.owner)) {
    it(`${role}: 403 { msg, code } on each refused route, whatever the request`, async () => {
      const refused = (Object.keys(routes) as RouteName[]).filter((n) => {
        const def = routes[n] as { access: unknown; office?: readonly string[] };
        return Array.isArray(def.access) && def.access.includes(Role.organization) && !def.office?.includes(role);
      });
      expect(refused.length, role).toBeGreaterThan(0);
      for (const name of refused) {
        const sample = samples()[name];
        if (sample === 'multipart' || sample === 'tus') continue;
        const def = routes[name];
        // The path stays the sample's (a fuzzed one may match no route at all): the role is refused before the body is read.
        const arb = fc.record({ body: sample.body ? bodyArb(sample.body) : fc.constant(undefined) });
        await fc.assert(fc.asyncProperty(arb, async ({ body }) => {
          const res = await call(t.app, w.office[role]!, { method: def.method, url: fill(def.path, sample.params ?? {}), ...(body !== undefined ? { payload: body, headers: { 'content-type': 'application/json' } } : {}) });
          expect(res.statusCode, `${role} ${name}`).toBe(403);
          expect(Object.keys(res.json()).sort(), `${role} ${name}`).toEqual(['code', 'msg']);
        }), { numRuns: FULL ? 50 : 3, examples: [[{ body: sample.body ? JSON.stringify(sample.body) : undefined }]] });
      }
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
      if (u.role === Role.organization) expect(await k().selectFrom('office_users').select('id').where('email', '=', u.email).executeTakeFirst(), u.email).toBeDefined();
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
        // The edit sample's member may take a new rate; everything else about it stays.
        const rate = m.id === w.editA ? before.rate : Number(m.rate);
        expect({ rate, role: m.role, user_id: m.user_id, organization_id: m.organization_id, survey_id: m.survey_id }).toEqual(before);
      } else {
        // Invited by organization A during the fuzz: A's survey (or the one A's team was copied to), and a rate only on a field user (set by the owner's invite).
        expect(m.organization_id).toBe(w.orgA.id);
        expect([w.surveyA, w.surveyEdited]).toContain(m.survey_id);
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

  it('office users: B\'s office is only its owner; A\'s owner is still its owner; the changed membership kept its organization', async () => {
    const office = await k().selectFrom('office_users').select(['id', 'organization_id', 'email', 'role']).execute();
    expect(office.filter((o) => o.organization_id === w.orgB.id).map((o) => [o.email, o.role])).toEqual([[w.orgB.email, OfficeRole.owner]]);
    expect(office.find((o) => o.email === w.orgA.email)?.role).toBe(OfficeRole.owner);
    expect(office.find((o) => o.id === w.officeChanged)?.organization_id).toBe(w.orgA.id);
    expect(office.map((o) => o.id)).not.toContain(FORGED.id);
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

  it('tus routes (resumable photo and audio uploads): no 5xx and no internals whatever the headers and bytes, from any caller', async () => {
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
        // An audio audit clip: no question, the response's clientId (one the fuzz's respond sample may have stored, or not).
        fc.record({ kind: fc.constantFrom('audio_audit', 'AUDIO', ''), survey_id: fc.constantFrom(w.surveyA, w.surveyB, 'x'), organization_id: fc.constantFrom(w.orgA.id, w.orgB.id), clientId: fc.oneof(fc.uuid(), fc.constant('00000000-0000-4000-8000-000000000001')) })
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
    const neverOk: RouteName[] = ['resetPassword', 'confirmEmail', 'getImage', 'getBasemap', 'uploadBasemap', 'uploadImage', 'importXlsform', 'bulkInviteFieldUsers', 'bulkInviteSupervisors', 'resumableCreate', 'resumableOffset', 'resumableAppend', 'resumableTerminate',
      // A webhook's routes take the id of a webhook the fuzz world has none of (webhooks/webhooks.test.ts reaches them).
      'deleteWebhook', 'webhookDeliveries', 'retryDelivery'];
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
      // A rate is the caller's to set on an invitation and on a member edit.
      if (s.name !== 'inviteFieldUser' && s.name !== 'updateMember' && s.name !== 'audit') expect(s.reply, s.name).not.toContain(`"rate":${FORGED.rate}`);
    }
  });
});
