import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormMsg, QuestionType, RuleMsg } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { HOUSEHOLD_QUESTIONS, householdAnswers } from '../../../test/household-form.js';

// The XLSForm model on every ingest path (single, batch, fix): the server runs the contracts' form
// engine against the response's own version, recomputes calculations and never trusts the phone
// for what it can check.
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
let member: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Roster Keepers');
  const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Households', questions: HOUSEHOLD_QUESTIONS, languages: [{ code: 'ha', label: 'Hausa' }] } });
  expect(res.statusCode, res.body).toBe(200);
  surveyId = res.json().survey._id;
  // The survey keeps its languages (the phone's language switch reads them).
  expect(res.json().survey.languages).toEqual([{ code: 'ha', label: 'Hausa' }]);
  member = await addMember(t.app, surveyId, org.id, { fullName: 'Ngozi Eze' });
});
afterAll(() => t.close());

const body = (answers: Record<string, unknown>, extra: object = {}) => ({ survey_id: surveyId, organization_id: org.id, answers, clientId: uuidv7(), ...extra });
const respond = (payload: object) => call(t.app, member.token, { method: 'POST', url: '/api/v1/survey/respond', payload });
const sync = (items: object[]) => call(t.app, member.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: items } });
const review = (ids: string[], status: string, comment?: string) => call(t.app, org.token, { method: 'POST', url: '/api/v1/responses/review', payload: { responseIds: ids, status, ...(comment ? { comment } : {}) } });
const members = (a: Record<string, unknown>) => a.Member as Record<string, unknown>[];

describe('a household roster on the server', () => {
  it('stores the roster as nested arrays, with the calculations recomputed when the phone left them out', async () => {
    const answers = householdAnswers();
    delete answers.Children;
    const res = await respond(body(answers));
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.app.db.kysely.selectFrom('responses').select(['answers', 'search_text']).where('id', '=', res.json()._id).executeTakeFirstOrThrow();
    const stored = JSON.parse(row.answers) as Record<string, unknown>;
    expect(members(stored).map((m) => m.Name)).toEqual(['Musa Bello', 'Aisha Bello']);
    expect(stored.Children).toBe('1');
    // Search reads inside the roster.
    expect(row.search_text).toContain('aisha bello');
  });

  it('refuses a tampered calculation, on the single and the batch routes', async () => {
    const tampered = { ...householdAnswers(), Children: '3' };
    const one = await respond(body(tampered));
    expect(one.statusCode).toBe(400);
    expect(one.json()).toMatchObject({ msg: `"Children": ${FormMsg.calculationMismatch}` });
    const inside = householdAnswers();
    members(inside)[0]!['Is a child'] = '1';
    const batch = await sync([body(householdAnswers()), body(inside)]);
    expect(batch.json().results.map((r: { status: number; msg: string }) => [r.status, r.msg])).toEqual([
      [200, 'response sent!'],
      [400, `"Is a child" in Member 1: ${FormMsg.calculationMismatch}`],
    ]);
  });

  it('refuses an answer outside the choice filter, naming the question', async () => {
    // "central_la" is a Central of Lagos: a real choice, not one of Kano's.
    const res = await respond(body({ ...householdAnswers(), LGA: 'central_la' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: `"LGA": ${FormMsg.notAmongFiltered}` });
    expect((await respond(body({ ...householdAnswers(), State: 'la', LGA: 'central_la' }))).statusCode).toBe(200);
  });

  it('refuses answers in a hidden repeat instance\'s question and in a hidden repeat', async () => {
    const answers = householdAnswers();
    // An adult is not asked "In school?".
    members(answers)[0]!['In school?'] = 'no';
    const res = await respond(body(answers));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: `"In school?" in Member 1: ${RuleMsg.hidden}` });
  });

  it('refuses a constraint broken inside a repeat, naming the question and the member', async () => {
    const answers = householdAnswers();
    members(answers)[0]!.Age = '150';
    const res = await sync([body(answers)]);
    expect(res.json().results[0]).toMatchObject({ status: 400, msg: '"Age" in Member 1: Too old' });
  });

  it('holds the roster to its count', async () => {
    const res = await respond(body({ ...householdAnswers(), 'How many members?': '3' }));
    expect(res.json()).toMatchObject({ msg: `"Member": ${FormMsg.repeatCount(3)}` });
  });

  it('never refuses for today(): the phone judged it on its own day', async () => {
    expect((await respond(body({ ...householdAnswers(), Visited: '2999-12-31' }))).statusCode).toBe(200);
  });

  it('checks a fix against the same rules', async () => {
    const sent = await respond(body(householdAnswers()));
    const id = sent.json()._id as string;
    expect((await review([id], 'returned', 'Check the ages')).json().results[0].status).toBe(200);
    const bad = await respond(body({ ...householdAnswers(), Children: '2' }, { revisionOf: id }));
    expect(bad.json()).toMatchObject({ msg: `"Children": ${FormMsg.calculationMismatch}` });
    const fixed = householdAnswers();
    members(fixed)[1]!.Age = '19';
    delete members(fixed)[1]!['In school?'];
    members(fixed)[1]!['Is a child'] = '0';
    fixed.Children = '0';
    const ok = await respond(body(fixed, { revisionOf: id }));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('validates a response against its own version: a repeat removed since is still accepted', async () => {
    const created = await call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Farms', questions: [
      { id: 'farmer', text: 'Farmer', type: QuestionType.text },
      { id: 'plots', text: 'Plot', type: QuestionType.repeat, repeat: { min: 1 }, relevantExpr: "${farmer} != 'none'" },
      { id: 'size', text: 'Size (ha)', type: QuestionType.decimal, parent: 'plots' },
    ] } });
    const farms = created.json().survey._id as string;
    const farmer = await addMember(t.app, farms, org.id, { fullName: 'Tunde Ade' });
    // Version 2 drops the plots.
    const put = await call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${farms}`, payload: { title: 'Farms', questions: [{ id: 'farmer', text: 'Farmer', type: QuestionType.text }] } });
    expect(put.statusCode, put.body).toBe(200);
    const old = { survey_id: farms, organization_id: org.id, clientId: uuidv7(), version: 1, answers: { Farmer: 'Tunde', Plot: [{ 'Size (ha)': '1.5' }, { 'Size (ha)': '0.5' }] } };
    const res = await call(t.app, farmer.token, { method: 'POST', url: '/api/v1/survey/respond', payload: old });
    expect(res.statusCode, res.body).toBe(200);
    // On version 2 the roster is no question of the survey.
    const now = await call(t.app, farmer.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { ...old, clientId: uuidv7(), version: 2 } });
    expect(now.statusCode).toBe(400);
    // And version 1 holds its minimum.
    const empty = await call(t.app, farmer.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { ...old, clientId: uuidv7(), answers: { Farmer: 'Tunde' } } });
    expect(empty.json()).toMatchObject({ msg: `"Plot": ${FormMsg.repeatMin(1)}` });
    // A hidden repeat takes no instances.
    const hidden = await call(t.app, farmer.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { ...old, clientId: uuidv7(), answers: { ...old.answers, Farmer: 'none' } } });
    expect(hidden.json()).toMatchObject({ msg: `"Plot": ${RuleMsg.hidden}` });
  });

  it('keeps a replay idempotent: the same roster is the same body', async () => {
    const item = body(householdAnswers());
    const first = await respond(item);
    const again = await respond(item);
    expect(again.statusCode).toBe(200);
    expect(again.json()._id).toBe(first.json()._id);
  });
});
