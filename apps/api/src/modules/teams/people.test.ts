import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, AuditAction, Role } from '@survey-bird/contracts';
import { buildTestApp, call, lastMail, type TestApp } from '../../../test/helpers.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'People Org');
  other = await createOrganization(t.app, 'Other Org');
});
afterAll(() => t.close());

const k = () => t.app.db.kysely;
const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, token: string | null = org.token) => call(t.app, token, { method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });
const patch = (surveyId: string, memberId: string, body: object, token = org.token) => send('PATCH', `/member/${surveyId}/${memberId}`, body, token);
const respond = (token: string | null, surveyId: string) => send('POST', '/survey/respond', { survey_id: surveyId, organization_id: org.id, answers: { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' }, clientId: randomUUID() }, token);
const auditOf = (memberId: string) => k().selectFrom('audit_events').selectAll().where('target_id', '=', memberId).orderBy('created_at').orderBy('id').execute();

describe('PATCH /member/:surveyId/:memberId', () => {
  it('refuses bad input with the invitation form\'s messages, and nothing to change', async () => {
    const { id: surveyId } = await createSurvey(t.app, org.id);
    const fu = await addMember(t.app, surveyId, org.id, { rate: 100 });
    const msg = async (body: object) => {
      const res = await patch(surveyId, fu.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      return res.json<{ msg: string }>().msg;
    };
    expect(await msg({ accountNumber: '12345' })).toBe(ApiMsg.invalidAccountNumber);
    expect(await msg({ accountName: ' ' })).toBe(ApiMsg.provideAccountName);
    expect(await msg({ phoneNumber: '' })).toBe(ApiMsg.providePhone);
    expect(await msg({ rate: '1e3' })).toBe('Rate must be a whole number of naira');
    expect(await msg({})).toBe(ApiMsg.nothingToChange);
    const sup = await addMember(t.app, surveyId, org.id, { role: Role.supervisor });
    expect((await patch(surveyId, sup.id, { rate: 50 })).json<{ msg: string }>().msg).toBe(ApiMsg.supervisorHasNoRate);
    expect((await patch(surveyId, fu.id, { supervisorId: fu.id })).json<{ msg: string }>().msg).toBe(ApiMsg.notSupervisorOfSurvey);
    // Another organization's member is simply not found, and unchanged.
    expect((await patch(surveyId, fu.id, { rate: 5 }, other.token)).statusCode).toBe(404);
    expect(Number((await k().selectFrom('members').select('rate').where('id', '=', fu.id).executeTakeFirstOrThrow()).rate)).toBe(100);
    expect(await auditOf(fu.id)).toEqual([]);
  });

  it('a rate change applies only to responses received from then on', async () => {
    const { id: surveyId } = await createSurvey(t.app, org.id);
    const fu = await addMember(t.app, surveyId, org.id, { rate: 100 });
    expect((await respond(fu.token, surveyId)).statusCode).toBe(200);
    const res = await patch(surveyId, fu.id, { rate: 250 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ msg: ApiMsg.memberUpdated, member: { _id: fu.id, rate: 250, bankChangedAt: null } });
    expect((await respond(fu.token, surveyId)).statusCode).toBe(200);
    const rates = await k().selectFrom('responses').select('rate').where('member_id', '=', fu.id).orderBy('created_at').orderBy('id').execute();
    expect(rates.map((r) => Number(r.rate)).sort()).toEqual([100, 250]);
    const events = await auditOf(fu.id);
    expect(events.map((e) => [e.action, JSON.parse(e.before!), JSON.parse(e.after!)])).toEqual([[AuditAction.changeRate, { rate: 100 }, { rate: 250 }]]);
  });

  it('a bank change is audited and mailed (last 4 digits only); a payout keeps the details it was made with; a payout within 24 h warns', async () => {
    const survey = { id: (await createSurvey(t.app, org.id)).id, organizationId: org.id };
    const fu = await addMember(t.app, survey.id, org.id, { rate: 100, fullName: 'Ada Obi' });
    expect((await respond(fu.token, survey.id)).statusCode).toBe(200);
    const first = await send('POST', '/payouts', { survey_id: survey.id, key: randomUUID() });
    expect(first.statusCode, first.body).toBe(200);
    const firstId = first.json<{ payout: { _id: string } }>().payout._id;

    const res = await patch(survey.id, fu.id, { bank: 'GTBank', accountNumber: '0987654321', accountName: 'Ada Obi-Okafor', phoneNumber: '08039998888' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ member: { bankChangedAt: string | null } }>().member.bankChangedAt).not.toBeNull();
    // One request, two kinds of change: one event each (same millisecond, so in action order here).
    const events = (await auditOf(fu.id)).sort((x, y) => x.action.localeCompare(y.action));
    expect(events.map((e) => e.action)).toEqual([AuditAction.changeBank, AuditAction.updateMember]);
    expect(JSON.parse(events[0]!.before!)).toEqual({ bank: 'Zenith Bank', accountNumber: '0123456789', accountName: 'Ada Obi' });
    expect(JSON.parse(events[0]!.after!)).toEqual({ bank: 'GTBank', accountNumber: '0987654321', accountName: 'Ada Obi-Okafor' });
    expect(JSON.parse(events[1]!.after!)).toEqual({ phoneNumber: '08039998888' });
    const mail = await lastMail(t.app, fu.email);
    expect(mail?.subject).toBe('Survey Bird: your bank details were changed');
    expect(mail?.text).toContain('4321');
    expect(mail?.text).not.toContain('0987654321');

    // The first payout froze the old details: it still pays them, with no warning.
    const frozen = (await send('GET', `/payouts/${firstId}`)).json<{ lines: { bank: string; accountNumber: string; accountName: string; recentBankChange?: string | null }[] }>();
    expect(frozen.lines).toEqual([expect.objectContaining({ bank: 'Zenith Bank', accountNumber: '0123456789', accountName: 'Ada Obi' })]);
    expect(frozen.lines[0]!.recentBankChange).toBeUndefined();

    // A payout made now (within 24 h of the change) pays the new details and warns on that line.
    expect((await respond(fu.token, survey.id)).statusCode).toBe(200);
    const second = await send('POST', '/payouts', { survey_id: survey.id, key: randomUUID() });
    const line = second.json<{ payout: { lines: { accountNumber: string; recentBankChange?: string | null }[] } }>().payout.lines[0]!;
    expect(line.accountNumber).toBe('0987654321');
    expect(line.recentBankChange).toBeTruthy();

    // Later changes never reach a payout already made.
    await patch(survey.id, fu.id, { accountNumber: '1111111111' });
    const again = (await send('GET', `/payouts/${firstId}`)).json<{ lines: { accountNumber: string }[] }>();
    expect(again.lines[0]!.accountNumber).toBe('0123456789');
  });

  it('changing the supervisor, and saving what is already there records nothing', async () => {
    const { id: surveyId } = await createSurvey(t.app, org.id);
    const sup = await addMember(t.app, surveyId, org.id, { role: Role.supervisor });
    const fu = await addMember(t.app, surveyId, org.id, { rate: 100 });
    expect((await patch(surveyId, fu.id, { supervisorId: sup.id })).json()).toMatchObject({ member: { supervisorId: sup.id } });
    expect((await patch(surveyId, fu.id, { supervisorId: sup.id, rate: 100 })).statusCode).toBe(200);
    expect((await auditOf(fu.id)).map((e) => e.action)).toEqual([AuditAction.updateMember]);
    expect((await patch(surveyId, fu.id, { supervisorId: null })).json()).toMatchObject({ member: { supervisorId: null } });
  });
});

describe('POST /supervisor/assign/bulk', () => {
  it('moves a selection to one supervisor, one audit event per field user moved; refuses ids of another survey', async () => {
    const { id: surveyId } = await createSurvey(t.app, org.id);
    const sup = await addMember(t.app, surveyId, org.id, { role: Role.supervisor });
    const fus = await Promise.all([0, 1, 2].map(() => addMember(t.app, surveyId, org.id, {})));
    const res = await send('POST', '/supervisor/assign/bulk', { survey_id: surveyId, supervisorId: sup.id, fieldUserIds: fus.map((f) => f.id) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ msg: ApiMsg.fieldUsersReassigned, assigned: 3 });
    const rows = await k().selectFrom('members').select('supervisor_id').where('id', 'in', fus.map((f) => f.id)).execute();
    expect(rows.map((r) => r.supervisor_id)).toEqual([sup.id, sup.id, sup.id]);
    const events = await k().selectFrom('audit_events').select('target_id').where('action', '=', AuditAction.assignSupervisor).where('survey_id', '=', surveyId).execute();
    expect(events.map((e) => e.target_id).sort()).toEqual(fus.map((f) => f.id).sort());

    const elsewhere = await addMember(t.app, (await createSurvey(t.app, org.id)).id, org.id, {});
    const refused = await send('POST', '/supervisor/assign/bulk', { survey_id: surveyId, supervisorId: sup.id, fieldUserIds: [fus[0]!.id, elsewhere.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ msg: string }>().msg).toBe(ApiMsg.notFieldUsersOfSurvey);
  });
});

describe('deactivate and reactivate a person across the organization', () => {
  it('takes every survey (responses and money stay), lists them, and gives back exactly those with their supervisor', async () => {
    const s1 = await createSurvey(t.app, org.id, { title: 'One' });
    const s2 = await createSurvey(t.app, org.id, { title: 'Two' });
    const s3 = await createSurvey(t.app, org.id, { title: 'Withdrawn before' });
    const sup = await addMember(t.app, s1.id, org.id, { role: Role.supervisor });
    const email = `person-${randomUUID().slice(0, 6)}@team.ng`;
    const a = await addMember(t.app, s1.id, org.id, { email, supervisorId: sup.id, rate: 100 });
    await addMember(t.app, s2.id, org.id, { email, rate: 100 });
    const c = await addMember(t.app, s3.id, org.id, { email, rate: 100 });
    await send('DELETE' as 'POST', `/member/${s3.id}/${c.id}`);
    expect((await respond(a.token, s1.id)).statusCode).toBe(200);

    const res = await send('POST', '/person/deactivate', { email });
    expect(res.json()).toMatchObject({ msg: ApiMsg.personDeactivated, surveys: 2 });
    expect((await send('GET', '/survey/field-user', undefined, a.token)).json<{ survey: unknown[] }>().survey).toEqual([]);
    expect((await respond(a.token, s1.id)).statusCode).toBe(403);
    expect(await k().selectFrom('responses').select('id').where('member_id', '=', a.id).execute()).toHaveLength(1);
    const listed = (await send('GET', '/person/deactivated')).json<{ people: { email: string; surveys: number }[] }>();
    expect(listed.people).toContainEqual(expect.objectContaining({ email, surveys: 2 }));
    expect((await send('GET', '/person/deactivated', undefined, other.token)).json<{ people: unknown[] }>().people).toEqual([]);
    // Again: nothing left to deactivate, same answer shape.
    expect((await send('POST', '/person/deactivate', { email })).json()).toMatchObject({ msg: ApiMsg.personDeactivated, surveys: 0 });
    expect((await send('POST', '/person/deactivate', { email }, other.token)).statusCode).toBe(404);

    expect((await send('POST', '/person/reactivate', { email })).json()).toMatchObject({ msg: ApiMsg.personReactivated, surveys: 2 });
    const rows = await k().selectFrom('members').select(['survey_id', 'withdrawn_at', 'supervisor_id', 'deactivated_at']).where('email', '=', email).execute();
    const bySurvey = new Map(rows.map((r) => [r.survey_id, r]));
    expect(bySurvey.get(s1.id)).toMatchObject({ withdrawn_at: null, supervisor_id: sup.id, deactivated_at: null });
    expect(bySurvey.get(s2.id)).toMatchObject({ withdrawn_at: null, deactivated_at: null });
    expect(bySurvey.get(s3.id)?.withdrawn_at).not.toBeNull();
    expect((await respond(a.token, s1.id)).statusCode).toBe(200);
    const actions = (await k().selectFrom('audit_events').select('action').where('target_label', '=', email).where('organization_id', '=', org.id).execute()).map((e) => e.action);
    expect(actions.filter((x) => x === AuditAction.deactivatePerson || x === AuditAction.reactivatePerson).sort()).toEqual([AuditAction.deactivatePerson, AuditAction.reactivatePerson]);
  });
});

describe('a field user\'s own bank details and change requests', () => {
  it('shows them masked but for the last 4 digits; a request waits for the office, which approves (audited, mailed) or rejects it', async () => {
    const { id: surveyId } = await createSurvey(t.app, org.id, { title: 'Banked' });
    const fu = await addMember(t.app, surveyId, org.id, { rate: 100, fullName: 'Kemi Ade' });
    const mine = await send('GET', '/me/bank', undefined, fu.token);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json<{ banks: unknown[] }>().banks).toEqual([{ survey_id: surveyId, surveyTitle: 'Banked', organizationName: 'People Org', current: { bank: 'Zenith Bank', accountNumber: '••••••6789', accountName: 'Kemi Ade' }, pending: null, lastDecision: null }]);
    expect(mine.body).not.toContain('0123456789');

    const bad = await send('POST', '/me/bank', { survey_id: surveyId, bank: 'GTBank', accountNumber: '123', accountName: 'Kemi Ade' }, fu.token);
    expect([bad.statusCode, bad.json<{ msg: string }>().msg]).toEqual([400, ApiMsg.invalidAccountNumber]);
    const first = await send('POST', '/me/bank', { survey_id: surveyId, bank: 'GTBank', accountNumber: '1111111111', accountName: 'Kemi Ade' }, fu.token);
    expect(first.json()).toMatchObject({ msg: ApiMsg.bankChangeRequested });
    await send('POST', '/me/bank', { survey_id: surveyId, bank: 'GTBank', accountNumber: '2222222222', accountName: 'Kemi Ade' }, fu.token);
    const pending = (await send('GET', '/me/bank', undefined, fu.token)).json<{ banks: { current: { accountNumber: string }; pending: { accountNumber: string } | null }[] }>().banks[0]!;
    expect([pending.current.accountNumber, pending.pending?.accountNumber]).toEqual(['••••••6789', '••••••2222']);
    // Nothing changed yet; the office sees one request (the newer replaced the first), in full.
    expect((await k().selectFrom('members').select('account_number').where('id', '=', fu.id).executeTakeFirstOrThrow()).account_number).toBe('0123456789');
    const list = (await send('GET', '/bank-change')).json<{ requests: { _id: string; memberId: string; requested: { accountNumber: string } }[] }>().requests.filter((r) => r.memberId === fu.id);
    expect(list.map((r) => r.requested.accountNumber)).toEqual(['2222222222']);
    expect((await send('GET', '/bank-change', undefined, other.token)).json<{ requests: unknown[] }>().requests).toEqual([]);
    expect((await send('POST', `/bank-change/${list[0]!._id}/approve`, undefined, other.token)).statusCode).toBe(404);

    expect((await send('POST', `/bank-change/${list[0]!._id}/approve`)).json()).toMatchObject({ msg: ApiMsg.bankChangeApproved });
    const member = await k().selectFrom('members').select(['bank', 'account_number', 'bank_changed_at']).where('id', '=', fu.id).executeTakeFirstOrThrow();
    expect(member).toMatchObject({ bank: 'GTBank', account_number: '2222222222' });
    expect(member.bank_changed_at).not.toBeNull();
    expect((await lastMail(t.app, fu.email))?.subject).toBe('Survey Bird: your bank details were changed');
    expect((await send('POST', `/bank-change/${list[0]!._id}/approve`)).statusCode).toBe(404);
    const actions = (await k().selectFrom('audit_events').select('action').where('survey_id', '=', surveyId).execute()).map((e) => e.action).sort();
    expect(actions).toEqual([AuditAction.approveBankChange, AuditAction.changeBank, AuditAction.requestBankChange, AuditAction.requestBankChange].sort());

    await send('POST', '/me/bank', { survey_id: surveyId, bank: 'UBA', accountNumber: '3333333333', accountName: 'Kemi Ade' }, fu.token);
    const third = (await send('GET', '/bank-change')).json<{ requests: { _id: string; memberId: string }[] }>().requests.find((r) => r.memberId === fu.id)!;
    type Mine = { banks: { pending: unknown; lastDecision: { status: string; reason: string; accountNumber: string } | null }[] };
    expect((await send('GET', '/me/bank', undefined, fu.token)).json<Mine>().banks[0]!.lastDecision).toMatchObject({ status: 'approved', reason: '', accountNumber: '••••••2222' });
    const tooLong = await send('POST', `/bank-change/${third._id}/reject`, { reason: 'x'.repeat(301) });
    expect([tooLong.statusCode, tooLong.json<{ msg: string }>().msg]).toEqual([400, 'Reason is too long (max 300)']);
    expect((await send('POST', `/bank-change/${third._id}/reject`, { reason: 'The account name is not yours' })).json()).toMatchObject({ msg: ApiMsg.bankChangeRejected });
    expect((await k().selectFrom('members').select('account_number').where('id', '=', fu.id).executeTakeFirstOrThrow()).account_number).toBe('2222222222');
    // The field user sees the refusal and its reason, and is mailed it.
    const after = (await send('GET', '/me/bank', undefined, fu.token)).json<Mine>().banks[0]!;
    expect([after.pending, after.lastDecision]).toEqual([null, expect.objectContaining({ status: 'rejected', reason: 'The account name is not yours', accountNumber: '••••••3333' })]);
    const mail = await lastMail(t.app, fu.email);
    expect([mail?.subject, mail?.text]).toEqual(['Survey Bird: your bank change request was not approved', expect.stringContaining('The account name is not yours')]);
    const rejected = await k().selectFrom('audit_events').select(['action', 'after']).where('target_id', '=', third._id).where('action', '=', AuditAction.rejectBankChange).executeTakeFirstOrThrow();
    expect(rejected.action).toBe(AuditAction.rejectBankChange);
    expect(String(rejected.after)).toContain('The account name is not yours');
  });
});
