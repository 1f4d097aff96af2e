import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Limits, Msg, QuestionType, Role } from '@survey-bird/contracts';
import { buildTestApp, call, createUser, login, type TestApp } from '../../../test/helpers.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Survey Makers');
});
afterAll(() => t.close());

const publish = (payload: unknown, token = org.token) => call(t.app, token, { method: 'POST', url: '/api/v1/survey/create', payload: payload as object });
const get = (url: string, token: string | null) => call(t.app, token, { method: 'GET', url: `/api/v1/survey${url}` });
const text = (t: string) => ({ text: t, type: QuestionType.text });

describe('POST /survey/create: validation', () => {
  const cases: [string, unknown, string][] = [
    ['no title', { questions: [text('Q')] }, Msg.provideFormTitle],
    ['a blank title', { title: '   ', questions: [text('Q')] }, Msg.provideFormTitle],
    ['a too long title', { title: 'x'.repeat(Limits.maxTitle + 1), questions: [text('Q')] }, `Title is too long (max ${Limits.maxTitle})`],
    ['a blank question', { title: 'T', questions: [text('   ')] }, ApiMsg.questionTextEmpty],
    ['a too long question', { title: 'T', questions: [text('q'.repeat(Limits.maxQuestionText + 1))] }, `Question text is too long (max ${Limits.maxQuestionText})`],
    ['a select with one option', { title: 'T', questions: [{ text: 'Pick', type: QuestionType.select, options: ['One'] }] }, ApiMsg.optionsMinimum],
    ['a checkbox whose second option is blank', { title: 'T', questions: [{ text: 'Tick', type: QuestionType.checkbox, options: ['One', '  ', ''] }] }, ApiMsg.optionsMinimum],
    ['a files question', { title: 'T', questions: [{ text: 'Upload', type: QuestionType.files }] }, '"files" questions are not available yet'],
    ['two questions with the same text', { title: 'T', questions: [text('Your name'), text(' your NAME ')] }, Msg.duplicateQuestion],
    ['no questions', { title: 'T', questions: [] }, 'Add at least one question'],
    ['an unknown type', { title: 'T', questions: [{ text: 'Q', type: 'essay' }] }, 'Unknown question type'],
    ['a large select without options', { title: 'T', questions: [{ text: 'Ward', type: QuestionType.largeSelect, options: [] }] }, 'Provide the option list for this question'],
    ['a fractional expected count', { title: 'T', expectedResponseCount: 1.5, questions: [text('Q')] }, 'Expected responses must be a whole number'],
  ];
  for (const [name, body, msg] of cases) {
    it(`refuses ${name}: '${msg}'`, async () => {
      const res = await publish(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ msg });
    });
  }

  it('is for organizations only', async () => {
    const fu = await addMember(t.app, (await createSurvey(t.app, org.id)).id, org.id);
    const res = await publish({ title: 'T', questions: [text('Q')] }, fu.token!);
    expect(res.statusCode).toBe(403);
  });
});

