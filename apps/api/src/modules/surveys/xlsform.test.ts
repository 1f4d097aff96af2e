import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, CreateSurveyBody, Limits, QuestionType, Role, type XlsformImportReply } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { householdSurvey, marketPriceForm, unsupportedForm, workbook } from '../../../test/xlsforms.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Importers');
});
afterAll(() => t.close());

function multipart(data: Buffer, filename = 'form.xlsx') {
  const boundary = `----sb${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const importForm = (data: Buffer, token = org.token, filename?: string) => call(t.app, token, { method: 'POST', url: '/api/v1/survey/import-xlsform', ...multipart(data, filename) });

describe('POST /survey/import-xlsform', () => {
  it('imports the household survey: types, required, English labels, constraints, relevance, groups flattened', async () => {
    const res = await importForm(await householdSurvey());
    expect(res.statusCode, res.body).toBe(200);
    const { draft, unsupported } = res.json();
    expect(draft.title).toBe('Household survey 2026');
    // The one thing reshaped: the group, named, its questions now the survey's own.
    expect(unsupported).toEqual([{ sheet: 'survey', row: 5, column: 'type', severity: 'note', reason: 'The group "Children" was flattened: its questions were imported as questions of the survey, each with the group\'s condition' }]);
    expect(draft.questions.map((q: { id: string; type: string; compulsory: boolean }) => [q.id, q.type, q.compulsory])).toEqual([
      ['hh_head', QuestionType.text, true],
      ['hh_size', QuestionType.number, true],
      ['has_children', QuestionType.select, true],
      ['children_count', QuestionType.number, true],
      ['vaccines', QuestionType.checkbox, false],
      ['water', QuestionType.select, true],
      ['water_other', QuestionType.text, false],
      ['income', QuestionType.decimal, false],
      ['visit_date', QuestionType.date, true],
      ['visit_time', QuestionType.time, false],
      ['gps', QuestionType.liveLocation, false],
      ['house_photo', QuestionType.image, false],
      ['thanks', QuestionType.note, false],
      ['card', QuestionType.barcode, false],
    ]);
    const q = (id: string) => draft.questions.find((x: { id: string }) => x.id === id);
    expect(q('hh_head')).toMatchObject({ text: 'Name of the household head', constraint: { maxLength: 60, message: 'At most 60 letters' } });
    expect(q('hh_size').constraint).toEqual({ min: 1, max: 30, message: 'Between 1 and 30' });
    // `. > 0 and . < 15` on a whole number is exactly 1..14.
    expect(q('children_count').constraint).toEqual({ min: 1, max: 14 });
    expect(q('visit_date').constraint).toEqual({ notInFuture: true, message: 'Not in the future' });
    expect(q('has_children').options).toEqual(['Yes', 'No']);
    // The group's relevance is applied to each member; choice names become the labels answers hold.
    expect(q('children_count').showIf).toEqual({ combine: 'all', conditions: [{ question: 'has_children', op: 'equals', value: 'Yes' }] });
    expect(q('vaccines').showIf).toEqual({ combine: 'all', conditions: [{ question: 'has_children', op: 'equals', value: 'Yes' }, { question: 'children_count', op: 'greaterThan', value: 1 }] });
    expect(q('water_other').showIf).toEqual({ combine: 'all', conditions: [{ question: 'water', op: 'equals', value: 'Other' }] });
    expect(q('income').showIf).toEqual({ combine: 'any', conditions: [{ question: 'hh_size', op: 'greaterThan', value: 2 }, { question: 'vaccines', op: 'includes', value: 'BCG' }] });
    expect(q('card').showIf).toEqual({ combine: 'all', conditions: [{ question: 'has_children', op: 'notEquals', value: 'No' }] });
    // The draft publishes as it is.
    expect(CreateSurveyBody.safeParse(draft).success).toBe(true);
    // Nothing was published.
    expect(await t.app.db.kysely.selectFrom('surveys').select('id').where('organization_id', '=', org.id).execute()).toEqual([]);
  });

  it('imports the market price form: a 300-choice list becomes a large dataset; a decimal\'s strict bounds are reported', async () => {
    const res = await importForm(await marketPriceForm(), org.token, 'Market prices.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    const { draft, unsupported } = res.json();
    expect(draft.title).toBe('Market prices');
    const commodity = draft.questions.find((x: { id: string }) => x.id === 'commodity');
    expect(commodity.type).toBe(QuestionType.largeSelect);
    expect(commodity.options).toHaveLength(300);
    expect(commodity.options.slice(0, 2)).toEqual(['Commodity 001', 'Commodity 002']);
    expect(draft.questions.find((x: { id: string }) => x.id === 'units')).toMatchObject({ type: QuestionType.checkbox, options: ['Kilogram', 'Bag'] });
    expect(draft.questions.find((x: { id: string }) => x.id === 'price').constraint).toEqual({ min: 0, max: 1000000 });
    expect(draft.questions.find((x: { id: string }) => x.id === 'trader').constraint).toEqual({ minLength: 2 });
    expect(unsupported).toEqual([{ sheet: 'survey', row: 5, column: 'constraint', severity: 'changed', reason: expect.stringContaining('a decimal\'s limits are included') }]);
    expect(CreateSurveyBody.safeParse(draft).success).toBe(true);
  });

  it('lists every row and cell of the unsupported form it did not carry over', async () => {
    const res = await importForm(await unsupportedForm());
    expect(res.statusCode, res.body).toBe(200);
    const { draft, unsupported } = res.json();
    expect(draft.questions.map((q: { id: string }) => q.id)).toEqual(['name', 'age', 'state', 'lga2', 'later', 'final']);
    const where = unsupported.map((u: { sheet: string; row: number; column: string }) => `${u.sheet}:${u.row}:${u.column}`);
    expect(where.sort()).toEqual([
      'choices:2:media::image', 'choices:4:state', 'choices:5:state',
      'survey:2:type', 'survey:3:type',
      'survey:4:appearance', 'survey:4:constraint', 'survey:4:default', 'survey:4:hint', 'survey:4:label::Hausa (ha)', 'survey:4:required_message',
      'survey:5:type',
      'survey:6:constraint', 'survey:6:relevant',
      'survey:7:type', 'survey:8:type',
      'survey:10:type', 'survey:11:type',
      'survey:13:choice_filter',
      'survey:14:type', 'survey:15:type',
      'survey:16:relevant',
      'survey:18:type',
    ].sort());
    // Every reason names what went wrong.
    for (const u of unsupported) expect(u.reason.length).toBeGreaterThan(10);
    expect(unsupported.find((u: { row: number }) => u.row === 7).reason).toMatch(/Repeats are not supported/);
  });

  it('orders the report by what it cost: dropped questions, then changed ones, then notes (translations, flattened groups)', async () => {
    const res = await importForm(await unsupportedForm());
    const { unsupported } = res.json() as XlsformImportReply;
    const rank = { dropped: 0, changed: 1, note: 2 };
    const ranks = unsupported.map((u) => rank[u.severity]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    // Lost questions lead; the Hausa translation, which loses nothing in English, comes last.
    expect(unsupported[0]).toMatchObject({ sheet: 'survey', row: 2, severity: 'dropped' });
    expect(unsupported.at(-1)).toMatchObject({ row: 4, column: 'label::Hausa (ha)', severity: 'note' });
    expect(unsupported.filter((u) => u.severity === 'dropped').map((u) => `${u.sheet}:${u.row}`)).toEqual(['survey:2', 'survey:3', 'survey:5', 'survey:7', 'survey:8', 'survey:10', 'survey:11', 'survey:14', 'survey:15', 'survey:18']);
  });

  it('names every flattened group, with or without a condition, and a group never closed', async () => {
    const res = await importForm(await workbook({
      survey: [
        ['type', 'name', 'label'],
        ['begin group', 'respondent', 'About the respondent'],
        ['text', 'name', 'Name'],
        ['end group', '', ''],
        ['begin_group', 'house', ''],
        ['integer', 'rooms', 'Rooms'],
      ],
    }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().unsupported).toEqual([
      { sheet: 'survey', row: 2, column: 'type', severity: 'note', reason: 'The group "About the respondent" was flattened: its questions were imported as questions of the survey' },
      { sheet: 'survey', row: 5, column: 'type', severity: 'note', reason: 'The group "house" was flattened: its questions were imported as questions of the survey' },
      { sheet: 'survey', row: 5, column: 'type', severity: 'note', reason: 'This group is never closed with "end group"; its questions were imported' },
    ]);
  });

  it('answers a file that is no .xlsx with 415 and what to do, an old binary .xls with "Save the form as .xlsx"', async () => {
    const notXlsx = { msg: ApiMsg.xlsformNotXlsx };
    expect(ApiMsg.xlsformNotXlsx).toBe('Upload an XLSForm saved as .xlsx');
    const pdf = await importForm(Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n'), org.token, 'form.pdf');
    expect([pdf.statusCode, pdf.json()]).toEqual([415, notXlsx]);
    const csv = await importForm(Buffer.from('type,name,label\ntext,name,Name\n'), org.token, 'form.csv');
    expect([csv.statusCode, csv.json()]).toEqual([415, notXlsx]);
    // A zip that is no workbook (a .docx-like archive, an .ods) and a damaged zip.
    const JSZip = (await import('jszip')).default;
    const zip = new JSZip();
    zip.file('word/document.xml', '<w:document/>');
    const docx = await importForm(await zip.generateAsync({ type: 'nodebuffer' }), org.token, 'form.docx');
    expect([docx.statusCode, docx.json()]).toEqual([415, notXlsx]);
    const damaged = await importForm(Buffer.from('PK\u0003\u0004 this is not really a zip file at all'));
    expect([damaged.statusCode, damaged.json()]).toEqual([415, notXlsx]);
    // Excel 97-2003: an OLE2 compound file, recognised by its signature.
    const xls = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(4088, 0)]);
    const old = await importForm(xls, org.token, 'form.xls');
    expect(old.statusCode).toBe(415);
    expect(old.json().msg).toContain('Save the form as .xlsx');
  });

  it('refuses random bytes with 415, a workbook that is no XLSForm and a missing file with 400', async () => {
    const random = await importForm(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
    expect(random.statusCode).toBe(415);
    const noSurvey = await importForm(await workbook({ Sheet1: [['a', 'b'], [1, 2]] }));
    expect(noSurvey.statusCode).toBe(400);
    expect(noSurvey.json()).toEqual({ msg: 'The workbook has no "survey" sheet; is it an XLSForm?' });
    const noType = await importForm(await workbook({ survey: [['name', 'label'], ['a', 'A']] }));
    expect(noType.json()).toEqual({ msg: 'The "survey" sheet needs a "type" and a "name" column in its first row' });
    const json = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/import-xlsform', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ msg: ApiMsg.xlsformMissing });
  });

  it('refuses an 11 MB upload with 413 and says why', async () => {
    const res = await importForm(Buffer.alloc(11 * 1024 * 1024, 0x41));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ msg: ApiMsg.xlsformTooLarge });
    expect(Limits.maxXlsformBytes).toBe(10 * 1024 * 1024);
  });

  it('is for organizations only', async () => {
    const survey = await createSurvey(t.app, org.id);
    const fu = await addMember(t.app, survey.id, org.id);
    const sup = await addMember(t.app, survey.id, org.id, { role: Role.supervisor });
    const form = await householdSurvey();
    expect((await importForm(form, fu.token!)).statusCode).toBe(403);
    expect((await importForm(form, sup.token!)).statusCode).toBe(403);
  });
});
