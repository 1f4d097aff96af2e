import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, AuditAction, type BulkInviteReply, Limits, Role } from '@survey-bird/contracts';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { readCsv } from './bulk-file.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Bulk Org');
  other = await createOrganization(t.app, 'Other Org');
});
afterAll(() => t.close());

const k = () => t.app.db.kysely;
const HEAD = 'Full name,Email,Phone number,Bank,Account number,Account name,Rate,Supervisor email';

function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer; type?: string }) {
  const boundary = `----sb${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'text/csv'}\r\n\r\n`), file.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function upload(surveyId: string, data: Buffer | string, opts: { dryRun?: boolean; role?: 'field-user' | 'supervisor'; token?: string; name?: string } = {}) {
  const body = multipart({ survey_id: surveyId }, { name: opts.name ?? 'people.csv', data: Buffer.isBuffer(data) ? data : Buffer.from(data) });
  return call(t.app, opts.token ?? org.token, { method: 'POST', url: `/api/v1/${opts.role ?? 'field-user'}/bulk${opts.dryRun ? '?dryRun=true' : ''}`, payload: body.payload, headers: body.headers });
}

/** 50 people; rows 11, 26 and 41 (file rows 12, 27, 42) are broken in three different ways. */
function fiftyRows(tag: string): string {
  const lines = [HEAD];
  for (let i = 0; i < 50; i++) {
    let row = [`Person ${i} ${tag}`, `p${i}.${tag}@team.ng`, '08031234567', 'Zenith Bank', '0123456789', `Person ${i}`, '150', ''];
    if (i === 10) row = [...row.slice(0, 4), '12345', ...row.slice(5)];
    if (i === 25) row = [...row.slice(0, 1), 'not-an-email', ...row.slice(2)];
    if (i === 40) row = ['Al', ...row.slice(1, 6), 'lots', ''];
    lines.push(row.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

const counts = async (surveyId: string) => ({
  members: (await k().selectFrom('members').select('id').where('survey_id', '=', surveyId).execute()).length,
  events: (await k().selectFrom('audit_events').select('id').where('survey_id', '=', surveyId).where('action', '=', AuditAction.inviteMember).execute()).length,
});

describe('POST /field-user/bulk', () => {
  it('previews every row and writes nothing; then commits the 47 good rows of 50 and names the 3 bad ones; the same file again invites nobody twice', async () => {
    const { id: surveyId } = await createSurvey(t.app, org.id);
    const file = fiftyRows('a');
    const mailsBefore = (await k().selectFrom('mail_outbox').select('id').execute()).length;

    const preview = await upload(surveyId, file, { dryRun: true });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json<BulkInviteReply>();
    expect(p.dryRun).toBe(true);
    expect(p.rows).toHaveLength(50);
    expect(p.rows.filter((r) => r.status === 'new')).toHaveLength(47);
    expect(p.rows.filter((r) => r.status === 'error')).toEqual([
      { row: 12, status: 'error', email: 'p10.a@team.ng', fullName: 'Person 10 a', errors: [{ column: 'Account number', msg: ApiMsg.invalidAccountNumber }] },
      { row: 27, status: 'error', email: 'not-an-email', fullName: 'Person 25 a', errors: [{ column: 'Email', msg: ApiMsg.invalidEmail }] },
      { row: 42, status: 'error', email: 'p40.a@team.ng', fullName: 'Al', errors: [{ column: 'Full name', msg: ApiMsg.fullNameShort }, { column: 'Rate', msg: 'Rate must be a whole number of naira' }] },
    ]);
    expect(await counts(surveyId)).toEqual({ members: 0, events: 0 });

    const commit = await upload(surveyId, file);
    expect(commit.statusCode, commit.body).toBe(200);
    const c = commit.json<BulkInviteReply>();
    expect(c.invited).toBe(47);
    expect(c.rows.filter((r) => r.status === 'error').map((r) => r.row)).toEqual([12, 27, 42]);
    expect(await counts(surveyId)).toEqual({ members: 47, events: 47 });
    await t.app.mailer.idle();
    expect((await k().selectFrom('mail_outbox').select('id').execute()).length - mailsBefore).toBe(47);
    const ada = await k().selectFrom('members').selectAll().where('email', '=', 'p0.a@team.ng').executeTakeFirstOrThrow();
    expect(ada).toMatchObject({ role: Role.fieldUser, full_name: 'Person 0 a', rate: 150, account_number: '0123456789', organization_id: org.id });

    const again = await upload(surveyId, file);
    const a = again.json<BulkInviteReply>();
    expect(a.invited).toBe(0);
    expect(a.rows.filter((r) => r.status === 'existing')).toHaveLength(47);
    expect(await counts(surveyId)).toEqual({ members: 47, events: 47 });
    await t.app.mailer.idle();
    expect((await k().selectFrom('mail_outbox').select('id').execute()).length - mailsBefore).toBe(47);
  });

  it('reads an xlsx, links supervisors by e-mail, and flags duplicates, unknown supervisors and e-mails of another role', async () => {
    const { id: surveyId } = await createSurvey(t.app, org.id);
    const sup = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, email: `sup-${randomUUID().slice(0, 6)}@team.ng` });
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('People');
    sheet.addRow(HEAD.split(','));
    sheet.addRow(['Bola Ade', 'bola@team.ng', '08031234567', 'GTBank', '0123456789', 'Bola Ade', 200, sup.email]);
    sheet.addRow(['Bola Again', 'BOLA@team.ng', '08031234567', '', '', '', 0, '']);
    sheet.addRow(['Chi Eze', 'chi@team.ng', '08031234567', '', '', '', 0, 'nobody@team.ng']);
    sheet.addRow(['Sam Sup', sup.email, '08031234567', '', '', '', 0, '']);
    const data = Buffer.from(await book.xlsx.writeBuffer());
    const res = await upload(surveyId, data, { name: 'people.xlsx' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<BulkInviteReply>().rows;
    expect(rows.map((r) => [r.row, r.status, r.errors.map((e) => e.column)])).toEqual([
      [2, 'new', []],
      [3, 'error', ['Email']],
      [4, 'error', ['Supervisor email']],
      [5, 'error', ['Email']],
    ]);
    expect(rows[1]!.errors[0]!.msg).toBe(`${ApiMsg.bulkDuplicateRow} 2`);
    expect(rows[3]!.errors[0]!.msg).toBe(ApiMsg.emailHasOtherRole);
    const bola = await k().selectFrom('members').select(['supervisor_id', 'rate', 'bank']).where('email', '=', 'bola@team.ng').where('survey_id', '=', surveyId).executeTakeFirstOrThrow();
    expect(bola).toEqual({ supervisor_id: sup.id, rate: 200, bank: 'GTBank' });
  });

  it('bounds the upload and answers bad files in plain words', async () => {
    const { id: surveyId } = await createSurvey(t.app, org.id);
    const msg = (res: { json: <T>() => T }) => res.json<{ msg: string }>().msg;
    const many = [HEAD, ...Array.from({ length: Limits.maxBulkInviteRows + 1 }, (_, i) => `P ${i},x${i}@t.ng,0803,,,,0,`)].join('\n');
    const tooMany = await upload(surveyId, many);
    expect([tooMany.statusCode, msg(tooMany)]).toEqual([413, ApiMsg.bulkTooManyRows]);
    const huge = await upload(surveyId, Buffer.alloc(Limits.maxBulkInviteBytes + 10, 'a'));
    expect([huge.statusCode, msg(huge)]).toEqual([413, ApiMsg.bulkFileTooLarge]);
    const noColumn = await upload(surveyId, 'Full name,Phone number\nAda Obi,0803\n');
    expect([noColumn.statusCode, msg(noColumn)]).toEqual([400, `${ApiMsg.bulkMissingColumn} "Email"`]);
    const empty = await upload(surveyId, `${HEAD}\n`);
    expect([empty.statusCode, msg(empty)]).toEqual([400, ApiMsg.bulkEmpty]);
    const notXlsx = await upload(surveyId, Buffer.from('504b0304deadbeef', 'hex'), { name: 'x.xlsx' });
    expect([notXlsx.statusCode, msg(notXlsx)]).toEqual([415, ApiMsg.bulkNotReadable]);
    const noFile = multipart({ survey_id: surveyId });
    const missing = await call(t.app, org.token, { method: 'POST', url: '/api/v1/field-user/bulk', payload: noFile.payload, headers: noFile.headers });
    expect([missing.statusCode, msg(missing)]).toEqual([400, ApiMsg.bulkFileMissing]);
    // Another organization's survey is not found, and nothing is written to it.
    const foreign = await upload(surveyId, fiftyRows('f'), { token: other.token });
    expect(foreign.statusCode).toBe(404);
    expect(await counts(surveyId)).toEqual({ members: 0, events: 0 });
  });
});

describe('POST /supervisor/bulk and the template', () => {
  it('invites supervisors (account details required) and serves the CSV template', async () => {
    const { id: surveyId } = await createSurvey(t.app, org.id);
    const csv = 'Full name,Email,Phone number,Bank,Account number,Account name\nSade Sup,sade@team.ng,0803,Zenith Bank,0123456789,Sade\n"Obi, Jr",obi@team.ng,0803,,,\n';
    const res = await upload(surveyId, csv, { role: 'supervisor' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<BulkInviteReply>().rows;
    expect(rows.map((r) => r.status)).toEqual(['new', 'error']);
    expect(rows[1]!.errors).toEqual([{ column: 'Account number', msg: ApiMsg.invalidAccountNumber }, { column: 'Account name', msg: ApiMsg.provideAccountName }]);
    expect(rows[1]!.fullName).toBe('Obi, Jr');
    const template = await call(t.app, org.token, { method: 'GET', url: '/api/v1/team/bulk-template?role=field_user' });
    expect(template.headers['content-type']).toContain('text/csv');
    expect(readCsv(template.rawPayload)[0]!.cells).toEqual(HEAD.split(','));
  });

  it('reads CSV the way spreadsheets write it', () => {
    const rows = readCsv(Buffer.from('\ufeffName;Email\r\n"Ada ""A"" Obi";ada@x.ng\r\n\r\n"Line\nbreak";b@x.ng\n'));
    expect(rows).toEqual([
      { number: 1, cells: ['Name', 'Email'] },
      { number: 2, cells: ['Ada "A" Obi', 'ada@x.ng'] },
      { number: 4, cells: ['Line\nbreak', 'b@x.ng'] },
    ]);
  });
});
