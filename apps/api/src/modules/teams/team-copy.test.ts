import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiMsg, AuditAction, type CopyTeamReply, type InviteToSurveysReply, OfficeRole, Role } from '@survey-bird/contracts';
import { buildTestApp, call, lastMail, type TestApp } from '../../../test/helpers.js';
import { addMember, addOfficeUser, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { MailQueue } from '../mail/mail-queue.js';
import { BankChangesRepository } from './bank-changes-repository.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Copy Org');
  other = await createOrganization(t.app, 'Other Org');
});
afterAll(() => t.close());

const k = () => t.app.db.kysely;
const send = (method: 'GET' | 'POST', url: string, payload?: object, token: string | null = org.token) => call(t.app, token, { method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });
const person = (email: string) => ({ fullName: 'Bola Many', email, phoneNumber: '08035550000', bank: 'GTBank', accountNumber: '0011223344', accountName: 'Bola Many', rate: 120 });
const invitesOf = (surveyId: string) => k().selectFrom('audit_events').select(['target_label']).where('survey_id', '=', surveyId).where('action', '=', AuditAction.inviteMember).execute();

describe('POST /team/invite: one person, several surveys', () => {
  it('invites to each survey, names the ones the person is already on, and mails each invitation; a survey out of reach invites nobody', async () => {
    const [s1, s2, s3] = [await createSurvey(t.app, org.id, { title: 'North' }), await createSurvey(t.app, org.id, { title: 'South' }), await createSurvey(t.app, org.id, { title: 'East' })];
    const foreign = await createSurvey(t.app, other.id, { title: 'Theirs' });
    const email = `many-${randomUUID().slice(0, 6)}@team.ng`;
    await addMember(t.app, s3.id, org.id, { email, registered: false });
    expect((await send('POST', '/team/invite', { role: 'field_user', surveyIds: [s1.id, foreign.id], ...person(email) })).statusCode).toBe(404);
    expect(await k().selectFrom('members').select('id').where('email', '=', email).where('survey_id', '=', s1.id).execute()).toEqual([]);
    const res = await send('POST', '/team/invite', { role: 'field_user', surveyIds: [s1.id, s2.id, s3.id, s1.id], ...person(email) });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json<InviteToSurveysReply>();
    expect(reply.invited).toBe(2);
    expect(reply.results.map((r) => [r.surveyTitle, r.status])).toEqual([['North', 'new'], ['South', 'new'], ['East', 'existing']]);
    expect(reply.results[2]).toMatchObject({ survey_id: s3.id, msg: ApiMsg.alreadyInvited });
    const rows = await k().selectFrom('members').select(['survey_id', 'rate', 'account_number']).where('email', '=', email).execute();
    expect(rows.filter((r) => r.survey_id !== s3.id).map((r) => [r.rate, r.account_number])).toEqual([[120, '0011223344'], [120, '0011223344']]);
    expect((await invitesOf(s1.id)).map((e) => e.target_label)).toEqual([email]);
    await t.app.mailer.idle();
    const mails = await k().selectFrom('mail_outbox').select(['subject', 'text']).where('to_email', '=', email).execute();
    expect(mails.map((m) => m.text.match(/survey "(\w+)"/)?.[1]).sort()).toEqual(['North', 'South']);
    expect(await k().selectFrom('mail_queue').selectAll().execute()).toEqual([]);
  });

  it('checks the person as the invitation form does, and keeps a survey-limited office user to their surveys', async () => {
    const [s1, s2] = [await createSurvey(t.app, org.id), await createSurvey(t.app, org.id)];
    const bad = await send('POST', '/team/invite', { role: 'supervisor', surveyIds: [s1.id], ...person('sup@team.ng'), accountNumber: '' });
    expect([bad.statusCode, bad.json<{ msg: string }>().msg]).toEqual([400, ApiMsg.invalidAccountNumber]);
    const none = await send('POST', '/team/invite', { role: 'field_user', surveyIds: [], ...person('x@team.ng') });
    expect([none.statusCode, none.json<{ msg: string }>().msg]).toEqual([400, 'Choose at least one survey']);
    const limited = await addOfficeUser(t.app, org.id, OfficeRole.admin, [s1.id]);
    const email = `lim-${randomUUID().slice(0, 6)}@team.ng`;
    expect((await send('POST', '/team/invite', { role: 'field_user', surveyIds: [s1.id, s2.id], ...person(email) }, limited.token)).statusCode).toBe(404);
    const reply = (await send('POST', '/team/invite', { role: 'field_user', surveyIds: [s1.id], ...person(email) }, limited.token)).json<InviteToSurveysReply>();
    expect(reply.results.map((r) => r.status)).toEqual(['new']);
    const analyst = await addOfficeUser(t.app, org.id, OfficeRole.analyst);
    expect((await send('POST', '/team/invite', { role: 'field_user', surveyIds: [s1.id], ...person(email) }, analyst.token)).statusCode).toBe(403);
  });
});

