import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg, QuestionType, RuleMsg, type Survey } from '@survey-bird/contracts';
import { addMember, createOrganization } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

// Typed questions, show-if and constraints, published through the API and enforced on
// every response and batch item by the contracts' evaluator.
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: Survey;
let member: Awaited<ReturnType<typeof addMember>>;

const QUESTIONS = [
  { id: 'a', text: 'Are you married?', type: QuestionType.select, options: ['Yes', 'No'] },
  { id: 'b', text: "Spouse's name", type: QuestionType.text, compulsory: true, showIf: { conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } },
  { id: 'c', text: 'Age', type: QuestionType.number, constraint: { min: 0, max: 120 } },
  { text: 'Phone', type: QuestionType.phone, compulsory: false },
  { text: 'E-mail', type: QuestionType.email, compulsory: false },
  { text: 'Visit date', type: QuestionType.date, compulsory: false, constraint: { notInFuture: true } },
  { text: 'Visit time', type: QuestionType.time, compulsory: false },
  { text: 'Weight (kg)', type: QuestionType.decimal, compulsory: false, constraint: { min: 0.5, max: 300, message: 'Weigh again' } },
  { text: 'Read this first', type: QuestionType.note },
  { text: 'Signature', type: QuestionType.signature, compulsory: false },
  { text: 'Meter code', type: QuestionType.barcode, compulsory: false, constraint: { maxLength: 8 } },
  { text: 'Remarks', type: 'short answer', compulsory: false, constraint: { minLength: 3 } },
];

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Rule Makers');
  const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Household', questions: QUESTIONS } });
  expect(res.statusCode).toBe(200);
  survey = res.json().survey;
  member = await addMember(t.app, survey._id, org.id, { fullName: 'Ngozi Eze' });
});
afterAll(() => t.close());

const body = (answers: Record<string, unknown>) => ({ survey_id: survey._id, organization_id: org.id, answers, clientId: randomUUID() });
const respond = (answers: Record<string, unknown>) => call(t.app, member.token, { method: 'POST', url: '/api/v1/survey/respond', payload: body(answers) });
const sync = (items: unknown[]) => call(t.app, member.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: items } });
const base = { 'Are you married?': 'No', Age: '34' };
const stored = async (clientId: string) => JSON.parse((await t.app.db.kysely.selectFrom('responses').select('answers').where('client_id', '=', clientId).executeTakeFirstOrThrow()).answers);

