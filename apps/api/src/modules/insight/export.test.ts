import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QuestionType, Role, type StoredQuestion } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey, sampleQuestions } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { readFileSync, readdirSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { MAX_ZIP_BACKLOG, QUALITY_HEADER, XLSX_MIME, attachmentHeader, writeResponsesWorkbook, zipInput } from './workbook.js';
import { CELL_SEP, LINK_MARK, exportColumns, plainText } from './export-rows.js';
import { exportInWorker } from './export.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Export Org');
});
afterAll(() => t.close());

const questions: Omit<StoredQuestion, 'id'>[] = [...sampleQuestions, { text: 'Website', type: QuestionType.text, compulsory: false, options: [] }];
const HEADERS = ['S/N', 'Field user', 'Field user email', 'Captured at', 'Received at', 'Version', 'Revision', 'Status', 'Reviewed by', 'Reviewed at', 'Payout reference', ...questions.map((q) => q.text), ...QUALITY_HEADER];

type Member = Awaited<ReturnType<typeof addMember>> & { fullName: string };
async function member(surveyId: string, fullName: string, opts: { role?: typeof Role.supervisor; supervisorId?: string } = {}): Promise<Member> {
  return { ...(await addMember(t.app, surveyId, org.id, { fullName, role: opts.role, supervisorId: opts.supervisorId ?? null })), fullName };
}
const respond = (m: Member, surveyId: string, answers: Record<string, string | string[]>, createdAt = Date.now(), capturedAt?: number) =>
  addResponse(t.app, m, { id: surveyId, organizationId: org.id }, { answers, createdAt, capturedAt, fullName: m.fullName, email: m.email });

async function download(token: string, url: string) {
  const res = await call(t.app, token, { method: 'GET', url: `/api/v1${url}` });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe(XLSX_MIME);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Responses')!;
  return { res, sheet };
}
const rowValues = (sheet: ExcelJS.Worksheet, n: number) => (sheet.getRow(n).values as unknown[]).slice(1);