describe('POST /survey/create: publishing', () => {
  it("publishes with trimmed options, blanks dropped, and the caller's organization", async () => {
    const res = await publish({
      title: '  Market survey ',
      description: 'Prices',
      expectedResponseCount: 250,
      questions: [
        { text: ' Outlet name ', type: QuestionType.text, compulsory: false, options: ['ignored'] },
        { text: 'Outlet type', type: QuestionType.select, options: [' Kiosk ', '', 'Shop ', '  '] },
        { text: 'Brands', type: QuestionType.checkbox, options: ['A', 'B', 'C'] },
        { text: 'Where', type: QuestionType.liveLocation },
      ],
    });
    expect(res.statusCode).toBe(200);
    const { msg, survey } = res.json();
    expect(msg).toBe('new survey published');
    expect(survey).toMatchObject({ title: 'Market survey', description: 'Prices', organization_id: org.id, expectedResponseCount: 250 });
    expect(survey.questions).toEqual([
      { id: 'q1', text: 'Outlet name', type: QuestionType.text, compulsory: false, options: [] },
      { id: 'q2', text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Shop'] },
      { id: 'q3', text: 'Brands', type: QuestionType.checkbox, compulsory: true, options: ['A', 'B', 'C'] },
      { id: 'q4', text: 'Where', type: QuestionType.liveLocation, compulsory: true, options: [] },
    ]);
    const listed = (await get('/organization?searchQuery=market', org.token)).json();
    expect(listed.survey[0]).toEqual(survey);
  });

  it('keeps a large select out of the survey row: options in dataset_options, the count in the question', async () => {
    const options = ['Agege', ' Ikeja ', '', 'Agege', 'Yaba'];
    const res = await publish({ title: 'Wards', questions: [{ text: 'Ward', type: QuestionType.largeSelect, options }] });
    expect(res.statusCode).toBe(200);
    const { survey } = res.json();
    expect(survey.questions).toEqual([{ id: 'q1', text: 'Ward', type: QuestionType.largeSelect, compulsory: true, options: [], optionCount: 3 }]);
    const rows = await t.app.db.kysely.selectFrom('dataset_options').select(['position', 'value', 'value_lower']).where('survey_id', '=', survey._id).orderBy('position').execute();
    expect(rows).toEqual([
      { position: 0, value: 'Agege', value_lower: 'agege' },
      { position: 1, value: 'Ikeja', value_lower: 'ikeja' },
      { position: 2, value: 'Yaba', value_lower: 'yaba' },
    ]);
  });

  it(`accepts a ${Limits.maxDatasetOptions.toLocaleString()}-option dataset larger than the app-wide body limit`, async () => {
    const options = Array.from({ length: Limits.maxDatasetOptions }, (_, i) => `Polling unit ${String(i).padStart(6, '0')} of a very long ward name, Local Govt Area`);
    const payload = JSON.stringify({ title: 'Every polling unit', questions: [{ text: 'Polling unit', type: QuestionType.largeSelect, options }] });
    expect(payload.length).toBeGreaterThan(12 * 1024 * 1024);
    const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
    const { survey } = res.json();
    expect(survey.questions[0].optionCount).toBe(Limits.maxDatasetOptions);
    const count = await t.app.db.kysely.selectFrom('dataset_options').select((eb) => eb.fn.countAll<number>().as('n')).where('survey_id', '=', survey._id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(Limits.maxDatasetOptions);
  }, 120_000);

  it('refuses more options than the dataset limit', async () => {
    const options = Array.from({ length: Limits.maxDatasetOptions + 1 }, (_, i) => `u${i}`);
    const res = await publish({ title: 'Too many', questions: [{ text: 'Unit', type: QuestionType.largeSelect, options }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: `Too many options (max ${Limits.maxDatasetOptions})` });
  });
});

describe('GET /survey/organization|field-user|supervisor', () => {
  let s: TestApp;
  let a: Awaited<ReturnType<typeof createOrganization>>;
  let b: Awaited<ReturnType<typeof createOrganization>>;
  const ids: string[] = [];
  beforeAll(async () => {
    s = await buildTestApp();
    a = await createOrganization(s.app, 'Org A');
    b = await createOrganization(s.app, 'Org B');
    const base = Date.now() - 1_000_000;
    for (let i = 0; i < Limits.pageSize; i++) ids.push((await createSurvey(s.app, a.id, { title: `Audit ${i}`, createdAt: base + i })).id);
    await createSurvey(s.app, b.id, { title: 'Audit of B' });
  });
  afterAll(() => s.close());
  const list = (role: string, query: string, token: string) => call(s.app, token, { method: 'GET', url: `/api/v1/survey/${role}${query}` });

  it('gives an organization exactly its own surveys, newest first: one full page', async () => {
    const res = await list('organization', '', a.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.survey).toHaveLength(Limits.pageSize);
    expect(body.survey[0]._id).toBe(ids[Limits.pageSize - 1]);
    expect(body.survey.every((x: { organization_id: string }) => x.organization_id === a.id)).toBe(true);
    expect(body).toMatchObject({ page: 1, totalCount: Limits.pageSize, hasNextPage: false, hasPreviousPage: false });
  });

  it('pages on to a last page of one and an empty page beyond', async () => {
    const oldest = await createSurvey(s.app, a.id, { title: 'Oldest audit', createdAt: 1 });
    const first = (await list('organization', '?page=1', a.token)).json();
    expect(first).toMatchObject({ totalCount: Limits.pageSize + 1, hasNextPage: true, hasPreviousPage: false });
    const last = (await list('organization', '?page=2', a.token)).json();
    expect(last.survey.map((x: { _id: string }) => x._id)).toEqual([oldest.id]);
    expect(last).toMatchObject({ page: 2, hasNextPage: false, hasPreviousPage: true });
    expect((await list('organization', '?page=9', a.token)).json()).toMatchObject({ survey: [], hasNextPage: false, hasPreviousPage: true });
  });

  it('searches titles, hits and misses', async () => {
    const hit = (await list('organization', '?searchQuery=audit%2019', a.token)).json();
    expect(hit.survey.map((x: { title: string }) => x.title)).toEqual(['Audit 19']);
    const miss = (await list('organization', '?searchQuery=census', a.token)).json();
    expect(miss).toEqual({ survey: [], page: 1, totalCount: 0, hasNextPage: false, hasPreviousPage: false });
    const otherOrg = (await list('organization', '?searchQuery=of%20B', a.token)).json();
    expect(otherOrg.totalCount).toBe(0);
  });

  it('gives a field user only the surveys they were invited to, as field user', async () => {
    const fu = await addMember(s.app, ids[3]!, a.id, { fullName: 'Invited Ife' });
    await addMember(s.app, ids[5]!, a.id, { email: fu.email });
    const res = (await list('field-user', '', fu.token!)).json();
    expect(res.survey.map((x: { _id: string }) => x._id)).toEqual([ids[5], ids[3]]);
    expect(res.totalCount).toBe(2);
    expect((await list('field-user', '?searchQuery=audit%203', fu.token!)).json().survey).toHaveLength(1);
    expect((await list('organization', '', fu.token!)).statusCode).toBe(403);
  });

  it('finds an invitation by e-mail even before it was linked to the account', async () => {
    await createUser(s.app, 'early@team.ng', Role.fieldUser);
    await addMember(s.app, ids[7]!, a.id, { email: 'early@team.ng', registered: false });
    const res = (await list('field-user', '', await login(s.app, 'early@team.ng'))).json();
    expect(res.survey.map((x: { _id: string }) => x._id)).toEqual([ids[7]]);
  });

  it('gives a supervisor only their surveys, and nothing for a field-user invitation', async () => {
    const sup = await addMember(s.app, ids[9]!, a.id, { role: Role.supervisor });
    const res = (await list('supervisor', '', sup.token!)).json();
    expect(res.survey.map((x: { _id: string }) => x._id)).toEqual([ids[9]]);
    const lonely = await createUser(s.app, 'lonely@team.ng', Role.supervisor);
    expect(lonely.id).toBeTruthy();
    expect((await list('supervisor', '', await login(s.app, 'lonely@team.ng'))).json()).toMatchObject({ survey: [], totalCount: 0 });
  });
});