describe('publishing typed questions and rules', () => {
  it('stores ids, rules, the alias as "text answer", and a note as never compulsory', () => {
    const byText = Object.fromEntries(survey.questions.map((q) => [q.text, q]));
    expect(byText["Spouse's name"]).toMatchObject({ id: 'b', showIf: { combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } });
    expect(byText['Age']).toMatchObject({ id: 'c', type: 'number', constraint: { min: 0, max: 120 } });
    expect(byText['Phone']!.id).toBe('q4');
    expect(byText['Remarks']!.type).toBe(QuestionType.text);
    expect(byText['Read this first']!.compulsory).toBe(false);
    expect(byText['Phone']).not.toHaveProperty('showIf');
    expect(new Set(survey.questions.map((q) => q.id)).size).toBe(QUESTIONS.length);
  });

  it('refuses a condition on a later question and a constraint that does not fit, naming the question', async () => {
    const publish = (questions: unknown[]) => call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Bad', questions } });
    let res = await publish([{ id: 'x', text: 'First', type: 'text answer', showIf: { conditions: [{ question: 'y', op: 'answered' }] } }, { id: 'y', text: 'Second', type: 'text answer' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: '"First": A condition can only use an earlier question' });
    res = await publish([{ text: 'Name', type: 'text answer', constraint: { min: 1 } }]);
    expect(res.json()).toMatchObject({ msg: 'Min and max apply to number, decimal, date and time questions, not "text answer"' });
  });

  it('lists the survey with its ids and rules for the field user', async () => {
    const res = await call(t.app, member.token, { method: 'GET', url: '/api/v1/survey/field-user' });
    const listed = res.json().survey.find((s: Survey) => s._id === survey._id);
    expect(listed.questions).toEqual(survey.questions);
  });
});

describe('responses against the rules, single', () => {
  it('refuses an answer to a hidden question, naming it', async () => {
    const res = await respond({ ...base, "Spouse's name": 'Ada' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: `"Spouse's name": ${RuleMsg.hidden}` });
  });

  it('never needs a compulsory hidden question, and needs it once shown', async () => {
    expect((await respond(base)).statusCode).toBe(200);
    expect((await respond({ ...base, 'Are you married?': 'Yes' })).json()).toMatchObject({ msg: Msg.fillCompulsory });
    expect((await respond({ ...base, 'Are you married?': 'Yes', "Spouse's name": 'Ada' })).statusCode).toBe(200);
  });

  it('refuses 150 for a 0-120 number with the constraint message', async () => {
    const res = await respond({ ...base, Age: '150' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: '"Age": Must be between 0 and 120' });
  });

  const cases: [string, string, string | null][] = [
    ['Age', '12.5', RuleMsg.whole],
    ['Age', 'ten', RuleMsg.whole],
    ['Age', '120', null],
    ['Phone', '0803 123 4567', null],
    ['Phone', '12345', RuleMsg.phone],
    ['E-mail', 'ada@example.ng', null],
    ['E-mail', 'ada@', RuleMsg.email],
    ['Visit date', '2026-02-30', RuleMsg.date],
    ['Visit date', '2020-05-01', null],
    ['Visit date', '2999-01-01', RuleMsg.notInFuture],
    ['Visit time', '14:30', null],
    ['Visit time', '25:00', RuleMsg.time],
    ['Weight (kg)', '72.5', null],
    ['Weight (kg)', '0.1', 'Weigh again'],
    ['Weight (kg)', '1,5', RuleMsg.decimal],
    ['Signature', 'https://files.example/sig.png', null],
    ['Meter code', 'AB123456', null],
    ['Meter code', 'AB1234567', RuleMsg.maxLength(8)],
    ['Remarks', 'ok', RuleMsg.minLength(3)],
    ['Remarks', 'fine', null],
    ['Read this first', 'anything', 'A note takes no answer'],
  ];
  for (const [question, value, message] of cases) {
    it(`${message === null ? 'accepts' : 'refuses'} ${JSON.stringify(value)} for "${question}"`, async () => {
      const res = await respond({ ...base, [question]: value });
      expect(res.statusCode).toBe(message === null ? 200 : 400);
      if (message !== null) expect(res.json()).toMatchObject({ msg: `"${question}": ${message}` });
    });
  }

  it('stores a phone number normalised', async () => {
    const sent = body({ ...base, Phone: '0803-123-4567' });
    expect((await call(t.app, member.token, { method: 'POST', url: '/api/v1/survey/respond', payload: sent })).statusCode).toBe(200);
    expect((await stored(sent.clientId)).Phone).toBe('+2348031234567');
    // A replay of the same body is the same response.
    expect((await call(t.app, member.token, { method: 'POST', url: '/api/v1/survey/respond', payload: sent })).statusCode).toBe(200);
  });
});

describe('responses against the rules, batch', () => {
  it('answers each item on its own, naming the question and the message', async () => {
    const items = [body(base), body({ ...base, Age: '150' }), body({ ...base, "Spouse's name": 'Ada' }), body({ ...base, Phone: '+234 803 123 4567' })];
    const res = await sync(items);
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toEqual([
      { clientId: items[0]!.clientId, status: 200, msg: Msg.responseSent, _id: expect.any(String) },
      { clientId: items[1]!.clientId, status: 400, msg: '"Age": Must be between 0 and 120' },
      { clientId: items[2]!.clientId, status: 400, msg: `"Spouse's name": ${RuleMsg.hidden}` },
      { clientId: items[3]!.clientId, status: 200, msg: Msg.responseSent, _id: expect.any(String) },
    ]);
    expect((await stored(items[3]!.clientId)).Phone).toBe('+2348031234567');
  });
});