describe('POST /team/copy', () => {
  it('previews without writing, then invites the active team with rates, bank details and supervisors; a second copy invites nobody', async () => {
    const from = await createSurvey(t.app, org.id, { title: 'Round 1' });
    const to = await createSurvey(t.app, org.id, { title: 'Round 2' });
    const tag = randomUUID().slice(0, 6);
    const sup1 = await addMember(t.app, from.id, org.id, { role: Role.supervisor, email: `sup1-${tag}@team.ng`, registered: false });
    const sup2 = await addMember(t.app, from.id, org.id, { role: Role.supervisor, email: `sup2-${tag}@team.ng`, registered: false });
    const fus: Awaited<ReturnType<typeof addMember>>[] = [];
    for (const [i, supervisorId] of [sup1.id, sup1.id, sup2.id, null].entries()) fus.push(await addMember(t.app, from.id, org.id, { email: `fu${i}-${tag}@team.ng`, rate: 100 + i, supervisorId, registered: false }));
    const gone = await addMember(t.app, from.id, org.id, { email: `gone-${tag}@team.ng`, registered: false });
    await k().updateTable('members').set({ withdrawn_at: Date.now() }).where('id', '=', gone.id).execute();
    // Already on the target: one as the same role, one as the other role.
    await addMember(t.app, to.id, org.id, { email: fus[3]!.email, registered: false });
    await addMember(t.app, to.id, org.id, { role: Role.supervisor, email: fus[2]!.email, registered: false });

    const copy = (body: object, token = org.token) => send('POST', '/team/copy', { fromSurveyId: from.id, toSurveyId: to.id, ...body }, token);
    const preview = await copy({ dryRun: true });
    expect(preview.statusCode, preview.body).toBe(200);
    const planned = preview.json<CopyTeamReply>();
    expect(planned).toMatchObject({ dryRun: true, invited: 0 });
    expect(planned.rows.map((r) => [r.email.split('-')[0], r.role, r.status]).sort((x, y) => (x[1] === y[1] ? x[0]!.localeCompare(y[0]!) : 0))).toEqual([
      ['sup1', Role.supervisor, 'new'], ['sup2', Role.supervisor, 'new'],
      ['fu0', Role.fieldUser, 'new'], ['fu1', Role.fieldUser, 'new'], ['fu2', Role.fieldUser, 'error'], ['fu3', Role.fieldUser, 'existing'],
    ]);
    expect(planned.rows.find((r) => r.email === fus[2]!.email)?.msg).toBe(ApiMsg.emailHasOtherRole);
    expect((await k().selectFrom('members').select('id').where('survey_id', '=', to.id).execute()).length).toBe(2);

    const done = (await copy({})).json<CopyTeamReply>();
    expect([done.dryRun, done.invited]).toEqual([false, 4]);
    const target = await k().selectFrom('members').select(['id', 'email', 'role', 'rate', 'account_number', 'supervisor_id']).where('survey_id', '=', to.id).where('withdrawn_at', 'is', null).execute();
    const byEmail = new Map(target.map((m) => [m.email, m]));
    expect(byEmail.has(gone.email)).toBe(false);
    expect(byEmail.get(fus[0]!.email)).toMatchObject({ role: Role.fieldUser, rate: 100, account_number: '0123456789', supervisor_id: byEmail.get(sup1.email)!.id });
    expect(byEmail.get(fus[1]!.email)).toMatchObject({ rate: 101, supervisor_id: byEmail.get(sup1.email)!.id });
    expect(byEmail.get(fus[2]!.email)?.role).toBe(Role.supervisor);
    expect((await invitesOf(to.id)).length).toBe(4);
    expect((await lastMail(t.app, fus[0]!.email))?.text).toContain('survey "Round 2"');

    const again = (await copy({})).json<CopyTeamReply>();
    expect(again.invited).toBe(0);
    expect(again.rows.filter((r) => r.status === 'new')).toEqual([]);
    expect((await invitesOf(to.id)).length).toBe(4);
  });

  it('refuses the same survey, another organization\'s survey and a read-only office role', async () => {
    const from = await createSurvey(t.app, org.id);
    const foreign = await createSurvey(t.app, other.id);
    const same = await send('POST', '/team/copy', { fromSurveyId: from.id, toSurveyId: from.id });
    expect([same.statusCode, same.json<{ msg: string }>().msg]).toEqual([400, ApiMsg.copyToSameSurvey]);
    expect((await send('POST', '/team/copy', { fromSurveyId: from.id, toSurveyId: foreign.id })).statusCode).toBe(404);
    expect((await send('POST', '/team/copy', { fromSurveyId: foreign.id, toSurveyId: from.id })).statusCode).toBe(404);
    const analyst = await addOfficeUser(t.app, org.id, OfficeRole.analyst);
    expect((await send('POST', '/team/copy', { fromSurveyId: from.id, toSurveyId: (await createSurvey(t.app, org.id)).id }, analyst.token)).statusCode).toBe(403);
  });
});

