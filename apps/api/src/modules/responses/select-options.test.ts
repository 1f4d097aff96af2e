import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, RuleMsg } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

// Every select, checkbox and large select answer is one of the options of the version the phone
// filled it against: on the single route, the batch route and a fix, with a message naming the question.
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
let member: Awaited<ReturnType<typeof addMember>>;

const WARDS = Array.from({ length: 60 }, (_, i) => `Ward ${i + 1}`);
const questions = (married: string[], wards: string[]) => [
  { id: 'married', text: 'Are you married?', type: QuestionType.select, options: married },
  { id: 'brands', text: 'Brands stocked', type: QuestionType.checkbox, compulsory: false, options: ['Alpha', 'Beta', 'Gamma'] },
  { id: 'ward', text: 'Ward', type: QuestionType.largeSelect, compulsory: false, options: wards },
];
const notAnOption = (question: string) => ({ msg: `"${question}": ${RuleMsg.notAnOption}`, code: 'rule.notAnOption' });

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Option Keepers');
  const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Households', questions: questions(['Yes', 'No', 'Maybe'], WARDS) } });
  expect(res.statusCode, res.body).toBe(200);
  surveyId = res.json().survey._id;
  member = await addMember(t.app, surveyId, org.id, { fullName: 'Ngozi Eze' });
});
afterAll(() => t.close());

const body = (answers: Record<string, unknown>, extra: object = {}) => ({ survey_id: surveyId, organization_id: org.id, answers, clientId: uuidv7(), ...extra });
const respond = (payload: object) => call(t.app, member.token, { method: 'POST', url: '/api/v1/survey/respond', payload });
const sync = (items: object[]) => call(t.app, member.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: items } });

describe('select and checkbox answers', () => {
  it('refuses an answer that is not one of the options, naming the question, on the single and the batch routes', async () => {
    const bad = await respond(body({ 'Are you married?': 'maybe<script>' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(notAnOption('Are you married?'));
    const badChoice = await respond(body({ 'Are you married?': 'Yes', 'Brands stocked': ['Alpha', 'Omega'] }));
    expect(badChoice.json()).toEqual(notAnOption('Brands stocked'));
    // Options are compared as they are: another case or outer spaces is not the option.
    expect((await respond(body({ 'Are you married?': 'yes' }))).statusCode).toBe(400);
    expect((await respond(body({ 'Are you married?': 'Yes', 'Brands stocked': ['Alpha', 'Gamma'] }))).statusCode).toBe(200);

    const batch = await sync([body({ 'Are you married?': 'No' }), body({ 'Are you married?': 'Perhaps' }), body({ 'Are you married?': 'No', 'Brands stocked': ['beta'] })]);
    expect(batch.json().results.map((r: { status: number; msg: string }) => [r.status, r.msg])).toEqual([
      [200, 'response sent!'],
      [400, notAnOption('Are you married?').msg],
      [400, notAnOption('Brands stocked').msg],
    ]);
  });

  it('checks a large select against its dataset, however large', async () => {
    expect((await respond(body({ 'Are you married?': 'No', Ward: 'Ward 60' }))).statusCode).toBe(200);
    const bad = await respond(body({ 'Are you married?': 'No', Ward: 'Ward 61' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(notAnOption('Ward'));
    expect((await respond(body({ 'Are you married?': 'No', Ward: 'ward 60' }))).statusCode).toBe(400);
    const batch = await sync([body({ 'Are you married?': 'No', Ward: 'Ward 1' }), body({ 'Are you married?': 'No', Ward: '<script>' }), body({ 'Are you married?': 'Yes', Ward: 'Ward 2' })]);
    expect(batch.json().results.map((r: { status: number }) => r.status)).toEqual([200, 400, 200]);
  });

  it('checks each answer against its own version: a phone on an older list is still taken', async () => {
    const survey = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Versioned options', questions: questions(['Yes', 'No', 'Maybe'], WARDS) } });
    const id = survey.json().survey._id as string;
    const fu = await addMember(t.app, id, org.id);
    const put = (married: string[], wards: string[]) => call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${id}`, payload: { title: 'Versioned options', questions: questions(married, wards) } });
    expect((await put(['Yes', 'No'], WARDS.slice(0, 50).concat(['New ward A', 'New ward B']))).statusCode).toBe(200);
    // Version 3 changes only the select: version 2's list stays the current one.
    expect((await put(['Yes', 'No', 'Divorced'], WARDS.slice(0, 50).concat(['New ward A', 'New ward B']))).statusCode).toBe(200);
    const send = (version: number, answers: Record<string, unknown>) => call(t.app, fu.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: id, organization_id: org.id, answers, clientId: uuidv7(), version } });

    expect((await send(1, { 'Are you married?': 'Maybe', Ward: 'Ward 55' })).statusCode).toBe(200);
    expect((await send(2, { 'Are you married?': 'Maybe' })).json()).toEqual(notAnOption('Are you married?'));
    expect((await send(2, { 'Are you married?': 'No', Ward: 'Ward 55' })).json()).toEqual(notAnOption('Ward'));
    expect((await send(1, { 'Are you married?': 'No', Ward: 'New ward A' })).json()).toEqual(notAnOption('Ward'));
    expect((await send(2, { 'Are you married?': 'No', Ward: 'New ward A' })).statusCode).toBe(200);
    expect((await send(3, { 'Are you married?': 'Divorced', Ward: 'New ward B' })).statusCode).toBe(200);
    expect((await send(3, { 'Are you married?': 'Maybe' })).statusCode).toBe(400);
  });

  it('refuses a fix (revision) whose answer is not an option', async () => {
    const sent = await respond(body({ 'Are you married?': 'Yes' }));
    const id = sent.json()._id as string;
    expect((await call(t.app, org.token, { method: 'POST', url: '/api/v1/responses/review', payload: { responseIds: [id], status: 'returned', comment: 'Check the answer' } })).json().results[0].status).toBe(200);
    const fix = await respond(body({ 'Are you married?': 'Yes, twice' }, { revisionOf: id }));
    expect(fix.statusCode).toBe(400);
    expect(fix.json()).toEqual(notAnOption('Are you married?'));
    const batchFix = await sync([body({ 'Are you married?': 'No', Ward: 'Nowhere' }, { revisionOf: id })]);
    expect(batchFix.json().results[0]).toMatchObject({ status: 400, msg: notAnOption('Ward').msg });
    expect((await respond(body({ 'Are you married?': 'No' }, { revisionOf: id }))).statusCode).toBe(200);
  });
});
