import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, CreateSurveyBody, QuestionType, Role, type XlsformImportReply } from '@survey-bird/contracts';
import { addMember, createOrganization } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { cascadeForm, farmPlotsForm, fromFileForm, householdRosterForm, householdSurvey, legacySpellingForm, marketPriceForm, moreTypesForm, STATES, unsupportedForm, workbook } from '../../../test/xlsforms.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Form makers');
  other = await createOrganization(t.app, 'Another org');
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

async function importForm(data: Buffer, filename?: string): Promise<XlsformImportReply> {
  const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/import-xlsform', ...multipart(data, filename) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

type Draft = XlsformImportReply['draft'];
type DraftQuestion = Draft['questions'][number];
const byId = (draft: Draft) => (id: string): DraftQuestion => {
  const q = draft.questions.find((x) => x.id === id);
  if (!q) throw new Error(`no question ${id}`);
  return q;
};

/** Publishes the draft as the builder would, then downloads the survey's XLSForm. */
async function publishAndExport(draft: Draft): Promise<{ id: string; xlsx: Buffer }> {
  const body = { ...draft, title: `${draft.title} ${randomUUID().slice(0, 6)}` };
  const created = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: body });
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json().survey._id as string;
  const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${id}/xlsform` });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".*\.xlsx"/);
  return { id, xlsx: res.rawPayload };
}

// Imports and exports run in a thread of their own that compiles its TypeScript when run from
// source: seconds each on a loaded machine, and a round trip is three of them.
const SLOW = { timeout: 180_000 };

describe('XLSForm import: the form model', SLOW, () => {
  it('reads the household roster: metadata, a field-list group, a roster repeated per member, a calculated count of children, three languages, settings', async () => {
    const { draft, unsupported } = await importForm(await householdRosterForm());
    const q = byId(draft);
    expect(draft.title).toBe('Household roster 2026');
    expect(draft.languages).toEqual([{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }, { code: 'yo', label: 'Yoruba' }]);
    expect(draft.defaultLanguage).toBe('en');
    expect(draft.questions.map((x) => [x.id, x.type, x.parent ?? null])).toEqual([
      ['start', 'start', null], ['end', 'end', null], ['today', 'today', null], ['deviceid', 'deviceid', null], ['username', 'username', null],
      ['respondent', 'group', null],
      ['hh_head', QuestionType.text, 'respondent'], ['hh_size', QuestionType.number, 'respondent'], ['water', QuestionType.select, 'respondent'], ['water_other', QuestionType.text, 'respondent'],
      ['member', 'repeat', null],
      ['member_name', QuestionType.text, 'member'], ['age', QuestionType.number, 'member'],
      ['schooling', 'group', 'member'], ['in_school', QuestionType.select, 'schooling'], ['school_name', QuestionType.text, 'schooling'],
      ['is_child', 'calculate', 'member'],
      ['children', 'calculate', null], ['summary', QuestionType.note, null], ['gps', QuestionType.liveLocation, null],
    ]);
    expect(q('respondent')).toMatchObject({ text: 'Respondent', appearance: 'field-list', translations: { ha: { text: 'Mai amsa' }, yo: { text: 'Olùdáhùn' } } });
    expect(q('hh_head')).toMatchObject({ compulsory: true, hint: 'As on the ID card', requiredMessage: 'Write the name', constraint: { maxLength: 60, message: 'At most 60 letters' }, translations: { ha: { text: 'Sunan maigida', hint: 'Kamar a katin shaida', constraintMessage: 'Haruffa 60 kawai' } } });
    expect(q('member')).toMatchObject({ text: 'Household member', repeatCount: '${hh_size}' });
    expect(q('schooling').relevantExpr).toBe('${age} >= 5 and ${age} < 18');
    // Inside a repeat a condition stays an expression (the engine reads the member's own answers).
    expect(q('school_name').relevantExpr).toBe("${in_school} = 'yes'");
    expect(q('is_child').calculation).toBe('if(${age} < 18, 1, 0)');
    expect(q('children').calculation).toBe('sum(${is_child})');
    expect(q('summary')).toMatchObject({ text: 'This household has ${children} children', translations: { ha: { text: 'Gidan nan yana da yara ${children}' } } });
    // or_other as ODK: an "other" choice and a specify-other question asked only when it is chosen.
    expect(q('water').options).toEqual(['Piped water', 'Well', 'Borehole', 'Other']);
    expect(q('water').choices?.map((c) => c.name)).toEqual(['tap', 'well', 'borehole', 'other']);
    expect(q('water').choices?.[0]).toEqual({ name: 'tap', label: 'Piped water', labels: { ha: 'Ruwan famfo', yo: 'Omi ẹ̀rọ' } });
    expect(q('water_other')).toMatchObject({ type: QuestionType.text, relevantExpr: "selected(${water}, 'other')", compulsory: false });
    expect(draft.formId).toBe('hh_roster_2026');
    expect(draft.instanceName).toBe("concat(${hh_head}, ' - ', ${today})");
    // Survey Bird numbers versions itself: the form's own is named as not kept.
    expect(unsupported).toEqual([
      { sheet: 'survey', row: 10, column: 'type', severity: 'note', reason: expect.stringContaining('or_other') },
      { sheet: 'settings', row: 2, column: 'version', severity: 'note', reason: 'The version "2026112801" is not kept: Survey Bird numbers each published version itself (the export writes that number)' },
    ]);
    expect(CreateSurveyBody.safeParse(draft).error?.issues ?? []).toEqual([]);
  });

  it('reads farms and plots: a repeat inside a repeat with min and max, range, dateTime, acknowledge, required as an expression, default, read_only, guidance', async () => {
    const { draft, unsupported } = await importForm(await farmPlotsForm());
    const q = byId(draft);
    expect(draft.questions.filter((x) => x.type === 'repeat').map((x) => [x.id, x.parent ?? null, x.repeat ?? null])).toEqual([['farm', null, { min: 1, max: 5 }], ['plot', 'farm', null]]);
    expect(q('plot_size')).toMatchObject({ parent: 'plot', requiredExpr: "${main_crop} = 'rice'", requiredMessage: 'Rice plots need a size', hint: 'Pace it out if there is no map', compulsory: false });
    // A decimal's strict bounds have no structured twin: the expression is kept exactly.
    expect(q('plot_size').constraintExpr).toBe('. > 0 and . < 100');
    expect(q('plot_size').constraint).toBeUndefined();
    expect(q('yield_rating')).toMatchObject({ type: 'range', range: { start: 0, end: 10, step: 2 } });
    expect(q('visit').type).toBe('datetime');
    expect(q('consent')).toMatchObject({ type: 'acknowledge', compulsory: true, guidanceHint: 'Read the consent text aloud first', requiredMessage: 'Consent is needed to go on' });
    expect(q('farm_count')).toMatchObject({ default: '1', constraint: { min: 1, message: 'At least one farm' } });
    expect(q('plot_label')).toMatchObject({ readOnly: true, calculation: "concat(${farm_name}, '-', ${plot_number})" });
    expect(q('plots_total').calculation).toBe('count(${plot})');
    expect(unsupported).toEqual([]);
    expect(CreateSurveyBody.safeParse(draft).error?.issues ?? []).toEqual([]);
  });

  it('reads State -> LGA -> ward on a 774-LGA list: choice filters over the extra choice columns, ward labels repeating across LGAs', async () => {
    const { draft, unsupported } = await importForm(await cascadeForm());
    const q = byId(draft);
    expect(q('state').type).toBe(QuestionType.select);
    expect(q('state').options).toHaveLength(STATES.length);
    expect(q('lga')).toMatchObject({ type: QuestionType.largeSelect, choiceFilter: 'state=${state}' });
    expect(q('lga').choices).toHaveLength(774);
    expect(q('lga').choices?.[0]).toEqual({ name: 'lga_1', label: 'Abia LGA 1', columns: { state: 'abia' } });
    expect(q('ward').choices).toHaveLength(774 * 3);
    expect(q('ward').choices?.filter((c) => c.label === 'Central')).toHaveLength(774);
    expect(q('ward').choices?.[0]).toEqual({ name: 'lga_1_central', label: 'Central', columns: { lga: 'lga_1' } });
    expect(unsupported).toEqual([]);
  });

  it('accepts the legacy spellings pyxform accepts, in any case, skips comment rows and lists an unknown column as a note', async () => {
    const { draft, unsupported } = await importForm(await legacySpellingForm(), 'Legacy.xlsx');
    const q = byId(draft);
    expect(draft.title).toBe('Legacy');
    expect(draft.questions.map((x) => [x.id, x.type, x.parent ?? null, x.compulsory])).toEqual([
      ['about', 'group', null, false],
      ['name', QuestionType.text, 'about', true],
      ['age', QuestionType.number, 'about', true],
      ['sex', QuestionType.select, 'about', false],
      ['crops', QuestionType.checkbox, 'about', false],
      ['where', QuestionType.liveLocation, null, false],
      ['when', 'datetime', null, false],
      ['ok', 'acknowledge', null, false],
      ['sex2', QuestionType.select, null, false],
      ['sex2_other', QuestionType.text, null, false],
      ['rooms', QuestionType.number, null, false],
    ]);
    // `label:English` and `label::hausa`: the first language is the default (no settings sheet).
    expect(draft.languages).toEqual([{ code: 'english', label: 'English' }, { code: 'hausa', label: 'hausa' }]);
    expect(q('name').translations).toEqual({ hausa: { text: 'Sunanka' } });
    expect(q('crops').showIf).toEqual({ combine: 'all', conditions: [{ question: 'age', op: 'greaterThan', value: 15 }] });
    expect(q('sex2').options).toEqual(['Male', 'Female', 'Other']);
    expect(unsupported.map((u) => [u.row, u.column, u.severity])).toEqual([
      [1, 'enumerator_notes', 'note'],
      [12, 'type', 'note'],
    ]);
    expect(unsupported[0]!.reason).toBe('The column "enumerator_notes" is not an XLSForm column Survey Bird reads; its 2 cells were not carried over');
  });

  it('names every row and cell it does not carry: types not in the model, a SIM number, media, a missing list, a bad expression, a name nobody has', async () => {
    const { draft, unsupported } = await importForm(await workbook({
      survey: [
        ['type', 'name', 'label', 'relevant', 'calculation', 'media::image', 'parameters'],
        ['simserial', 'sim', '', '', '', '', ''], // 2
        ['phonenumber', 'phone', '', '', '', '', ''], // 3
        ['audio', 'voice', 'Say it', '', '', '', ''], // 4
        ['video', 'clip', 'Film it', '', '', '', ''], // 5
        ['file', 'doc', 'Attach it', '', '', '', ''], // 6
        ['geoshape', 'field', 'Walk the field', '', '', '', ''], // 7
        ['rank fruits', 'ranked', 'Rank them', '', '', '', ''], // 8
        ['select_one_from_file wards.csv', 'ward', 'Ward', '', '', '', ''], // 9
        ['text', 'name', 'Name', '${nobody} = 1', '', 'face.png', ''], // 10
        ['calculate', 'broken', '', '', 'concat(${name}', '', ''], // 11
        ['image', 'photo', 'Photo', '', '', '', 'max-pixels=1024'], // 12
        ['select_one nolist', 'x', 'X', '', '', '', ''], // 13
      ],
      choices: [['list_name', 'name', 'label'], ['fruits', 'a', 'Apple'], ['fruits', 'b', 'Banana']],
      settings: [['form_title', 'style'], ['Odd form', 'pages']],
      notes: [['anything'], ['here']],
    }));
    // Sound, video, documents, areas and rankings are carried (more-types below); the rest is named.
    expect(draft.questions.map((x) => x.id)).toEqual(['voice', 'clip', 'doc', 'field', 'ranked', 'name', 'broken', 'photo']);
    expect(unsupported.map((u) => `${u.severity} ${u.sheet}:${u.row}:${u.column}`)).toEqual([
      'dropped survey:2:type', 'dropped survey:3:type', 'dropped survey:9:type', 'dropped survey:13:type',
      'changed survey:10:media::image', 'changed survey:10:relevant', 'changed survey:11:calculation', 'changed survey:12:parameters',
      'note settings:2:style', 'note notes:1:',
    ]);
    const reason = (row: number) => unsupported.find((u) => u.row === row && u.sheet === 'survey')!.reason;
    expect(reason(2)).toBe('"simserial" is not available in a browser (a web app cannot read the SIM or the phone number)');
    expect(reason(3)).toContain('not available in a browser');
    expect(unsupported.find((u) => u.column === 'relevant')!.reason).toContain('${nobody}');
  });

  it('carries lines, areas, rankings, sound, video and documents in every spelling, reporting nothing', async () => {
    const { draft, unsupported } = await importForm(await moreTypesForm());
    expect(unsupported).toEqual([]);
    expect(draft.questions.map((x) => [x.id, x.type])).toEqual([
      ['route', 'geotrace'], ['plot', 'geoshape'], ['road', 'geotrace'], ['ranked', 'rank'], ['ranked2', 'rank'],
      ['voice', 'audio'], ['clip', 'video'], ['deed', 'file'], ['score', 'range'], ['visit', 'datetime'],
    ]);
    const ranked = draft.questions.find((x) => x.id === 'ranked')!;
    expect(ranked.choices?.map((c) => c.name)).toEqual(['water', 'roads', 'schools']);
    expect(draft.questions.find((x) => x.id === 'route')!.compulsory).toBe(true);
    expect(draft.questions.find((x) => x.id === 'score')!.range).toEqual({ start: 0, end: 10, step: 2 });
  });

  it('reads lists from the CSV files sent with the form: a large list filtered by a CSV column, a multiple choice with translations, a missing file named', async () => {
    const { form, files } = await fromFileForm();
    const boundary = `----sb${randomUUID()}`;
    const part = (name: string, type: string, data: Buffer) => Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`), data, Buffer.from('\r\n')]);
    const payload = Buffer.concat([part('farms.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', form), ...files.map((f) => part(f.name, 'text/csv', Buffer.from(f.text))), Buffer.from(`--${boundary}--\r\n`)]);
    const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/import-xlsform', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode, res.body).toBe(200);
    const { draft, unsupported } = res.json() as XlsformImportReply;
    expect(draft.questions.map((q) => [q.id, q.type])).toEqual([['lga', 'select'], ['ward', 'select (> 50 dataset)'], ['crops', 'checkbox']]);
    const ward = draft.questions.find((q) => q.id === 'ward')!;
    expect(ward.choices).toHaveLength(60);
    expect(ward.choices![31]).toMatchObject({ name: 'ward_32', label: 'Ward 32', columns: { lga: 'nassarawa' } });
    expect(ward.choiceFilter).toBe('lga=${lga}');
    expect(draft.questions.find((q) => q.id === 'crops')!.choices).toEqual([
      { name: 'maize', label: 'Maize', labels: { ha: 'Masara' } },
      { name: 'sorghum', label: 'Sorghum', labels: { ha: 'Dawa' } },
      { name: 'groundnut', label: 'Groundnut, shelled', labels: { ha: 'Gyada' } },
    ]);
    expect(unsupported).toEqual([{ sheet: 'survey', row: 5, column: 'type', reason: 'The list file "markets.csv" was not uploaded with the form: choose it beside the XLSForm', severity: 'dropped' }]);

    // Published, the ward list is a large dataset the phone searches like any other.
    const { id } = await publishAndExport(draft);
    const found = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/large-dataset?organization_id=${org.id}&survey_id=${id}&question=Ward&searchQuery=Ward%2032` });
    expect(found.statusCode, found.body).toBe(200);
    expect(JSON.stringify(found.json())).toContain('Ward 32');
  });

  it('names a list file without a "name" column, and the question it would have fed', async () => {
    const { form } = await fromFileForm();
    const boundary = `----sb${randomUUID()}`;
    const part = (name: string, data: Buffer) => Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), data, Buffer.from('\r\n')]);
    const payload = Buffer.concat([part('farms.xlsx', form), part('wards.csv', Buffer.from('code,title\nw1,Ward 1\n')), Buffer.from(`--${boundary}--\r\n`)]);
    const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/import-xlsform', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode, res.body).toBe(200);
    const { unsupported } = res.json() as XlsformImportReply;
    expect(unsupported).toContainEqual({ sheet: 'wards.csv', row: 1, column: 'name', reason: 'The list file "wards.csv" needs a "name" column in its first row (and a "label" column); it was not read', severity: 'dropped' });
    expect(unsupported).toContainEqual({ sheet: 'survey', row: 3, column: 'type', reason: 'The list file "wards.csv" has no choices', severity: 'dropped' });
  });

  it('refuses an old binary .xls with 415 "Save the form as .xlsx"', async () => {
    const xls = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(4088, 0)]);
    const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/import-xlsform', ...multipart(xls, 'form.xls') });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ msg: ApiMsg.xlsformOldXls });
    expect(ApiMsg.xlsformOldXls).toContain('Save the form as .xlsx');
  });
});

describe('GET /survey/:id/xlsform: round trip', SLOW, () => {
  const fixtures = { householdRosterForm, farmPlotsForm, cascadeForm, legacySpellingForm, householdSurvey, marketPriceForm, unsupportedForm, moreTypesForm };
  for (const [name, make] of Object.entries(fixtures)) {
    it(`${name}: import -> publish -> export -> import gives the same questions and languages`, async () => {
      const first = await importForm(await make());
      const { xlsx } = await publishAndExport(first.draft);
      const second = await importForm(xlsx);
      expect(second.draft.questions).toEqual(first.draft.questions);
      expect(second.draft.languages).toEqual(first.draft.languages);
      expect(second.draft.defaultLanguage).toEqual(first.draft.defaultLanguage);
      expect(second.draft.instanceName).toEqual(first.draft.instanceName);
      // What the export writes is all read back: nothing lost or changed on the way.
      expect(second.unsupported.filter((u) => u.severity !== 'note')).toEqual([]);
    });
  }

  it('downloads a builder-made survey (conditions, constraints, its own types) as an XLSForm that imports back to the same questions', async () => {
    const questions = [
      { id: 'outlet', text: 'Name of outlet', type: QuestionType.text, compulsory: true, constraint: { minLength: 2, maxLength: 80, message: 'Two to 80 letters' } },
      { id: 'kind', text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Shop', "Mama's stall"] },
      { id: 'goods', text: 'Goods sold', type: QuestionType.checkbox, compulsory: false, options: ['Rice', 'Beans'], showIf: { combine: 'any', conditions: [{ question: 'kind', op: 'equals', value: 'Kiosk' }, { question: 'kind', op: 'equals', value: "Mama's stall" }] } },
      { id: 'staff', text: 'Staff', type: QuestionType.number, compulsory: false, constraint: { min: 0, max: 50 } },
      { id: 'opened', text: 'Opened on', type: QuestionType.date, compulsory: false, constraint: { min: '2000-01-01', notInFuture: true } },
      { id: 'opens_at', text: 'Opens at', type: QuestionType.time, compulsory: false, constraint: { min: '06:00', max: '12:00' } },
      { id: 'phone', text: 'Phone number', type: QuestionType.phone, compulsory: false, showIf: { combine: 'all', conditions: [{ question: 'staff', op: 'greaterThan', value: 2 }, { question: 'outlet', op: 'answered' }] } },
      { id: 'mail', text: 'E-mail', type: QuestionType.email, compulsory: false },
      { id: 'sign', text: 'Signature', type: QuestionType.signature, compulsory: true },
      { id: 'shelf', text: 'Shelf photo', type: QuestionType.liveImages, compulsory: true },
      { id: 'front', text: 'Front photo', type: QuestionType.image, compulsory: false, showIf: { combine: 'all', conditions: [{ question: 'goods', op: 'includes', value: 'Rice' }] } },
      { id: 'where', text: 'Location', type: QuestionType.liveLocation, compulsory: true },
      { id: 'bye', text: 'Thank them', type: QuestionType.note, compulsory: false },
    ];
    const created = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Outlet census', questions } });
    expect(created.statusCode, created.body).toBe(200);
    const stored = created.json().survey as { _id: string; questions: DraftQuestion[] };
    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${stored._id}/xlsform` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="Outlet census.xlsx"');
    const back = await importForm(res.rawPayload);
    expect(back.draft.title).toBe('Outlet census');
    expect(back.draft.questions).toEqual(stored.questions);
    expect(back.unsupported.map((u) => `${u.sheet}:${u.column}`)).toEqual(['settings:version']);
  });

  it('keeps what the builder makes of the form model through create, edit (version 2), versions and the XLSForm: a calculation, a cascade, expressions, Hausa', async () => {
    // As the builder publishes them: choices named by their labels, filter columns, translations of every text.
    const questions = [
      { id: 'adults', text: 'Adults', type: QuestionType.number, compulsory: true, hint: 'Aged 18 and over', constraintExpr: '. >= 1 or ${kids} > 0', constraintMessage: 'At least one adult', translations: { ha: { text: 'Manya', hint: 'Shekaru 18 zuwa sama', constraintMessage: 'Akalla babba daya' } } },
      { id: 'kids', text: 'Children', type: QuestionType.number, compulsory: false, requiredExpr: '${adults} > 0', relevantExpr: '${adults} >= 1' },
      { id: 'people', text: 'People', type: QuestionType.calculate, calculation: '${adults} + coalesce(${kids}, 0)' },
      { id: 'total', text: 'Household of ${people}', type: QuestionType.note, translations: { ha: { text: 'Iyali na ${people}' } } },
      { id: 'state', text: 'State', type: QuestionType.select, compulsory: true, options: ['Kano', 'Lagos'], choices: [{ name: 'Kano', label: 'Kano' }, { name: 'Lagos', label: 'Lagos', labels: { ha: 'Legas' } }] },
      { id: 'lga', text: 'LGA', type: QuestionType.select, compulsory: true, options: ['Nassarawa', 'Ikeja', 'Epe'], choiceFilter: 'state = ${state}', choices: [{ name: 'Nassarawa', label: 'Nassarawa', columns: { state: 'Kano' } }, { name: 'Ikeja', label: 'Ikeja', columns: { state: 'Lagos' } }, { name: 'Epe', label: 'Epe', columns: { state: 'Lagos' } }] },
    ];
    const languages = [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }];
    const created = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: `Built household ${randomUUID().slice(0, 6)}`, questions, languages, defaultLanguage: 'en' } });
    expect(created.statusCode, created.body).toBe(200);
    const first = created.json().survey as { _id: string; questions: DraftQuestion[]; languages?: unknown; defaultLanguage?: string };
    expect(first.languages).toEqual(languages);
    expect(first.defaultLanguage).toBe('en');
    const byQ = new Map(first.questions.map((q) => [q.id, q]));
    expect(byQ.get('people')).toMatchObject({ calculation: '${adults} + coalesce(${kids}, 0)', compulsory: false });
    expect(byQ.get('lga')).toMatchObject({ choiceFilter: 'state = ${state}', choices: questions[5]!.choices });
    expect(byQ.get('adults')).toMatchObject({ translations: questions[0]!.translations, constraintExpr: '. >= 1 or ${kids} > 0' });

    // The builder edits it: a choice filter changed, a Hausa hint added.
    const changed = first.questions.map((q) => (q.id === 'lga' ? { ...q, choiceFilter: "state = ${state} or ${state} = ''" } : q.id === 'kids' ? { ...q, hint: 'Under 18', translations: { ha: { hint: 'Kasa da 18' } } } : q));
    const edited = await call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${first._id}`, payload: { title: 'Built household (v2)', questions: changed, languages, defaultLanguage: 'en' } });
    expect(edited.statusCode, edited.body).toBe(200);
    const versions = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${first._id}/versions` })).json() as { versions: { version: number; questions: DraftQuestion[]; defaultLanguage?: string; languages?: unknown }[] };
    expect(versions.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions.versions[0]!.defaultLanguage).toBe('en');
    expect(versions.versions[0]!.questions.find((q) => q.id === 'kids')).toMatchObject({ hint: 'Under 18', translations: { ha: { hint: 'Kasa da 18' } }, requiredExpr: '${adults} > 0' });
    expect(versions.versions[0]!.questions.find((q) => q.id === 'lga')!.choiceFilter).toBe("state = ${state} or ${state} = ''");
    expect(versions.versions[1]!.questions).toEqual(first.questions);

    // The download imports back to the same survey.
    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${first._id}/xlsform` });
    expect(res.statusCode).toBe(200);
    const back = await importForm(res.rawPayload);
    expect(back.draft.questions).toEqual(versions.versions[0]!.questions);
    expect(back.draft.languages).toEqual(languages);
    expect(back.draft.defaultLanguage).toBe('en');
  });

  it('exports a large select stored apart (its options in the dataset table) with every option', async () => {
    const { draft } = await importForm(await marketPriceForm());
    const { xlsx } = await publishAndExport(draft);
    const back = await importForm(xlsx);
    expect(back.draft.questions.find((q) => q.id === 'commodity')!.options).toHaveLength(300);
  });

  it("is the owning organization's only: another organization gets 404, a field user and a supervisor 403, an unknown id 404", async () => {
    const { draft } = await importForm(await farmPlotsForm());
    const { id } = await publishAndExport(draft);
    const get = (token: string, survey = id) => call(t.app, token, { method: 'GET', url: `/api/v1/survey/${survey}/xlsform` });
    expect((await get(other.token)).statusCode).toBe(404);
    expect((await get(org.token, randomUUID())).statusCode).toBe(404);
    const fu = await addMember(t.app, id, org.id);
    const sup = await addMember(t.app, id, org.id, { role: Role.supervisor });
    expect((await get(fu.token!)).statusCode).toBe(403);
    expect((await get(sup.token!)).statusCode).toBe(403);
  });
});
