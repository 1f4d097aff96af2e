import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditAction, type AuditEventRow, QuestionType, Role } from '@survey-bird/contracts';
import { buildTestApp, call, login, type TestApp } from '../../../test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Audited Org');
  other = await createOrganization(t.app, 'Other Org');
});
afterAll(() => t.close());

const k = () => t.app.db.kysely;
const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, token = org.token) => call(t.app, token, { method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });
const events = (action: string, organizationId = org.id) => k().selectFrom('audit_events').selectAll().where('organization_id', '=', organizationId).where('action', '=', action).execute();

/** Runs `act` and expects exactly one new event of `action`, which it answers. */
async function once(action: AuditAction, act: () => Promise<{ statusCode: number; body: string }>) {
  const before = (await events(action)).length;
  const res = await act();
  expect(res.statusCode, res.body).toBeLessThan(300);
  const after = await events(action);
  expect(after.length, action).toBe(before + 1);
  return after.sort((a, b) => Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? 1 : -1))[0]!;
}

const QUESTIONS = [{ text: 'Name of outlet', type: QuestionType.text, compulsory: true }];

describe('every audited action writes one event', () => {
  it('office sign-in, with who, role and IP; a field user sign-in is not logged', async () => {
    const e = await once(AuditAction.signIn, () => t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: org.email, password: 'correct horse battery' }, remoteAddress: '10.1.2.3' }));
    expect(e).toMatchObject({ actor_user_id: org.userId, actor_email: org.email, actor_role: Role.organization, ip: '10.1.2.3' });
    const survey = await createSurvey(t.app, org.id);
    const fu = await addMember(t.app, survey.id, org.id, {});
    const count = (await k().selectFrom('audit_events').select('id').execute()).length;
    await login(t.app, fu.email);
    expect((await k().selectFrom('audit_events').select('id').execute()).length).toBe(count);
  });

  it('survey publish, edit, settings, close and reopen, with before and after', async () => {
    const published = await once(AuditAction.publishSurvey, () => send('POST', '/survey/create', { title: 'Markets', questions: QUESTIONS }));
    const surveyId = published.survey_id!;
    expect(JSON.parse(published.after!)).toMatchObject({ title: 'Markets', version: 1 });
    const edited = await once(AuditAction.editSurvey, () => send('PUT', `/survey/${surveyId}`, { title: 'Markets 2', questions: QUESTIONS }));
    expect([JSON.parse(edited.before!), JSON.parse(edited.after!)]).toMatchObject([{ title: 'Markets', version: 1 }, { title: 'Markets 2', version: 2 }]);
    const settings = await once(AuditAction.surveySettings, () => send('PATCH', `/survey/${surveyId}/settings`, { payAfterReview: true }));
    expect([JSON.parse(settings.before!), JSON.parse(settings.after!)]).toEqual([{ payAfterReview: false }, { payAfterReview: true }]);
    await once(AuditAction.closeSurvey, () => send('PATCH', `/survey/${surveyId}/settings`, { closed: true }));
    await once(AuditAction.reopenSurvey, () => send('PATCH', `/survey/${surveyId}/settings`, { closed: false }));
    // Saving what is already there changes nothing and records nothing.
    const n = (await events(AuditAction.surveySettings)).length;
    expect((await send('PATCH', `/survey/${surveyId}/settings`, { payAfterReview: true })).statusCode).toBe(200);
    expect(await events(AuditAction.surveySettings)).toHaveLength(n);
  });

  it('invitations, supervisor assignment and withdrawals', async () => {
    const survey = await createSurvey(t.app, org.id, { title: 'Team' });
    const fu = await once(AuditAction.inviteMember, () => send('POST', '/field-user', { survey_id: survey.id, fullName: 'Ada Obi', email: 'ada.audit@team.ng', phoneNumber: '08031234567', rate: 150 }));
    expect(fu).toMatchObject({ survey_id: survey.id, target_type: Role.fieldUser, target_label: 'ada.audit@team.ng' });
    expect(JSON.parse(fu.after!)).toMatchObject({ rate: 150, fullName: 'Ada Obi' });
    const sup = await once(AuditAction.inviteMember, () => send('POST', '/supervisor', { survey_id: survey.id, fullName: 'Sam Sup', email: 'sam.audit@team.ng', phoneNumber: '08031234567', accountNumber: '0123456789', accountName: 'Sam Sup' }));
    const assigned = await once(AuditAction.assignSupervisor, () => send('POST', '/supervisor/assign', { survey_id: survey.id, fieldUserId: fu.target_id, supervisorId: sup.target_id }));
    expect(JSON.parse(assigned.after!)).toEqual({ supervisorId: sup.target_id });
    await once(AuditAction.withdrawMember, () => send('DELETE', `/member/${survey.id}/${fu.target_id}`));
    // Withdrawing again is idempotent: no second event.
    expect((await send('DELETE', `/member/${survey.id}/${fu.target_id}`)).statusCode).toBe(200);
    expect((await events(AuditAction.withdrawMember)).filter((e) => e.target_id === fu.target_id)).toHaveLength(1);
  });

  it('review verdicts (one per response), flag dismissals, exports and organization settings', async () => {
    const survey = { id: (await createSurvey(t.app, org.id, { title: 'Reviewed' })).id, organizationId: org.id };
    const fu = await addMember(t.app, survey.id, org.id, { rate: 100 });
    const r1 = await addResponse(t.app, fu, survey, { status: 'pending' });
    const r2 = await addResponse(t.app, fu, survey, { status: 'pending' });
    const before = (await events(AuditAction.reviewVerdict)).length;
    const res = await send('POST', '/responses/review', { responseIds: [r1.id, r2.id], status: 'approved' });
    expect(res.statusCode).toBe(200);
    const verdicts = (await events(AuditAction.reviewVerdict)).slice(before);
    expect(verdicts.map((v) => v.target_id).sort()).toEqual([r1.id, r2.id].sort());
    expect(JSON.parse(verdicts[0]!.before!)).toEqual({ status: 'pending' });

    await t.app.services.flags.worker.drain();
    await k().insertInto('response_flags').values({ response_id: r1.id, flag: 'too_fast', survey_id: survey.id, member_id: fu.id, reason: 'Filled in 3 s', other_response_id: null, created_at: Date.now(), dismissed_at: null, dismissed_by: null, dismissed_role: null, dismiss_note: null }).onConflict((oc) => oc.doNothing()).execute();
    const dismissed = await once(AuditAction.dismissFlag, () => send('POST', `/responses/${r1.id}/flags/too_fast/dismiss`, { note: 'Known fast enumerator' }));
    expect(JSON.parse(dismissed.after!)).toMatchObject({ flag: 'too_fast', note: 'Known fast enumerator' });

    const exported = await once(AuditAction.exportResponses, () => send('GET', `/survey/organization/response/download/${survey.id}?status=approved`));
    expect(JSON.parse(exported.after!)).toEqual({ status: 'approved', format: 'xlsx' });
    const settings = await once(AuditAction.organizationSettings, () => send('PATCH', '/organization/settings', { staleSyncDays: 5 }));
    expect([JSON.parse(settings.before!), JSON.parse(settings.after!)]).toEqual([{ staleSyncDays: 3 }, { staleSyncDays: 5 }]);
  });

  it('payouts: create, download, paid, cancel', async () => {
    const survey = { id: (await createSurvey(t.app, org.id, { title: 'Paid' })).id, organizationId: org.id };
    const fu = await addMember(t.app, survey.id, org.id, { rate: 100 });
    await addResponse(t.app, fu, survey, { rate: 100 });
    const created = await once(AuditAction.createPayout, () => send('POST', '/payouts', { survey_id: survey.id, key: '0d5c3f4e-8a5b-4b7e-9a8e-1c2d3e4f5a61' }));
    expect(JSON.parse(created.after!)).toMatchObject({ total: 100, responses: 1, fieldUsers: 1 });
    await once(AuditAction.downloadPayout, () => send('GET', `/payouts/${created.target_id}/download?format=csv`));
    const paid = await once(AuditAction.payoutPaid, () => send('POST', `/payouts/${created.target_id}/paid`, { reference: 'TRF-1' }));
    expect(JSON.parse(paid.after!)).toMatchObject({ status: 'paid', reference: 'TRF-1' });
    // Marking paid again changes nothing: no second event.
    await send('POST', `/payouts/${created.target_id}/paid`, { reference: 'TRF-1' });
    expect((await events(AuditAction.payoutPaid)).filter((e) => e.target_id === created.target_id)).toHaveLength(1);

    await addResponse(t.app, fu, survey, { rate: 100 });
    const second = await once(AuditAction.createPayout, () => send('POST', '/payouts', { survey_id: survey.id, key: '0d5c3f4e-8a5b-4b7e-9a8e-1c2d3e4f5a62' }));
    await once(AuditAction.cancelPayout, () => send('POST', `/payouts/${second.target_id}/cancel`));
  });
});

