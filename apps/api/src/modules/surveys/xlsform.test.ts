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
  it('imports the household survey: types, required, English labels, constraints, relevance, the group an entry its members name', async () => {
    const res = await importForm(await householdSurvey());
    expect(res.statusCode, res.body).toBe(200);
    const { draft, unsupported } = res.json() as XlsformImportReply;
    expect(draft.title).toBe('Household survey 2026');
    expect(unsupported).toEqual([]);
    expect(draft.questions.map((q) => [q.id, q.type, q.compulsory, q.parent ?? null])).toEqual([
      ['hh_head', QuestionType.text, true, null],
      ['hh_size', QuestionType.number, true, null],
      ['has_children', QuestionType.select, true, null],
      ['children', 'group', false, null],
      ['children_count', QuestionType.number, true, 'children'],
      ['vaccines', QuestionType.checkbox, false, 'children'],
      ['water', QuestionType.select, true, null],
      ['water_other', QuestionType.text, false, null],
      ['income', QuestionType.decimal, false, null],
      ['visit_date', QuestionType.date, true, null],
      ['visit_time', QuestionType.time, false, null],
      ['gps', QuestionType.liveLocation, false, null],
      ['house_photo', QuestionType.image, false, null],
      ['thanks', QuestionType.note, false, null],
      ['card', QuestionType.barcode, false, null],
    ]);
    const q = (id: string) => draft.questions.find((x) => x.id === id)!;
    expect(q('hh_head')).toMatchObject({ text: 'Name of the household head', constraint: { maxLength: 60, message: 'At most 60 letters' } });
    expect(q('hh_size').constraint).toEqual({ min: 1, max: 30, message: 'Between 1 and 30' });
    // `. > 0 and . < 15` on a whole number is exactly 1..14.
    expect(q('children_count').constraint).toEqual({ min: 1, max: 14 });
    expect(q('visit_date').constraint).toEqual({ notInFuture: true, message: 'Not in the future' });
    expect(q('has_children').options).toEqual(['Yes', 'No']);
    expect(q('has_children').choices).toEqual([{ name: 'yes', label: 'Yes' }, { name: 'no', label: 'No' }]);
    // The group's relevance is the group's own; a condition on a list with names stays an expression on the names.
    expect(q('children').relevantExpr).toBe("${has_children} = 'yes'");
    expect(q('vaccines').showIf).toEqual({ combine: 'all', conditions: [{ question: 'children_count', op: 'greaterThan', value: 1 }] });
    expect(q('water_other').relevantExpr).toBe("${water} = 'other'");
    expect(q('income').relevantExpr).toBe("${hh_size} > 2 or selected(${vaccines}, 'bcg')");
    expect(q('card').relevantExpr).toBe("${has_children} != 'no'");
    expect(draft.languages).toEqual([{ code: 'en', label: 'English' }]);
    // The draft publishes as it is.
    expect(CreateSurveyBody.safeParse(draft).error?.issues ?? []).toEqual([]);
    // Nothing was published.
    expect(await t.app.db.kysely.selectFrom('surveys').select('id').where('organization_id', '=', org.id).execute()).toEqual([]);
  });

  it("imports the market price form: a 300-choice list becomes a large dataset; a decimal's strict bounds stay an expression", async () => {
    const res = await importForm(await marketPriceForm(), org.token, 'Market prices.xlsx');
    expect(res.statusCode, res.body).toBe(200);
    const { draft, unsupported } = res.json() as XlsformImportReply;
    expect(draft.title).toBe('Market prices');
    const q = (id: string) => draft.questions.find((x) => x.id === id)!;
    expect(q('commodity').type).toBe(QuestionType.largeSelect);
    expect(q('commodity').options).toHaveLength(300);
    expect(q('commodity').options.slice(0, 2)).toEqual(['Commodity 001', 'Commodity 002']);
    expect(q('units')).toMatchObject({ type: QuestionType.checkbox, options: ['Kilogram', 'Bag'] });
    expect(q('price').constraintExpr).toBe('. > 0 and . < 1000000');
    expect(q('trader').constraint).toEqual({ minLength: 2 });
    expect(unsupported).toEqual([]);
    expect(CreateSurveyBody.safeParse(draft).error?.issues ?? []).toEqual([]);
  });

  it('lists every row and cell of the unsupported form it did not carry over, and carries the rest', async () => {
    const res = await importForm(await unsupportedForm());
    expect(res.statusCode, res.body).toBe(200);
    const { draft, unsupported } = res.json() as XlsformImportReply;
    expect(draft.questions.map((q) => q.id)).toEqual(['start', 'deviceid', 'name', 'double', 'age', 'members', 'member_name', 'score', 'state', 'lga2', 'route', 'voice', 'later', 'final']);
    expect(unsupported.map((u) => `${u.severity} ${u.sheet}:${u.row}:${u.column}`)).toEqual([
      'dropped survey:11:type', 'dropped survey:18:type',
      'changed choices:2:media::image',
    ]);
    for (const u of unsupported) expect(u.reason.length).toBeGreaterThan(10);
    const q = (id: string) => draft.questions.find((x) => x.id === id)!;
    expect(q('name')).toMatchObject({ hint: 'Full name', requiredMessage: 'Please answer', constraintExpr: 'regex(., "^[A-Z]")', appearance: 'multiline', default: 'Ada', translations: { ha: { text: 'Sunanka' } } });
    expect(q('double').calculation).toBe('${age} * 2');
    expect(q('age')).toMatchObject({ relevantExpr: "${name} = 'x' and ${name} != 'y' or ${name} = 'z'", constraintExpr: '. >= 0 or . = -1' });
    expect(q('lga2')).toMatchObject({ choiceFilter: 'state=${state}', choices: [{ name: 'ikeja', label: 'Ikeja', columns: { state: 'lagos' } }, { name: 'nassarawa', label: 'Nassarawa', columns: { state: 'kano' } }] });
    expect(q('later').relevantExpr).toBe('${final} > 3');
    expect(draft.languages).toEqual([{ code: 'default', label: 'Default' }, { code: 'ha', label: 'Hausa' }]);
  });

  it('orders the report by what it cost: dropped questions, then changed ones, then notes', async () => {
    const res = await importForm(await workbook({
      survey: [
        ['type', 'name', 'label', 'audio', 'comments'],
        ['text', 'a', 'A', '', 'fine'],
        ['background-audio', 'b', 'B', '', ''],
        ['text', 'c', 'C', 'c.mp3', ''],
      ],
    }));
    const { unsupported } = res.json() as XlsformImportReply;
    expect(unsupported.map((u) => [u.severity, u.row, u.column])).toEqual([['dropped', 3, 'type'], ['changed', 4, 'audio'], ['note', 1, 'comments']]);
  });

  it('names a group without a label, a group never closed, an end that closes nothing', async () => {
    const res = await importForm(await workbook({
      survey: [
        ['type', 'name', 'label'],
        ['end group', '', ''],
        ['begin group', 'respondent', 'About the respondent'],
        ['text', 'name', 'Name'],
        ['end group', '', ''],
        ['begin_group', 'house', ''],
        ['integer', 'rooms', 'Rooms'],
      ],
    }));
    expect(res.statusCode, res.body).toBe(200);
    const { draft, unsupported } = res.json() as XlsformImportReply;
    expect(draft.questions.map((q) => [q.id, q.text, q.parent ?? null])).toEqual([['respondent', 'About the respondent', null], ['name', 'Name', 'respondent'], ['house', 'house', null], ['rooms', 'Rooms', 'house']]);
    expect(unsupported).toEqual([
      { sheet: 'survey', row: 2, column: 'type', severity: 'note', reason: '"end group" closes nothing; it was ignored' },
      { sheet: 'survey', row: 6, column: 'label', severity: 'note', reason: 'The group "house" has no label; its name is its title' },
      { sheet: 'survey', row: 6, column: 'type', severity: 'note', reason: 'The group "house" is never closed; it ends with the form' },
    ]);
  });

  it('answers a file that is no .xlsx with 415 and what to do, an old binary .xls with "Save the form as .xlsx"', async () => {
    const notXlsx = { msg: ApiMsg.xlsformNotXlsx, code: 'xlsformNotXlsx' };
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
    expect(noSurvey.json()).toMatchObject({ msg: 'The workbook has no "survey" sheet; is it an XLSForm?' });
    const noType = await importForm(await workbook({ survey: [['name', 'label'], ['a', 'A']] }));
    expect(noType.json()).toMatchObject({ msg: 'The "survey" sheet needs a "type" and a "name" column in its first row' });
    const json = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/import-xlsform', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ msg: ApiMsg.xlsformMissing });
  });

  it('refuses an 11 MB upload with 413 and says why', async () => {
    const res = await importForm(Buffer.alloc(11 * 1024 * 1024, 0x41));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ msg: ApiMsg.xlsformTooLarge });
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
