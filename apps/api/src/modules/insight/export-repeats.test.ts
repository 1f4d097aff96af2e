import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

// Repeats in the export, as ODK and Kobo give them: the main table keeps a repeat's count, and
// each repeat has its own table (a sheet of the workbook, a CSV of the zip) with one row per
// instance, the response's S/N, the key of the instance around it and its own key.
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;

const QUESTIONS = [
  { id: 'village', text: 'Village', type: QuestionType.text },
  { id: 'members', text: 'Member', type: QuestionType.repeat },
  { id: 'name', text: 'Name', type: QuestionType.text, parent: 'members' },
  { id: 'age', text: 'Age', type: QuestionType.number, parent: 'members' },
  { id: 'sex', text: 'Sex', type: QuestionType.select, parent: 'members', options: ['Female', 'Male'] },
  { id: 'plots', text: 'Plot', type: QuestionType.repeat, parent: 'members', compulsory: false },
  { id: 'size', text: 'Size (ha)', type: QuestionType.decimal, parent: 'plots' },
  { id: 'total', text: 'Total', type: QuestionType.calculate, calculation: 'count(${name})' },
  { id: 'where', text: 'Where', type: QuestionType.liveLocation, compulsory: false },
];

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Roster Exporters');
  const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Households', questions: QUESTIONS } });
  expect(res.statusCode, res.body).toBe(200);
  surveyId = res.json().survey._id;
  const fu = await addMember(t.app, surveyId, org.id, { fullName: 'Ngozi Eze' });
  const at = Date.UTC(2026, 10, 20, 14, 5, 7);
  const answers = (a: object) => a as Record<string, string>;
  // Newest first in the export: Kura is S/N 1, Dala S/N 2.
  await addResponse(t.app, fu, { id: surveyId, organizationId: org.id }, { createdAt: at, answers: answers({
    Village: 'Kura', Total: '2', Where: '12.0, 8.5 (±5 m)',
    Member: [
      { Name: 'Amina, "Mama"', Age: '41', Sex: 'Female', Plot: [{ 'Size (ha)': '2.5' }, { 'Size (ha)': '0.5' }] },
      { Name: 'Bala', Age: '12', Sex: 'Male' },
    ],
  }) });
  await addResponse(t.app, fu, { id: surveyId, organizationId: org.id }, { createdAt: at - 1000, answers: answers({
    Village: 'Dala', Total: '1', Member: [{ Name: 'Chidi', Age: '30', Sex: 'Male', Plot: [{ 'Size (ha)': '1' }] }],
  }) });
});
afterAll(() => t.close());

const url = (format: string, extra = '') => `/api/v1/survey/organization/response/download/${surveyId}?format=${format}${extra}`;
async function get(path: string) {
  const res = await call(t.app, org.token, { method: 'GET', url: path });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res;
}

const text = (cell: ExcelJS.Cell) => (cell.value === null || cell.value === undefined ? '' : String(cell.value));
function sheetRows(sheet: ExcelJS.Worksheet): string[][] {
  const rows: string[][] = [];
  sheet.eachRow((row) => rows.push(Array.from({ length: row.cellCount }, (_, c) => text(row.getCell(c + 1)))));
  return rows;
}

