import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@survey-bird/contracts';
import { buildTestApp, call, lastMail, type TestApp } from '../../../test/helpers.js';
import { migrateToLatest, migrationProvider } from '../../db/database.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Payroll Org');
  other = await createOrganization(t.app, 'Other Org');
});
afterAll(() => t.close());

const post = (token: string | null, url: string, payload?: object) => call(t.app, token, { method: 'POST', url, ...(payload ? { payload } : {}) });
const get = (token: string | null, url: string) => call(t.app, token, { method: 'GET', url });
const create = (body: object, token = org.token) => post(token, '/api/v1/payouts', body);
const k = () => t.app.db.kysely;

async function team(title: string) {
  const survey = { id: (await createSurvey(t.app, org.id, { title })).id, organizationId: org.id };
  const sup = await addMember(t.app, survey.id, org.id, { role: Role.supervisor, fullName: 'Sup' });
  const ada = await addMember(t.app, survey.id, org.id, { fullName: 'Ada Obi', rate: 100, supervisorId: sup.id });
  const bayo = await addMember(t.app, survey.id, org.id, { fullName: 'Bayo Ade', rate: 250 });
  return { survey, sup, ada, bayo };
}

describe('POST /payouts', () => {
  it('freezes exactly the approved, unpaid responses; skips incomplete bank details; the same key answers the same payout', async () => {
    const { survey, ada, bayo } = await team('Freeze');
    const noBank = await addMember(t.app, survey.id, org.id, { fullName: 'No Bank', rate: 70 });
    await k().updateTable('members').set({ account_number: '12345' }).where('id', '=', noBank.id).execute();
    for (let i = 0; i < 3; i++) await addResponse(t.app, ada, survey, { rate: 100 });
    await addResponse(t.app, ada, survey, { rate: 100, status: 'pending' });
    await addResponse(t.app, ada, survey, { rate: 100, status: 'returned' });
    await addResponse(t.app, ada, survey, { rate: 100, paid: true });
    await addResponse(t.app, bayo, survey, { rate: 250 });
    await addResponse(t.app, noBank, survey, { rate: 70 });
    const key = randomUUID();
    const res = await create({ survey_id: survey.id, key });
    expect(res.statusCode).toBe(200);
    const { payout, skipped } = res.json();
    expect(payout).toMatchObject({ status: 'draft', total: 550, responseCount: 4, fieldUserCount: 2, reference: null, paidAt: null });
    expect(payout.lines).toEqual([
      { fieldUserId: ada.id, fullName: 'Ada Obi', email: ada.email, bank: 'Zenith Bank', bankCode: '057', accountNumber: '0123456789', accountName: 'Ada Obi', amount: 300, responseCount: 3 },
      expect.objectContaining({ fieldUserId: bayo.id, amount: 250, responseCount: 1 }),
    ]);
    expect(skipped).toEqual([{ fieldUserId: noBank.id, fullName: 'No Bank', reason: 'Account number is not 10 digits', amount: 70 }]);

    const again = await create({ survey_id: survey.id, key });
    expect(again.json().payout._id).toBe(payout._id);
    expect(await k().selectFrom('payouts').select('id').where('survey_id', '=', survey.id).execute()).toHaveLength(1);

    const nothing = await create({ survey_id: survey.id, key: randomUUID(), fieldUserIds: [ada.id] });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().msg).toBe('Nothing to pay: no approved, unpaid responses for these field users');
    const skippedOnly = await create({ survey_id: survey.id, key: randomUUID(), fieldUserIds: [noBank.id] });
    expect(skippedOnly.statusCode).toBe(409);
    expect(skippedOnly.json().msg).toMatch(/incomplete bank details/);
    expect((await create({ survey_id: survey.id, key: randomUUID() }, other.token)).statusCode).toBe(404);
    expect((await create({ survey_id: survey.id, key: 'not-a-uuid' })).statusCode).toBe(400);
  });

  it('20 concurrent creates pay each response at most once, and the payouts total the approved total', async () => {
    const { survey, ada, bayo } = await team('Race');
    for (let i = 0; i < 30; i++) await addResponse(t.app, i % 2 ? ada : bayo, survey, { rate: i % 2 ? 100 : 250 });
    const replies = await Promise.all(Array.from({ length: 20 }, () => create({ survey_id: survey.id, key: randomUUID() })));
    const ok = replies.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of replies) expect([200, 409], r.body).toContain(r.statusCode);
    const total = ok.reduce((n, r) => n + (r.json().payout.total as number), 0);
    expect(total).toBe(15 * 100 + 15 * 250);
    const rows = await k().selectFrom('responses').leftJoin('payout_items', 'payout_items.response_id', 'responses.id').select(['responses.id', 'payout_items.payout_id']).where('responses.survey_id', '=', survey.id).execute();
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r.payout_id !== null && ok.some((o) => o.json().payout._id === r.payout_id))).toBe(true);
    const lines = await k().selectFrom('payout_lines').innerJoin('payouts', 'payouts.id', 'payout_lines.payout_id').select(['payout_lines.response_count']).where('payouts.survey_id', '=', survey.id).execute();
    expect(lines.reduce((n, l) => n + Number(l.response_count), 0)).toBe(30);
  });

  it('a payout racing returns of the same responses never holds a response that is no longer approved', async () => {
    const { survey, ada } = await team('Race review');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await addResponse(t.app, ada, survey, { rate: 100 })).id);
    const returns = ids.filter((_, i) => i % 2 === 0).map((id) => post(org.token, '/api/v1/responses/review', { responseIds: [id], status: 'returned', comment: 'Blurred photo' }));
    const [payout, ...reviews] = await Promise.all([create({ survey_id: survey.id, key: randomUUID() }), ...returns]);
    expect(payout.statusCode).toBe(200);
    const held = await k().selectFrom('payout_items').innerJoin('responses', 'responses.id', 'payout_items.response_id')
      .select(['responses.id', 'responses.status']).where('payout_items.payout_id', '=', payout.json().payout._id).execute();
    expect(held.every((r) => r.status === 'approved')).toBe(true);
    const returned = reviews.flatMap((r) => r.json().results as { _id: string; status: number }[]).filter((r) => r.status === 200).map((r) => r._id);
    expect(held.length + returned.length).toBe(30);
    expect(payout.json().payout.total).toBe(held.length * 100);
  });

  it('cancel releases the responses to outstanding, and a new create includes them; paid is idempotent, mails, and cannot be cancelled', async () => {
    const { survey, ada, sup } = await team('Cycle');
    const r1 = await addResponse(t.app, ada, survey, { rate: 100 });
    await addResponse(t.app, ada, survey, { rate: 100 });
    const first = (await create({ survey_id: survey.id, key: randomUUID() })).json().payout;
    const owed = async () => (await get(org.token, `/api/v1/field-user/${survey.id}`)).json().fieldUsers.find((f: { _id: string }) => f._id === ada.id).outstanding;
    expect(await owed()).toBe(200);
    const cancelled = await post(org.token, `/api/v1/payouts/${first._id}/cancel`);
    expect(cancelled.json().payout.status).toBe('cancelled');
    expect((await post(org.token, `/api/v1/payouts/${first._id}/cancel`)).statusCode).toBe(200);
    expect((await post(org.token, `/api/v1/payouts/${first._id}/paid`, { reference: 'X' })).statusCode).toBe(409);
    const second = (await create({ survey_id: survey.id, key: randomUUID() })).json().payout;
    expect(second).toMatchObject({ total: 200, responseCount: 2 });

    // A response in a draft payout cannot change status.
    const inDraft = await post(org.token, '/api/v1/responses/review', { responseIds: [r1.id], status: 'returned', comment: 'x' });
    expect(inDraft.json().results[0].status).toBe(409);

    expect((await post(other.token, `/api/v1/payouts/${second._id}/paid`, { reference: 'X' })).statusCode).toBe(404);
    expect((await post(org.token, `/api/v1/payouts/${second._id}/paid`, { reference: '' })).statusCode).toBe(400);
    const paid = await post(org.token, `/api/v1/payouts/${second._id}/paid`, { reference: 'TRF-001' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().payout).toMatchObject({ status: 'paid', reference: 'TRF-001' });
    expect(paid.json().payout.paidAt).not.toBeNull();
    const mail = await lastMail(t.app, ada.email);
    expect(mail?.text).toMatch(/^You have been paid ₦200 for 2 responses/);
    const mails = await k().selectFrom('mail_outbox').select('id').where('to_email', '=', ada.email).execute();
    expect((await post(org.token, `/api/v1/payouts/${second._id}/paid`, { reference: 'TRF-001' })).statusCode).toBe(200);
    expect(await k().selectFrom('mail_outbox').select('id').where('to_email', '=', ada.email).execute()).toHaveLength(mails.length);
    expect((await post(org.token, `/api/v1/payouts/${second._id}/cancel`)).json().msg).toBe('A paid payout cannot be cancelled');
    expect(await owed()).toBe(0);
    // Paid through its payout: the response row itself is not rewritten.
    expect((await get(org.token, `/api/v1/responses/${r1.id}`)).json().paid).toBe(true);
    expect((await k().selectFrom('responses').select(['paid_at']).where('id', '=', r1.id).executeTakeFirstOrThrow()).paid_at).toBeNull();
    const returnPaid = await post(org.token, '/api/v1/responses/review', { responseIds: [r1.id], status: 'returned', comment: 'x' });
    expect(returnPaid.json().results[0]).toMatchObject({ status: 409, msg: 'This response has been paid; a paid response cannot change status' });

    const list = await get(org.token, `/api/v1/payouts?survey_id=${survey.id}`);
    expect(list.json()).toMatchObject({ totalCount: 2, totals: { draft: 0, paid: 200 } });
    expect(list.json().payouts.map((p: { status: string }) => p.status)).toEqual(['paid', 'cancelled']);
    // The supervisor sees their field user's lines, read-only.
    expect((await get(sup.token, `/api/v1/payouts/${second._id}`)).json().lines.map((l: { fieldUserId: string }) => l.fieldUserId)).toEqual([ada.id]);
    expect((await post(sup.token, `/api/v1/payouts/${second._id}/cancel`)).statusCode).toBe(403);
    expect((await get(other.token, `/api/v1/payouts/${second._id}`)).statusCode).toBe(404);
    expect((await get(other.token, `/api/v1/payouts?survey_id=${survey.id}`)).statusCode).toBe(404);
  });

  it("gives a supervisor only their field users' share, totals included, and nothing once withdrawn", async () => {
    const { survey, ada, bayo, sup } = await team('Shares');
    await addResponse(t.app, ada, survey, { rate: 100 });
    await addResponse(t.app, bayo, survey, { rate: 250 });
    expect((await create({ survey_id: survey.id, key: randomUUID() })).statusCode).toBe(200);
    expect((await get(org.token, `/api/v1/payouts?survey_id=${survey.id}`)).json()).toMatchObject({ totals: { draft: 350, paid: 0 }, payouts: [{ total: 350, fieldUserCount: 2 }] });
    expect((await get(sup.token, `/api/v1/payouts?survey_id=${survey.id}`)).json()).toMatchObject({ totals: { draft: 100, paid: 0 }, payouts: [{ total: 100, fieldUserCount: 1 }] });
    await k().updateTable('members').set({ withdrawn_at: Date.now() }).where('id', '=', sup.id).execute();
    expect((await get(sup.token, `/api/v1/payouts?survey_id=${survey.id}`)).statusCode).toBe(404);
  });

  it('marks a payout paid even when its e-mails cannot be recorded (sent after the commit, never failing the request)', async () => {
    const { survey, ada } = await team('Mail down');
    await addResponse(t.app, ada, survey, { rate: 100 });
    const payout = (await create({ survey_id: survey.id, key: randomUUID() })).json().payout;
    await sql`alter table mail_outbox rename to mail_outbox_away`.execute(k());
    try {
      const paid = await post(org.token, `/api/v1/payouts/${payout._id}/paid`, { reference: 'TRF-MAIL' });
      expect(paid.statusCode).toBe(200);
      expect(paid.json().payout.status).toBe('paid');
    } finally {
      await sql`alter table mail_outbox_away rename to mail_outbox`.execute(k());
    }
    const row = await k().selectFrom('payouts').select(['status', 'reference']).where('id', '=', payout._id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'paid', reference: 'TRF-MAIL' });
  });

  it('downloads the bank file as xlsx (account numbers as text, responses sheet) and csv, formula-safe', async () => {
    const { survey, ada, bayo } = await team('=HYPERLINK("x")');
    await k().updateTable('members').set({ full_name: '=1+1', bank: 'Access Bank', account_number: '0001112223' }).where('id', '=', bayo.id).execute();
    for (let i = 0; i < 3; i++) await addResponse(t.app, ada, survey, { rate: 100 });
    await addResponse(t.app, bayo, survey, { rate: 250 });
    const payout = (await create({ survey_id: survey.id, key: randomUUID() })).json().payout;
    const xlsx = await get(org.token, `/api/v1/payouts/${payout._id}/download?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Transfers')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'S/N', 'Full name', 'Bank', 'Bank code', 'Account number', 'Account name', 'Amount', 'Narration']);
    const rows = [2, 3].map((i) => sheet.getRow(i).values as unknown[]);
    const bayoRow = rows.find((r) => r[2] === "'=1+1")!;
    expect(bayoRow.slice(3, 8)).toEqual(['Access Bank', '044', '0001112223', 'Bayo Ade', 250]);
    expect(bayoRow[8]).toBe(`Survey Bird =HYPERLINK("x") payout ${payout.createdAt.slice(0, 10)}`);
    expect(sheet.getCell('E2').numFmt).toBe('@');
    expect(book.getWorksheet('Responses')!.rowCount).toBe(5);

    const csv = await get(org.token, `/api/v1/payouts/${payout._id}/download?format=csv`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.split('\r\n')[0]).toBe('"S/N","Full name","Bank","Bank code","Account number","Account name","Amount","Narration"');
    expect(csv.body).toContain(`"'=1+1","Access Bank","044","0001112223","Bayo Ade",250`);
    const part = await get(org.token, `/api/v1/payouts/${payout._id}/download?format=csv&part=responses`);
    expect(part.body.trim().split('\r\n')).toHaveLength(5);
    expect((await get(org.token, `/api/v1/payouts/${payout._id}/download?format=pdf`)).statusCode).toBe(400);
    expect((await get(other.token, `/api/v1/payouts/${payout._id}/download?format=csv`)).statusCode).toBe(404);
  });
});

it('the payout_items migration carries over which payout holds each response, both ways', async () => {
  const { survey, ada, bayo } = await team('Migrated');
  for (let i = 0; i < 3; i++) await addResponse(t.app, i ? ada : bayo, survey, { rate: 100 });
  const payout = (await create({ survey_id: survey.id, key: randomUUID() })).json().payout;
  const items = () => k().selectFrom('payout_items').select(['response_id', 'payout_id', 'member_id', 'rate']).where('payout_id', '=', payout._id).orderBy('response_id').execute();
  const before = await items();
  expect(before).toHaveLength(3);
  const migrator = new Migrator({ db: k(), provider: migrationProvider, ...(t.app.db.pgSchema ? { migrationTableSchema: t.app.db.pgSchema } : {}) });
  expect((await migrator.migrateTo('20261127510000_device_status')).error).toBeUndefined();
  const held = await sql<{ id: string }>`select id from responses where payout_id = ${payout._id} order by id`.execute(k());
  expect(held.rows.map((r) => r.id)).toEqual(before.map((i) => i.response_id));
  await migrateToLatest(t.app.db);
  expect(await items()).toEqual(before);
});
