import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Limits, Msg } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string };
let member: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app);
  survey = await createSurvey(t.app, org.id);
  member = await addMember(t.app, survey.id, org.id, { fullName: 'Ngozi Eze', rate: 150 });
});
afterAll(() => t.close());

const answers = { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' };
const respond = (payload: object, token = member.token) => call(t.app, token, { method: 'POST', url: '/api/v1/survey/respond', payload });
const sync = (responses: unknown[], token = member.token) => call(t.app, token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses } });
const body = (extra: object = {}) => ({ survey_id: survey.id, organization_id: org.id, answers, clientId: randomUUID(), ...extra });
const rowsOf = (clientId: string) => t.app.db.kysely.selectFrom('responses').selectAll().where('client_id', '=', clientId).execute();

describe('POST /survey/respond', () => {
  it('takes a response to a survey the field user was invited to a moment ago, and refuses one after the invitation is gone', async () => {
    const other = await createSurvey(t.app, org.id);
    const sent = body({ survey_id: other.id });
    expect((await respond(sent)).statusCode).toBe(404);
    const invited = await addMember(t.app, other.id, org.id, { email: member.email, rate: 75 });
    const res = await respond(sent);
    expect(res.statusCode).toBe(200);
    expect((await rowsOf(sent.clientId))[0]).toMatchObject({ member_id: invited.id, rate: 75 });
    await t.app.db.kysely.updateTable('members').set({ rate: 80 }).where('id', '=', invited.id).execute();
    const next = body({ survey_id: other.id });
    expect((await respond(next)).statusCode).toBe(200);
    expect((await rowsOf(next.clientId))[0]).toMatchObject({ rate: 80 });
    await t.app.db.kysely.deleteFrom('responses').where('member_id', '=', invited.id).execute();
    await t.app.db.kysely.deleteFrom('members').where('id', '=', invited.id).execute();
    expect((await respond(body({ survey_id: other.id }))).statusCode).toBe(404);
  });

  it('stores a response with who, rate and time from the server, and answers response sent!', async () => {
    const sent = body({ capturedAt: '2026-11-20T09:30:00.000Z' });
    const before = Date.now();
    const res = await respond(sent);
    expect(res.statusCode).toBe(200);
    const reply = res.json();
    expect(reply).toMatchObject({ msg: Msg.responseSent, _id: expect.any(String), clientId: sent.clientId });
    const [row] = await rowsOf(sent.clientId);
    expect(row).toMatchObject({ id: reply._id, survey_id: survey.id, organization_id: org.id, member_id: member.id, user_id: member.userId, rate: 150, paid_at: null, captured_at: Date.parse('2026-11-20T09:30:00.000Z') });
    expect(Number(row!.created_at)).toBeGreaterThanOrEqual(before);
    expect(JSON.parse(row!.answers)).toEqual(answers);
    expect(row!.search_text).toContain('ngozi eze');
    expect(row!.search_text).toContain('mama put');
  });

  it('stores a replay once and answers it with the same _id', async () => {
    const sent = body();
    const replies = [await respond(sent), await respond(sent), await respond({ ...sent, answers: { 'Outlet type': 'Kiosk', 'Name of outlet': 'Mama Put' } })];
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(replies.map((r) => r.json()._id)).size).toBe(1);
    expect(replies[2]!.json()).toMatchObject({ msg: Msg.responseSent, _id: replies[0]!.json()._id, clientId: sent.clientId });
    expect(await rowsOf(sent.clientId)).toHaveLength(1);
  });

  it('refuses a different body under a clientId already used', async () => {
    const sent = body();
    expect((await respond(sent)).statusCode).toBe(200);
    const res = await respond({ ...sent, answers: { ...answers, 'Outlet type': 'Supermarket' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ msg: ApiMsg.responseConflict });
    const rows = await rowsOf(sent.clientId);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.answers)['Outlet type']).toBe('Kiosk');
  });

  it('refuses the same clientId and body from another field user', async () => {
    const other = await addMember(t.app, survey.id, org.id);
    const sent = body();
    expect((await respond(sent)).statusCode).toBe(200);
    const res = await respond(sent, other.token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ msg: ApiMsg.responseConflict });
  });

  it('keeps one row when 50 identical posts race', async () => {
    const sent = body();
    const replies = await Promise.all(Array.from({ length: 50 }, () => respond(sent)));
    expect(replies.map((r) => r.statusCode)).toEqual(new Array(50).fill(200));
    expect(new Set(replies.map((r) => r.json()._id)).size).toBe(1);
    expect(await rowsOf(sent.clientId)).toHaveLength(1);
  });

  it('generates a clientId for legacy clients that send none', async () => {
    const { clientId: _omit, ...legacy } = body();
    const res = await respond(legacy);
    expect(res.statusCode).toBe(200);
    const reply = res.json();
    expect(reply.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await rowsOf(reply.clientId)).toHaveLength(1);
  });

  it('asks for every compulsory question by the presence of its key only', async () => {
    const missing = await respond(body({ answers: { 'Name of outlet': 'Mama Put' } }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ msg: Msg.fillCompulsory });
    const empty = await respond(body({ answers: { 'Name of outlet': '', 'Outlet type': '' } }));
    expect(empty.statusCode).toBe(200);
  });

  it('refuses answers to questions the survey does not have, and answers of the wrong shape', async () => {
    const unknown = await respond(body({ answers: { ...answers, 'Favourite colour': 'blue' } }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ msg: '"Favourite colour" is not a question of this survey' });
    const notList = await respond(body({ answers: { ...answers, 'Brands stocked': 'Alpha' } }));
    expect(notList.statusCode).toBe(400);
    expect(notList.json()).toMatchObject({ msg: 'The answer to "Brands stocked" must be a list of choices' });
    const list = await respond(body({ answers: { ...answers, 'Outlet type': ['Kiosk'] } }));
    expect(list.statusCode).toBe(400);
    expect(list.json()).toMatchObject({ msg: 'The answer to "Outlet type" must be text, not a list' });
    const object = await respond(body({ answers: { ...answers, Location: { lat: 1 } } }));
    expect(object.statusCode).toBe(400);
    expect(object.json()).toMatchObject({ msg: 'An answer must be text or a list of texts' });
    const checkbox = await respond(body({ answers: { ...answers, 'Brands stocked': ['Alpha', 'Gamma'] } }));
    expect(checkbox.statusCode).toBe(200);
  });

  it('answers 404 to a field user not invited to the survey, and for another organization\'s survey', async () => {
    const otherOrg = await createOrganization(t.app, 'Other Org');
    const otherSurvey = await createSurvey(t.app, otherOrg.id);
    const outsider = await addMember(t.app, otherSurvey.id, otherOrg.id);
    const notMember = await respond(body(), outsider.token);
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json()).toMatchObject({ msg: ApiMsg.surveyNotFound });
    const foreign = await respond(body({ survey_id: otherSurvey.id, organization_id: otherOrg.id }));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ msg: ApiMsg.surveyNotFound });
    const missing = await respond(body({ survey_id: randomUUID() }));
    expect(missing.json()).toMatchObject({ msg: ApiMsg.surveyNotFound });
  });

  it('refuses an organization_id that is not the survey\'s', async () => {
    const res = await respond(body({ organization_id: randomUUID() }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: ApiMsg.organizationMismatch });
  });

  it('ignores who and what the body claims about the submitter and the pay', async () => {
    const other = await addMember(t.app, survey.id, org.id, { rate: 9999 });
    const sent = body({ user_id: other.userId, member_id: other.id, rate: 1_000_000, created_at: 1, paid_at: Date.now() });
    const res = await respond(sent);
    expect(res.statusCode).toBe(200);
    const [row] = await rowsOf(sent.clientId);
    expect(row).toMatchObject({ user_id: member.userId, member_id: member.id, rate: 150, paid_at: null });
    expect(Number(row!.created_at)).toBeGreaterThan(1);
  });

  it('is for field users only', async () => {
    const res = await respond(body(), org.token);
    expect(res.statusCode).toBe(403);
    expect((await respond(body(), null)).statusCode).toBe(401);
  });

  it('refuses a malformed clientId and answers too long', async () => {
    const bad = await respond(body({ clientId: 'not-a-uuid' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ msg: 'clientId must be a UUID' });
    const long = await respond(body({ answers: { ...answers, 'Name of outlet': 'x'.repeat(Limits.maxAnswerLength + 1) } }));
    expect(long.statusCode).toBe(400);
    // The form shows this same message before queueing (Msg.answerTooLong, from Limits.maxAnswerLength).
    expect(long.json().msg).toContain(Msg.answerTooLong);
  });
});