/** A CSV's rows (no quoted line breaks here). */
const csvRows = (s: string) => s.replace(/^\uFEFF/, '').trim().split('\r\n').map((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.filter((f) => f !== '').map((f) => f.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"')));

// Each export starts a worker thread (under tsx in tests: seconds of compiling on a loaded machine).
describe('repeats in the export', { timeout: 120_000 }, () => {
  it('xlsx: the main sheet counts each repeat; one sheet per repeat, joined by S/N and keys, typed', async () => {
    const res = await get(url('xlsx'));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Responses', 'Member', 'Plot']);
    const main = sheetRows(workbook.getWorksheet('Responses')!);
    const at = (h: string) => main[0]!.indexOf(h);
    expect(main[0]).not.toContain('Name');
    expect(main.slice(1).map((r) => [r[0], r[at('Village')], r[at('Member')], r[at('Total')]])).toEqual([['1', 'Kura', '2 members', '2'], ['2', 'Dala', '1 member', '1']]);

    const members = sheetRows(workbook.getWorksheet('Member')!);
    expect(members).toEqual([
      ['S/N', 'Parent key', 'Key', 'Instance', 'Name', 'Age', 'Sex', 'Plot'],
      ['1', '1', '1/members[1]', '1', 'Amina, "Mama"', '41', 'Female', '2 members'],
      ['1', '1', '1/members[2]', '2', 'Bala', '12', 'Male', 'N/A'],
      ['2', '2', '2/members[1]', '1', 'Chidi', '30', 'Male', '1 member'],
    ]);
    // Numbers stay numbers on the repeat's sheet.
    expect(workbook.getWorksheet('Member')!.getRow(2).getCell(6).value).toBe(41);
    expect(sheetRows(workbook.getWorksheet('Plot')!)).toEqual([
      ['S/N', 'Parent key', 'Key', 'Instance', 'Size (ha)'],
      ['1', '1/members[1]', '1/members[1]/plots[1]', '1', '2.5'],
      ['1', '1/members[1]', '1/members[1]/plots[2]', '2', '0.5'],
      ['2', '2/members[1]', '2/members[1]/plots[1]', '1', '1'],
    ]);
  });

  it('xlsx: a search exports the matching responses with only their instances', async () => {
    const res = await get(url('xlsx', '&searchQuery=dala'));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(sheetRows(workbook.getWorksheet('Member')!).slice(1).map((r) => r.slice(0, 5))).toEqual([['1', '1', '1/members[1]', '1', 'Chidi']]);
  });

  it('csv: a zip of one CSV per table', async () => {
    const res = await get(url('csv'));
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('_responses.csv.zip');
    const zip = await JSZip.loadAsync(res.rawPayload);
    expect(Object.keys(zip.files)).toEqual(['responses.csv', 'members.csv', 'plots.csv']);
    const main = csvRows(await zip.file('responses.csv')!.async('string'));
    expect(main.slice(1).map((r) => r[main[0]!.indexOf('Member')])).toEqual(['2 members', '1 member']);
    expect(csvRows(await zip.file('members.csv')!.async('string'))).toEqual([
      ['S/N', 'Parent key', 'Key', 'Instance', 'Name', 'Age', 'Sex', 'Plot'],
      ['1', '1', '1/members[1]', '1', 'Amina, "Mama"', '41', 'Female', '2 members'],
      ['1', '1', '1/members[2]', '2', 'Bala', '12', 'Male', 'N/A'],
      ['2', '2', '2/members[1]', '1', 'Chidi', '30', 'Male', '1 member'],
    ]);
    expect(csvRows(await zip.file('plots.csv')!.async('string'))[3]).toEqual(['2', '2/members[1]', '2/members[1]/plots[1]', '1', '1']);
  });

  it('a survey without repeats still downloads a plain CSV', async () => {
    const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Flat', questions: [{ text: 'Village', type: QuestionType.text }] } });
    const plain = await get(`/api/v1/survey/organization/response/download/${res.json().survey._id}?format=csv`);
    expect(plain.headers['content-type']).toBe('text/csv; charset=utf-8');
  });

  it('stata and spss: each repeat\'s CSV with its own syntax file, option numbers labelled', async () => {
    for (const format of ['stata', 'spss'] as const) {
      const zip = await JSZip.loadAsync((await get(url(format))).rawPayload);
      const ext = format === 'stata' ? 'do' : 'sps';
      expect(Object.keys(zip.files)).toEqual(['survey.csv', `survey.${ext}`, 'members.csv', `members.${ext}`, 'plots.csv', `plots.${ext}`]);
      const members = csvRows(await zip.file('members.csv')!.async('string'));
      expect(members[0]).toEqual(['S/N', 'Parent key', 'Key', 'Instance', 'Name', 'Age', 'Sex', 'Plot']);
      // Option numbers for Stata and SPSS, as on the main table.
      expect(members[1]!.slice(4, 7)).toEqual(['Amina, "Mama"', '41', '1']);
      const syntax = await zip.file(`members.${ext}`)!.async('string');
      expect(syntax).toContain('members.csv');
      expect(syntax).toMatch(/Female/);
    }
  });

  const pspp = spawnSync('pspp', ['--version']).status === 0;
  it.skipIf(!pspp)('the SPSS syntax of a repeat reads its CSV into PSPP', async () => {
    const zip = await JSZip.loadAsync((await get(url('spss'))).rawPayload);
    const dir = mkdtempSync(join(tmpdir(), 'sb-repeat-spss-'));
    for (const name of ['members.csv', 'members.sps']) writeFileSync(join(dir, name), await zip.file(name)!.async('nodebuffer'));
    writeFileSync(join(dir, 'check.sps'), 'INCLUDE FILE="members.sps".\nLIST.\n');
    const out = execFileSync('pspp', ['-O', 'format=txt', 'check.sps'], { cwd: dir, encoding: 'utf8' });
    expect(out).toContain('Chidi');
    expect(out).not.toMatch(/error/i);
  });

  it('geojson and kml are unchanged: one feature per response with a location', async () => {
    const geo = JSON.parse((await get(url('geojson'))).body) as { features: { properties: Record<string, unknown> }[] };
    expect(geo.features).toHaveLength(1);
    expect(geo.features[0]!.properties.Member).toBe('2 members');
    expect((await get(url('kml'))).body).toContain('<Placemark>');
  });
});
