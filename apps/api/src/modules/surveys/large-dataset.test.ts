import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Limits, QuestionType, Role } from '@survey-bird/contracts';
import { buildTestApp, call, createUser, login, type TestApp } from '../../../test/helpers.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';

/** 100,000 options of one large select, published through the API, searched the way the phone does. */
const AREAS = ['Ikeja', 'Agege', 'Yaba', 'Surulere', 'Lekki'];
const OPTIONS = [
  'Yaba College',
  'Old Yaba College',
  '100% Ward',
  ...Array.from({ length: 100_000 - 3 }, (_, i) => `${AREAS[i % AREAS.length]} Unit ${i}`),
];

/** What the search must answer: prefix matches alphabetically, then other matches in list order. */
function expected(search: string): string[] {
  const q = search.trim().toLowerCase();
  if (!q) return OPTIONS.slice(0, Limits.datasetSearchLimit);
  const prefix = OPTIONS.filter((o) => o.toLowerCase().startsWith(q)).sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1));
  const inside = OPTIONS.filter((o) => !o.toLowerCase().startsWith(q) && o.toLowerCase().includes(q));
  return [...prefix, ...inside].slice(0, Limits.datasetSearchLimit);
}

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
let fieldUser: string;
let supervisor: string;
let outsider: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Electoral Org');
  other = await createOrganization(t.app, 'Other Org');
  const res = await call(t.app, org.token, {
    method: 'POST',
    url: '/api/v1/survey/create',
    payload: { title: 'Polling units', questions: [{ text: 'Unit', type: QuestionType.largeSelect, options: OPTIONS }, { text: 'Party', type: QuestionType.select, options: ['A', 'B'] }] },
  });
  expect(res.statusCode).toBe(200);
  surveyId = res.json().survey._id;
  fieldUser = (await addMember(t.app, surveyId, org.id)).token!;
  supervisor = (await addMember(t.app, surveyId, org.id, { role: Role.supervisor })).token!;
  const elsewhere = await createSurvey(t.app, org.id, { title: 'Elsewhere' });
  outsider = (await addMember(t.app, elsewhere.id, org.id)).token!;
}, 120_000);
afterAll(() => t.close());

const search = (query: Record<string, string>, token: string | null = org.token) =>
  call(t.app, token, { method: 'GET', url: `/api/v1/survey/large-dataset?${new URLSearchParams(query)}` });
const byId = (searchQuery: string, token?: string) => search({ organization_id: org.id, survey_id: surveyId, question: 'Unit', searchQuery }, token);

describe('GET /survey/large-dataset', () => {
  it('returns prefix matches first, alphabetically, capped at the search limit', async () => {
    const res = await byId('yaba');
    expect(res.statusCode).toBe(200);
    const { options } = res.json();
    expect(options).toHaveLength(Limits.datasetSearchLimit);
    expect(options[0]).toBe('Yaba College');
    expect(options).toEqual(expected('yaba'));
  });

  it('follows the prefix matches with matches inside the text', async () => {
    expect((await byId('yaba col')).json().options).toEqual(['Yaba College', 'Old Yaba College']);
    const inside = (await byId('unit 1234')).json().options;
    expect(inside).toEqual(expected('unit 1234'));
    expect(inside).toHaveLength(11);
  });

  it('ignores case and outer spaces and takes LIKE wildcards literally', async () => {
    expect((await byId('  LEKKI UNIT 9999 ')).json().options).toEqual(expected('lekki unit 9999'));
    expect((await byId('100%')).json().options).toEqual(['100% Ward']);
    expect((await byId('_')).json().options).toEqual([]);
  });

  it('answers a miss with an empty list and an empty search with the start of the list', async () => {
    expect((await byId('zzz')).json()).toEqual({ options: [] });
    expect((await byId('')).json().options).toEqual(OPTIONS.slice(0, Limits.datasetSearchLimit));
  });

  it('agrees with a plain scan for many searches', async () => {
    for (const q of ['i', 'ikeja unit 5', 'agege unit 77', 'unit 99999', 'e unit 1', 'surulere', 'old', '0']) {
      expect((await byId(q)).json().options, q).toEqual(expected(q));
    }
  });

  it('finds the survey by organization and title, as the spec calls it', async () => {
    const res = await search({ organization_id: org.id, title: 'Polling units', question: 'Unit', searchQuery: 'agege unit 12' });
    expect(res.statusCode).toBe(200);
    expect(res.json().options).toEqual(expected('agege unit 12'));
  });

  it('serves invited field users and supervisors', async () => {
    expect((await byId('yaba col', fieldUser)).json().options).toEqual(['Yaba College', 'Old Yaba College']);
    expect((await byId('yaba col', supervisor)).json().options).toEqual(['Yaba College', 'Old Yaba College']);
  });

  it('404s whoever is not on the survey, and never leaks an option', async () => {
    for (const token of [other.token, outsider]) {
      const res = await byId('yaba', token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ msg: ApiMsg.notFound });
    }
    const byTitle = await search({ organization_id: org.id, title: 'Polling units', question: 'Unit', searchQuery: 'yaba' }, other.token);
    expect(byTitle.statusCode).toBe(404);
    const mismatched = await search({ organization_id: other.id, survey_id: surveyId, question: 'Unit', searchQuery: 'yaba' });
    expect(mismatched.statusCode).toBe(404);
  });

  it('404s a question that is not a large select of that survey', async () => {
    expect((await search({ organization_id: org.id, survey_id: surveyId, question: 'Party' })).statusCode).toBe(404);
    expect((await search({ organization_id: org.id, survey_id: surveyId, question: 'Nope' })).statusCode).toBe(404);
  });

  it('asks for survey_id or title, and for the question', async () => {
    const res = await search({ organization_id: org.id, question: 'Unit' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: 'Provide survey_id or title' });
    expect((await search({ organization_id: org.id, survey_id: surveyId })).statusCode).toBe(400);
  });

  it('is refused to master admins', async () => {
    await createUser(t.app, 'root@ds.ng', Role.masterAdmin);
    expect((await byId('yaba', await login(t.app, 'root@ds.ng'))).statusCode).toBe(403);
  });
});

describe('GET /survey/large-dataset/all', () => {
  const all = (query: Record<string, string>, token: string) => call(t.app, token, { method: 'GET', url: `/api/v1/survey/large-dataset/all?${new URLSearchParams(query)}` });

  it('gives a member the whole list in order, for the offline copy', async () => {
    const res = await all({ survey_id: surveyId, question: 'unit' }, fieldUser);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.question).toBe('Unit');
    expect(body.options).toEqual(OPTIONS);
  });

  it('404s outsiders and other questions', async () => {
    expect((await all({ survey_id: surveyId, question: 'Unit' }, outsider)).statusCode).toBe(404);
    expect((await all({ survey_id: surveyId, question: 'Unit' }, other.token)).statusCode).toBe(404);
    expect((await all({ survey_id: surveyId, question: 'Party' }, org.token)).statusCode).toBe(404);
  });
});