describe('POST /sync/responses', () => {
  it('answers each item on its own and stores the good ones', async () => {
    const otherOrg = await createOrganization(t.app, 'Batch Other');
    const otherSurvey = await createSurvey(t.app, otherOrg.id);
    const stored = body();
    expect((await respond(stored)).statusCode).toBe(200);
    const good = body();
    const replay = stored;
    const conflicting = { ...stored, answers: { ...answers, 'Outlet type': 'Open market' } };
    const compulsory = body({ answers: { 'Outlet type': 'Kiosk' } });
    const foreign = body({ survey_id: otherSurvey.id, organization_id: otherOrg.id });
    const malformed = { clientId: 'abc', survey_id: survey.id, organization_id: org.id, answers: { x: { nested: true } } };
    const duplicateInBatch = body();

    const res = await sync([good, replay, conflicting, compulsory, foreign, malformed, duplicateInBatch, duplicateInBatch]);
    expect(res.statusCode).toBe(200);
    const { results } = res.json();
    expect(results.map((r: { status: number }) => r.status)).toEqual([200, 200, 409, 400, 404, 400, 200, 200]);
    expect(results[0]).toEqual({ clientId: good.clientId, status: 200, msg: Msg.responseSent, _id: expect.any(String) });
    expect(results[2]).toEqual({ clientId: stored.clientId, status: 409, msg: ApiMsg.responseConflict });
    expect(results[3]).toEqual({ clientId: compulsory.clientId, status: 400, msg: Msg.fillCompulsory });
    expect(results[4]).toEqual({ clientId: foreign.clientId, status: 404, msg: ApiMsg.surveyNotFound });
    expect(results[5]).toEqual({ clientId: 'abc', status: 400, msg: 'answers.x: An answer must be text or a list of texts' });
    expect(results[6]._id).toBe(results[7]._id);
    expect(await rowsOf(good.clientId)).toHaveLength(1);
    expect(await rowsOf(duplicateInBatch.clientId)).toHaveLength(1);
    expect(await rowsOf(compulsory.clientId)).toHaveLength(0);

    const again = await sync([good, duplicateInBatch]);
    expect(again.json().results).toEqual([
      { clientId: good.clientId, status: 200, msg: Msg.responseSent, _id: results[0]._id },
      { clientId: duplicateInBatch.clientId, status: 200, msg: Msg.responseSent, _id: results[6]._id },
    ]);
  });

  it('answers a null or non-object item on its own (400) and still stores the good items of the batch', async () => {
    const good = body();
    const res = await sync([null, good, 42, 'text', [], { survey_id: survey.id }]);
    expect(res.statusCode).toBe(200);
    const notObject = { clientId: '', status: 400, msg: 'Each queued response must be an object' };
    expect(res.json().results).toEqual([
      notObject,
      { clientId: good.clientId, status: 200, msg: Msg.responseSent, _id: expect.any(String) },
      notObject,
      notObject,
      notObject,
      { clientId: '', status: 400, msg: 'organization_id: Invalid input: expected string, received undefined' },
    ]);
    expect(await rowsOf(good.clientId)).toHaveLength(1);
    const allBad = await sync([null, body({ organization_id: randomUUID() })]);
    expect(allBad.statusCode).toBe(200);
    expect(allBad.json().results).toEqual([notObject, { clientId: expect.any(String), status: 400, msg: ApiMsg.organizationMismatch }]);
  });

  it('stores the same clientId in upper and lower case once, answering with the lower-case id', async () => {
    const lower = randomUUID();
    const first = await respond(body({ clientId: lower.toUpperCase() }));
    expect(first.statusCode).toBe(200);
    expect(first.json().clientId).toBe(lower);
    const again = await respond(body({ clientId: lower }));
    expect(again.statusCode).toBe(200);
    expect(again.json()._id).toBe(first.json()._id);
    const batch = await sync([body({ clientId: lower.toUpperCase() })]);
    expect(batch.json().results[0]).toMatchObject({ clientId: lower, status: 200, _id: first.json()._id });
    expect(await rowsOf(lower)).toHaveLength(1);
    expect(await rowsOf(lower.toUpperCase())).toHaveLength(0);
    const upperSurvey = await respond(body({ survey_id: survey.id.toUpperCase() }));
    expect(upperSurvey.statusCode).toBe(200);
  });

  it('refuses an empty or oversized batch as a whole', async () => {
    expect((await sync([])).statusCode).toBe(400);
    const tooMany = await sync(Array.from({ length: Limits.maxBatch + 1 }, () => body()));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ msg: `At most ${Limits.maxBatch} responses per batch` });
  });

  it('stores a full batch of 100 in one go', async () => {
    const items = Array.from({ length: Limits.maxBatch }, () => body());
    const res = await sync(items);
    expect(res.statusCode).toBe(200);
    expect(res.json().results.every((r: { status: number }) => r.status === 200)).toBe(true);
    const count = await t.app.db.kysely.selectFrom('responses').select((eb) => eb.fn.countAll<number>().as('n')).where('client_id', 'in', items.map((i) => i.clientId)).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(Limits.maxBatch);
  });
});