describe('GET /audit', () => {
  it('lists the organization only, newest first, paged, filtered by action, person, survey and dates', async () => {
    const survey = await createSurvey(t.app, org.id, { title: 'Filtered' });
    for (let i = 0; i < 3; i++) await send('POST', '/field-user', { survey_id: survey.id, fullName: `P ${i}`, email: `p${i}.filter@team.ng`, phoneNumber: '08031234567' });
    await send('POST', '/field-user', { survey_id: (await createSurvey(t.app, other.id)).id, fullName: 'Other', email: 'other.filter@team.ng', phoneNumber: '08031234567' }, other.token);

    const res = await send('GET', `/audit?action=${AuditAction.inviteMember}&surveyId=${survey.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ events: AuditEventRow[]; totalCount: number; page: number; hasNextPage: boolean }>();
    expect(body.totalCount).toBe(3);
    expect(body.events.map((e) => e.targetLabel)).toEqual(['p2.filter@team.ng', 'p1.filter@team.ng', 'p0.filter@team.ng']);
    expect(body.events[0]).toMatchObject({ action: AuditAction.inviteMember, actorId: org.userId, actorEmail: org.email, surveyTitle: 'Filtered', before: null });

    const all = (await send('GET', '/audit')).json<{ events: AuditEventRow[]; totalCount: number; hasNextPage: boolean }>();
    expect(all.events).toHaveLength(20);
    expect(all.hasNextPage).toBe(true);
    const times = all.events.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const page2 = (await send('GET', '/audit?page=2')).json<{ events: AuditEventRow[] }>();
    expect(page2.events.some((e) => all.events.some((f) => f._id === e._id))).toBe(false);
    expect(JSON.stringify(all)).not.toContain('other.filter@team.ng');

    const byActor = (await send('GET', `/audit?actorId=${other.userId}`)).json<{ totalCount: number }>();
    expect(byActor.totalCount).toBe(0);
    const future = (await send('GET', '/audit?from=2999-01-01')).json<{ totalCount: number }>();
    expect(future.totalCount).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await send('GET', `/audit?from=${today}&to=${today}&surveyId=${survey.id}`)).json<{ totalCount: number }>().totalCount).toBe(3);

    expect((await send('GET', '/audit?action=nonsense')).statusCode).toBe(400);
    expect((await send('GET', '/audit?from=yesterday')).statusCode).toBe(400);
  });

  it('exports the filtered log as xlsx, itself an audited action', async () => {
    const survey = await createSurvey(t.app, org.id, { title: 'Exported' });
    await send('POST', '/field-user', { survey_id: survey.id, fullName: '=HYPERLINK("x")', email: 'x.export@team.ng', phoneNumber: '08031234567' });
    const exported = await once(AuditAction.exportAudit, () => send('GET', `/audit/download?surveyId=${survey.id}`));
    expect(JSON.parse(exported.after!)).toEqual({ surveyId: survey.id });
    const res = await send('GET', `/audit/download?surveyId=${survey.id}`);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Audit')!;
    expect(sheet.getRow(1).getCell(2).value).toBe('Action');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(2).value).toBe(AuditAction.inviteMember);
    // A name typed as a formula stays text.
    expect(String(sheet.getRow(2).getCell(11).value)).not.toMatch(/^=/);
  });
});

describe('audit_events is append-only in the database too', () => {
  it('refuses UPDATE and DELETE', async () => {
    const [row] = await k().selectFrom('audit_events').select('id').limit(1).execute();
    await expect(k().updateTable('audit_events' as never).set({ action: 'forged' } as never).where('id' as never, '=', row!.id as never).execute()).rejects.toThrow(/append-only/);
    await expect(k().deleteFrom('audit_events' as never).where('id' as never, '=', row!.id as never).execute()).rejects.toThrow(/append-only/);
    expect(await k().selectFrom('audit_events').select('id').where('id', '=', row!.id).executeTakeFirst()).toEqual({ id: row!.id });
  });
});