describe('the mail queue', () => {
  it('holds invitations committed with their rows until the worker sends them (nothing kept in memory), and retries a failure later', async () => {
    const s1 = await createSurvey(t.app, org.id, { title: 'Queued' });
    const kick = vi.spyOn(t.app.services.mailQueue, 'kick').mockImplementation(() => undefined);
    const email = `queued-${randomUUID().slice(0, 6)}@team.ng`;
    try {
      expect((await send('POST', '/team/invite', { role: 'field_user', surveyIds: [s1.id], ...person(email) })).statusCode).toBe(200);
      await t.app.mailer.idle();
      const queued = await k().selectFrom('mail_queue').selectAll().execute();
      expect(queued.map((q) => q.kind)).toEqual(['invitation']);
      // What renders the mail, never its link (derived when it is sent).
      expect(queued[0]!.payload).not.toContain('invite=');
      expect(await lastMail(t.app, email)).toBeUndefined();
    } finally {
      kick.mockRestore();
    }
    await MailQueue.enqueue(k(), 'no_such_kind', {});
    expect(await t.app.services.mailQueue.sendDue()).toBe(1);
    expect((await lastMail(t.app, email))?.link).toContain('invite=');
    const [failed] = await k().selectFrom('mail_queue').selectAll().execute();
    expect(failed).toMatchObject({ kind: 'no_such_kind', attempts: 1, last_error: 'no renderer for mail kind no_such_kind' });
    expect(Number(failed!.next_attempt_at)).toBeGreaterThan(Date.now() + 20_000);
    expect(await t.app.services.mailQueue.sendDue()).toBe(0);
    await k().deleteFrom('mail_queue').execute();
  });
});

describe('bank change approval', () => {
  it('is one transaction: a request decided meanwhile leaves the details, the audit log and the mail queue as they were', async () => {
    const survey = await createSurvey(t.app, org.id);
    const fu = await addMember(t.app, survey.id, org.id, { rate: 100 });
    expect((await send('POST', '/me/bank', { survey_id: survey.id, bank: 'UBA', accountNumber: '5555555555', accountName: 'Field Person' }, fu.token)).statusCode).toBe(200);
    const request = (await send('GET', '/bank-change')).json<{ requests: { _id: string; memberId: string }[] }>().requests.find((r) => r.memberId === fu.id)!;
    // Another office user decides it between the read and the write.
    const decide = vi.spyOn(BankChangesRepository.prototype, 'decide').mockResolvedValueOnce(undefined);
    try {
      const res = await send('POST', `/bank-change/${request._id}/approve`);
      expect([res.statusCode, res.json<{ msg: string }>().msg]).toEqual([404, ApiMsg.bankChangeNotFound]);
    } finally {
      decide.mockRestore();
    }
    expect(await k().selectFrom('members').select(['account_number', 'bank_changed_at']).where('id', '=', fu.id).executeTakeFirstOrThrow()).toEqual({ account_number: '0123456789', bank_changed_at: null });
    expect(await k().selectFrom('audit_events').select('action').where('target_id', '=', fu.id).execute()).toEqual([]);
    expect(await k().selectFrom('mail_queue').selectAll().execute()).toEqual([]);
    // Approved for real: the details, both events and the mail together.
    expect((await send('POST', `/bank-change/${request._id}/approve`)).statusCode).toBe(200);
    expect((await k().selectFrom('members').select('account_number').where('id', '=', fu.id).executeTakeFirstOrThrow()).account_number).toBe('5555555555');
    expect((await lastMail(t.app, fu.email))?.text).toContain('account ••••••5555');
    const actions = (await k().selectFrom('audit_events').select('action').where('survey_id', '=', survey.id).execute()).map((e) => e.action).sort();
    expect(actions).toEqual([AuditAction.approveBankChange, AuditAction.changeBank, AuditAction.requestBankChange].sort());
  });
});