describe('organization export', () => {
  it('writes the header only for an empty survey, bold and frozen, under the survey title', async () => {
    const survey = await createSurvey(t.app, org.id, { title: 'Retail audit', questions });
    const { res, sheet } = await download(org.token, `/survey/organization/response/download/${survey.id}`);
    expect(res.headers['content-disposition']).toBe('attachment; filename="Retail audit_responses.xlsx"');
    expect(sheet.actualRowCount).toBe(1);
    expect(rowValues(sheet, 1)).toEqual(HEADERS);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('writes dates, links, checkbox lists, N/A, and formula-looking answers as plain text', async () => {
    const survey = await createSurvey(t.app, org.id, { title: 'Étude Lagos', questions });
    const fu = await member(survey.id, 'Exporter One');
    const at = Date.UTC(2026, 10, 20, 14, 5, 0);
    await respond(fu, survey.id, {
      'Name of outlet': '=HYPERLINK("http://x")',
      'Outlet type': 'Kiosk',
      'Brands stocked': ['Alpha', 'Beta'],
      'Shelf photo': '/api/v1/files/image/abc-123.jpg',
      Website: 'https://example.com/shop?id=1',
    }, at, at - 3_600_000 + 17_000);
    await respond(fu, survey.id, { 'Name of outlet': '+cmd', 'Outlet type': '-1+1', Location: '@SUM(A1)', Website: 'http://plain.example' }, at - 1000);
    await respond(fu, survey.id, { 'Name of outlet': '\tTabbed', 'Outlet type': 'javascript:alert(1)', Website: 'https://' }, at - 2000);

    const { res, sheet } = await download(org.token, `/survey/organization/response/download/${survey.id}`);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="_tude Lagos_responses.xlsx"; filename*=UTF-8''%C3%89tude%20Lagos_responses.xlsx`);
    expect(sheet.actualRowCount).toBe(4);

    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe(1);
    expect(first.getCell(6).value).toBe(1);
    expect(first.getCell(2).value).toBe('Exporter One');
    expect(first.getCell(3).value).toBe(fu.email);
    // Captured on the phone an hour before it arrived, to the second; then received.
    expect(first.getCell(4).value).toEqual(new Date(at - 3_600_000 + 17_000));
    expect(first.getCell(4).numFmt).toBe('dd/mm/yyyy hh:mm:ss');
    expect(first.getCell(5).value).toEqual(new Date(at));
    expect(first.getCell(5).numFmt).toBe('dd/mm/yyyy hh:mm:ss');
    expect(first.getCell(6).value).toBe(1);
    expect(first.getCell(7).value).toBe(1);
    // Never reviewed (approved on receipt): no reviewer, no time, no payout.
    expect(rowValues(sheet, 2).slice(7, 11)).toEqual(['approved', undefined, undefined, undefined]);
    expect(first.getCell(12).value).toBe(`'=HYPERLINK("http://x")`);
    expect(first.getCell(14).value).toBe('Alpha, Beta');
    expect(first.getCell(15).type).toBe(ExcelJS.ValueType.Hyperlink);
    // A photo's link is signed and expiring (files/file-links.ts), fresh at each export.
    const photoLink = first.getCell(15).value as { text: string; hyperlink: string };
    expect(photoLink.hyperlink).toMatch(/^http:\/\/sb\.test\/api\/v1\/files\/image\/abc-123\.jpg\?exp=\d+&sig=[0-9a-f]{64}$/);
    expect(photoLink.text).toBe(photoLink.hyperlink);
    expect(first.getCell(16).value).toBe('N/A');
    expect(first.getCell(17).value).toEqual({ text: 'https://example.com/shop?id=1', hyperlink: 'https://example.com/shop?id=1' });

    const second = sheet.getRow(3);
    // An old phone that did not say when: N/A, and the receipt time still there.
    expect(second.getCell(4).value).toBe('N/A');
    expect(second.getCell(5).value).toEqual(new Date(at - 1000));
    expect(rowValues(sheet, 3).slice(11, 11 + questions.length)).toEqual(["'+cmd", "'-1+1", 'N/A', 'N/A', '@SUM(A1)'.replace(/^/, "'"), 'http://plain.example']);
    expect(second.getCell(17).type).toBe(ExcelJS.ValueType.String);
    const third = sheet.getRow(4);
    expect(third.getCell(12).value).toBe("'\tTabbed");
    expect(third.getCell(13).value).toBe('javascript:alert(1)');
    expect(third.getCell(17).type).toBe(ExcelJS.ValueType.String);

    for (let r = 2; r <= 4; r++) {
      sheet.getRow(r).eachCell((cell) => {
        expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
        expect(cell.formula).toBeUndefined();
      });
    }
  });

  it('exports every response, not one page, newest first, and honours the search', async () => {
    const survey = await createSurvey(t.app, org.id, { questions });
    const fu = await member(survey.id, 'Bulk Person');
    const base = Date.UTC(2026, 10, 1);
    for (let i = 0; i < 45; i++) await respond(fu, survey.id, { 'Name of outlet': i % 3 === 0 ? `Needle ${i}` : `Hay ${i}` }, base + i * 1000);
    const all = await download(org.token, `/survey/organization/response/download/${survey.id}?page=2`);
    expect(all.sheet.actualRowCount).toBe(46);
    expect(all.sheet.getRow(2).getCell(12).value).toBe('Hay 44');
    expect(all.sheet.getRow(46).getCell(1).value).toBe(45);
    expect(all.sheet.getRow(46).getCell(12).value).toBe('Needle 0');

    const found = await download(org.token, `/survey/organization/response/download/${survey.id}?searchQuery=NEEDLE`);
    expect(found.sheet.actualRowCount).toBe(16);
    const names: unknown[] = [];
    found.sheet.eachRow((row, n) => n > 1 && names.push(row.getCell(12).value));
    expect(names.every((v) => String(v).startsWith('Needle'))).toBe(true);
  });
});

describe('review columns (issue 16)', () => {
  it('gives each response its status, reviewer, review time and paid payout reference, and honours the status filter', async () => {
    const survey = await createSurvey(t.app, org.id, { title: 'Reviewed', questions });
    const fu = { ...(await addMember(t.app, survey.id, org.id, { fullName: 'Paid Person', rate: 100 })), fullName: 'Paid Person' };
    const base = Date.UTC(2026, 10, 2);
    const returned = await respond(fu, survey.id, { 'Name of outlet': 'Returned one' }, base + 3000);
    const paid = await respond(fu, survey.id, { 'Name of outlet': 'Paid one' }, base + 2000);
    const post = (url: string, payload: object) => call(t.app, org.token, { method: 'POST', url: `/api/v1${url}`, payload });
    const review = await post('/responses/review', { responseIds: [returned.id], status: 'returned', comment: 'Photo is blurred' });
    expect(review.statusCode).toBe(200);
    await t.app.db.kysely.updateTable('responses').set({ rate: 100 }).where('id', '=', paid.id).execute();
    const payout = await post('/payouts', { survey_id: survey.id, key: randomUUID() });
    expect(payout.json().payout.responseCount).toBe(1);
    // A reference that looks like a formula stays text.
    expect((await post(`/payouts/${payout.json().payout._id}/paid`, { reference: '=TRF 42' })).statusCode).toBe(200);

    const { sheet } = await download(org.token, `/survey/organization/response/download/${survey.id}`);
    expect(rowValues(sheet, 1)).toEqual(HEADERS);
    const [status, by, at, reference] = rowValues(sheet, 2).slice(7, 11);
    expect([status, by, reference]).toEqual(['returned', 'Export Org', undefined]);
    expect(at).toBeInstanceOf(Date);
    expect(sheet.getRow(2).getCell(10).numFmt).toBe('dd/mm/yyyy hh:mm:ss');
    expect(rowValues(sheet, 3).slice(7, 11)).toEqual(['approved', undefined, undefined, "'=TRF 42"]);

    const onlyReturned = await download(org.token, `/survey/organization/response/download/${survey.id}?status=returned`);
    expect(onlyReturned.sheet.actualRowCount).toBe(2);
    expect(onlyReturned.sheet.getRow(2).getCell(12).value).toBe('Returned one');
  });
});

describe('supervisor export', () => {
  it("holds only the supervisor's own field users", async () => {
    const survey = await createSurvey(t.app, org.id, { title: 'Team audit', questions });
    const sup = await member(survey.id, 'Sup Visor', { role: Role.supervisor });
    const other = await member(survey.id, 'Other Visor', { role: Role.supervisor });
    const mine = await member(survey.id, 'My Worker', { supervisorId: sup.id });
    const theirs = await member(survey.id, 'Their Worker', { supervisorId: other.id });
    const loose = await member(survey.id, 'Loose Worker');
    await respond(mine, survey.id, { 'Name of outlet': 'Mine' });
    await respond(theirs, survey.id, { 'Name of outlet': 'Theirs' });
    await respond(loose, survey.id, { 'Name of outlet': 'Loose' });

    const { res, sheet } = await download(sup.token!, `/survey/supervisorName/response/download/${survey.id}`);
    expect(res.headers['content-disposition']).toBe('attachment; filename="Team audit_responses.xlsx"');
    expect(sheet.actualRowCount).toBe(2);
    expect(rowValues(sheet, 2).slice(1, 2)).toEqual(['My Worker']);
    const org3 = await download(org.token, `/survey/organization/response/download/${survey.id}`);
    expect(org3.sheet.actualRowCount).toBe(4);
  });
});

describe('cell and header helpers', () => {
  it('quotes every formula trigger and nothing else', () => {
    expect(['=1', '+1+1', '-1-1', '+A1', '-cmd', '@a', '\tx', '\rx', '+1.', '+1e5'].map(plainText)).toEqual(["'=1", "'+1+1", "'-1-1", "'+A1", "'-cmd", "'@a", "'\tx", "'\rx", "'+1.", "'+1e5"]);
    expect(['1', 'a=b', ' =x', ''].map(plainText)).toEqual(['1', 'a=b', ' =x', '']);
  });

  it('leaves a signed number as typed: a phone number in +234 form is no formula', () => {
    expect(['+2348122223333', '+1', '-1', '-2.5'].map(plainText)).toEqual(['+2348122223333', '+1', '-1', '-2.5']);
  });

  it('keeps a hostile title out of the header', () => {
    expect(attachmentHeader('A"B\r\nSet-Cookie: x')).toBe(`attachment; filename="A_BSet-Cookie: x_responses.xlsx"; filename*=UTF-8''A%22BSet-Cookie%3A%20x_responses.xlsx`);
  });
});

describe('workbook output', () => {
  it('writes the same file as exceljs with a style per cell (the shared style objects change no byte)', async () => {
    // Frozen clock: the zip's entry times and the workbook's dates then match between the two files.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 22, 9, 30) });
    try {
      const qs: Omit<StoredQuestion, 'id'>[] = ['A', 'B', 'C'].map((text) => ({ text, type: QuestionType.text, compulsory: false, options: [] }));
      const at = Date.UTC(2026, 10, 20, 14, 5);
      const rows = Array.from({ length: 30 }, (_, i) => ['Ada Obi', 'ada@team.ng', String(at - i * 60_000 - 5000), String(at - i * 60_000), String(1 + (i % 3 === 0 ? 1 : 0)), String(1 + (i % 2)), i % 2 ? 'approved' : 'returned', i % 2 ? '' : 'Rita Reviewer', i % 2 ? '' : String(at + i), i % 4 === 1 ? 'TRF-1' : '', i % 3 ? `text ${i} <&>` : `${LINK_MARK}https://example.com/p?i=${i}`, 'N/A', `'=1+${i}`, ...(i % 2 ? ['too_fast: Filled in 3 s', '2026-11-20T14:00:00.000Z', '3', '12', '', 'dev-1', '0.1.0', ''] : ['', '', '', '', '', '', '', ''])]);
      async function* batches() {
        yield { count: rows.length, cells: rows.map((r) => r.join(CELL_SEP)).join(CELL_SEP) };
      }
      const ours = await collect((out) => writeResponsesWorkbook(out, { columns: qs.map((q) => q.text), rows: batches() }));
      const reference = await collect(async (out) => {
        const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
        const sheet = workbook.addWorksheet('Responses', { views: [{ state: 'frozen', ySplit: 1 }] });
        sheet.columns = [{ width: 6 }, { width: 24 }, { width: 28 }, { width: 20 }, { width: 20 }, { width: 9 }, { width: 10 }, { width: 11 }, { width: 22 }, { width: 20 }, { width: 20 }, ...qs.map(() => ({ width: 24 })), ...QUALITY_HEADER.map((h) => ({ width: h === 'Flags' || h === 'Photo hashes' ? 40 : 18 }))];
        const header = sheet.addRow(['S/N', 'Field user', 'Field user email', 'Captured at', 'Received at', 'Version', 'Revision', 'Status', 'Reviewed by', 'Reviewed at', 'Payout reference', ...qs.map((q) => q.text), ...QUALITY_HEADER]);
        header.font = { bold: true };
        header.commit();
        rows.forEach((r, i) => {
          const cells = r.slice(10).map((c) => (c.startsWith(LINK_MARK) ? { text: c.slice(1), hyperlink: c.slice(1) } : c));
          const row = sheet.addRow([i + 1, r[0], r[1], new Date(Number(r[2])), new Date(Number(r[3])), Number(r[4]), Number(r[5]), r[6], r[7], r[8] ? new Date(Number(r[8])) : '', r[9], ...cells]);
          row.getCell(4).numFmt = 'dd/mm/yyyy hh:mm:ss';
          row.getCell(5).numFmt = 'dd/mm/yyyy hh:mm:ss';
          if (r[8]) row.getCell(10).numFmt = 'dd/mm/yyyy hh:mm:ss';
          row.commit();
        });
        sheet.commit();
        await workbook.commit();
      });
      expect(ours.length).toBeGreaterThan(1000);
      expect(ours.equals(reference)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('streaming writer memory', () => {
  it("still finds exceljs' stream into the zip (the writer's back-pressure depends on it)", async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: new PassThrough().resume(), useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet('Responses');
    sheet.addRow(['x']).commit();
    const zip = zipInput(sheet);
    expect(zip).toBeDefined();
    expect(typeof zip!._writableState!.length).toBe('number');
    sheet.commit();
    await workbook.commit();
  });

  it('keeps the XML waiting for deflate bounded, whatever the row count', async () => {
    const bytes: number[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        bytes.push(chunk.length);
        callback();
      },
    });
    const longText = 'x'.repeat(400);
    async function* rows() {
      for (let b = 0; b < 12; b++) {
        yield { count: 1000, cells: Array.from({ length: 1000 }, (_, i) => ['Ada Obi', 'ada@team.ng', '', String(Date.now()), '1', '1', 'approved', '', '', '', `${longText}${i}`, '', '', '', '', '', '', '', ''].join(CELL_SEP)).join(CELL_SEP) };
      }
    }
    const backlog: number[] = [];
    await writeResponsesWorkbook(sink, { columns: ['Q'], rows: rows(), onBatch: (n) => backlog.push(n) });
    expect(bytes.reduce((a, b) => a + b, 0)).toBeGreaterThan(10_000);
    expect(backlog).toHaveLength(12);
    // 12k rows of ~0.5 KB of XML each: without the back-pressure ~6 MB would be waiting by the end.
    expect(Math.max(...backlog)).toBeLessThanOrEqual(MAX_ZIP_BACKLOG + 1000 * 1024);
  });
});

describe('export threads', () => {
  it('lowers the priority of its own threads only', async () => {
    // A thread may end between listing and reading its stat file (an export thread finishing): skip it.
    const statOf = (task: string) => {
      try {
        return readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      } catch {
        return null;
      }
    };
    const niceness = () => readdirSync('/proc/self/task').map(statOf).filter((s) => s !== null).map((s) => Number(s.split(') ')[1]!.split(' ')[16]));
    const survey = await createSurvey(t.app, org.id, { questions });
    const fu = await member(survey.id, 'Nice Person');
    for (let i = 0; i < 3; i++) await respond(fu, survey.id, { 'Name of outlet': `Outlet ${i}` });
    const before = niceness();
    let niced = 0;
    const sampler = setInterval(() => (niced = Math.max(niced, niceness().filter((n) => n > 0).length)), 5);
    const job = { db: { dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl, pgSchema: t.app.db.pgSchema, sqliteFile: t.app.db.sqlite?.name }, scope: { surveyId: survey.id, supervisorMemberId: null }, search: '', columns: exportColumns([{ version: 1, questions }]), publicUrl: 'http://sb.test', fileLink: { key: 'k', exp: 1 } };
    try {
      for await (const chunk of exportInWorker(job, () => {})) void chunk;
    } finally {
      clearInterval(sampler);
    }
    expect(before.every((n) => n === 0)).toBe(true);
    if (process.platform === 'linux') expect(niced).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The export's threads are gone; this thread, libuv's pool and the rest never changed.
    expect(niceness().every((n) => n === 0)).toBe(true);
  });

  it('fails the download, instead of hanging, when the reader thread cannot read', async () => {
    const errors: string[] = [];
    const job = { db: { dataDir: '/nonexistent', databaseUrl: undefined, sqliteFile: '/nonexistent/none.sqlite' }, scope: { surveyId: 's', supervisorMemberId: null }, search: '', columns: exportColumns([{ version: 1, questions }]), publicUrl: 'http://sb.test', fileLink: { key: 'k', exp: 1 } };
    const stream = exportInWorker(job, (err) => errors.push(err.message));
    await expect(async () => {
      for await (const chunk of stream) void chunk;
    }).rejects.toThrow();
    expect(errors).toHaveLength(1);
  });
});

async function collect(write: (out: Writable) => Promise<void>): Promise<Buffer> {
  const parts: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      parts.push(chunk);
      callback();
    },
  });
  await write(out);
  return Buffer.concat(parts);
}
