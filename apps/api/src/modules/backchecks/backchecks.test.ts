import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficeRole, PERSONAL_MASK, QuestionType, Role } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, addOfficeUser, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { compareAnswers, normalisedText, sameAnswer } from './compare.js';
import { drawOf, mayCheck } from './sampling.js';
import { holdRuleOf } from '../payouts/holds.js';
import { backcheckHolds, SETTLE_MS } from './service.js';

const QUESTIONS = [
  { id: 'name', text: 'Respondent name', type: QuestionType.text, compulsory: true, options: [] },
  { id: 'hh', text: 'Household size', type: QuestionType.number, compulsory: true, options: [] },
  { id: 'roof', text: 'Roof material', type: QuestionType.select, compulsory: true, options: ['Zinc', 'Thatch', 'Concrete'] },
  { id: 'village', text: 'Village', type: QuestionType.text, compulsory: true, options: [] },
  { id: 'income', text: 'Monthly income', type: QuestionType.number, compulsory: false, options: [] },
];
const OWN = [{ text: 'Did an enumerator visit you?', type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] }];

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId = '';
type Person = Awaited<ReturnType<typeof addMember>>;
const p = {} as Record<'supA' | 'supB' | 'fu1' | 'fu2' | 'fu3' | 'fu4' | 'fu5', Person>;
const later = () => Date.now() + SETTLE_MS + 1000;

const settings = (body: object, token = org.token, id = surveyId) => call(t.app, token, { method: 'PATCH', url: `/api/v1/survey/${id}/settings`, payload: body });
const feed = (token: string) => call(t.app, token, { method: 'GET', url: '/api/v1/me/backchecks' });
const respond = (token: string, body: object) => call(t.app, token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: surveyId, organization_id: org.id, clientId: uuidv7(), ...body } });

async function markBackchecker(memberId: string) {
  await t.app.services.backchecks.addBackchecker(memberId, surveyId);
}

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Verify Org');
  surveyId = (await createSurvey(t.app, org.id, { title: 'Households', questions: QUESTIONS })).id;
  p.supA = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Sup A' });
  p.supB = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Sup B' });
  p.fu1 = await addMember(t.app, surveyId, org.id, { fullName: 'Ada One', supervisorId: p.supA.id, rate: 100 });
  p.fu2 = await addMember(t.app, surveyId, org.id, { fullName: 'Bola Two', supervisorId: p.supA.id, rate: 100 });
  p.fu3 = await addMember(t.app, surveyId, org.id, { fullName: 'Chidi Three', supervisorId: p.supB.id, rate: 100 });
  p.fu4 = await addMember(t.app, surveyId, org.id, { fullName: 'Dayo Four', supervisorId: p.supB.id, rate: 100 });
  p.fu5 = await addMember(t.app, surveyId, org.id, { fullName: 'Efe Five', rate: 100 });
  for (const m of [p.fu2, p.fu4, p.fu5]) await markBackchecker(m.id);
});
afterAll(() => t.close());

describe('back-check settings and form', () => {
  it('saves the backcheck key with defaults and refuses an unknown or uncomparable stable question', async () => {
    const res = await settings({ backcheck: { percent: 100, stableQuestionIds: ['hh', 'roof', 'village'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().backcheck).toEqual({ percent: 100, minPerWeek: 0, includeFlagged: false, threshold: 20, autoReturn: false, stableQuestionIds: ['hh', 'roof', 'village'] });
    expect((await settings({ backcheck: { stableQuestionIds: ['nope'] } })).json().msg).toBe('A stable question is not a question of this survey');
    expect((await settings({ backcheck: { percent: 101 } })).statusCode).toBe(400);
    expect((await settings({ backcheck: 'yes' })).statusCode).toBe(400);
    // Another organization's survey is not found.
    const other = await createOrganization(t.app, 'Other Org');
    expect((await settings({ backcheck: { percent: 5 } }, other.token)).statusCode).toBe(404);
  });

  it('publishes versions of the form: stable questions then its own, with tolerances and the respondent question', async () => {
    const res = await call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${surveyId}/backcheck-form`, payload: { questions: OWN, tolerances: { hh: 1 }, respondentQuestionId: 'name' } });
    expect(res.statusCode, res.body).toBe(200);
    const form = res.json().form;
    expect(form.version).toBe(2);
    expect(form.questions.map((q: { text: string }) => q.text)).toEqual(['Household size', 'Roof material', 'Village', 'Did an enumerator visit you?']);
    expect(form.tolerances).toEqual({ hh: 1 });
    const bad = await call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${surveyId}/backcheck-form`, payload: { questions: OWN, tolerances: { roof: 1 } } });
    expect(bad.json().msg).toBe('A tolerance is set on a question that is not a numeric stable question');
    const stableRespondent = await call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${surveyId}/backcheck-form`, payload: { questions: OWN, respondentQuestionId: 'village' } });
    expect(stableRespondent.statusCode).toBe(400);
    const clash = await call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${surveyId}/backcheck-form`, payload: { questions: [{ text: 'Village', type: QuestionType.text }] } });
    expect(clash.statusCode).toBe(400);
  });
});

describe('comparison', () => {
  it('is exact for selects, within the tolerance for numbers, normalised for text', () => {
    expect(sameAnswer(QuestionType.select, 'Zinc', 'Zinc', 0)).toBe(true);
    expect(sameAnswer(QuestionType.select, 'Zinc', 'zinc', 0)).toBe(false);
    expect(sameAnswer(QuestionType.checkbox, ['a', 'b'], ['b', 'a'], 0)).toBe(true);
    expect(sameAnswer(QuestionType.number, '6', '7', 1)).toBe(true);
    expect(sameAnswer(QuestionType.number, '6', '8', 1)).toBe(false);
    expect(sameAnswer(QuestionType.decimal, '0.3', '0.1', 0.2)).toBe(true);
    expect(sameAnswer(QuestionType.text, '  Ọ̀yọ́  Town!', 'oyo town', 0)).toBe(true);
    expect(normalisedText('Ìbàdàn-North')).toBe('ibadan north');
    const stable = QUESTIONS.slice(1, 4) as never[];
    const out = compareAnswers(stable, new Map([['hh', 'Household size'], ['roof', 'Roof material'], ['village', 'Village']]), { 'Household size': '5', 'Roof material': 'Zinc' }, { 'Household size': '6', 'Roof material': 'Thatch', Village: 'Ikeja' }, { hh: 1 });
    expect(out.map((c) => c.match)).toEqual([true, false, null]);
  });
});

describe('sampling', () => {
  it('is reproducible from the seed and hits the percentage within tolerance over 1,000 responses', async () => {
    const s = (await createSurvey(t.app, org.id, { title: 'Big survey', questions: QUESTIONS })).id;
    const people: Person[] = [];
    for (let i = 0; i < 4; i++) people.push(await addMember(t.app, s, org.id, { fullName: `Big ${i}` }));
    const base = Date.now() - 3 * 86_400_000;
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const m = people[i % 4]!;
      const answers = JSON.stringify({ 'Respondent name': `R${i}` });
      return { id: randomUUID(), client_id: randomUUID(), survey_id: s, organization_id: org.id, member_id: m.id, user_id: m.userId!, answers, body_hash: createHash('sha256').update(answers).digest('hex'), search_text: '', rate: 0, paid_at: null, captured_at: null, created_at: base + i * 1000 };
    });
    for (let i = 0; i < rows.length; i += 200) await t.app.db.kysely.insertInto('responses').values(rows.slice(i, i + 200)).execute();
    expect((await settings({ backcheck: { percent: 10 } }, org.token, s)).statusCode).toBe(200);
    const service = t.app.services.backchecks;
    const setting = (await service.repo.settings(s))!;
    expect(await service.sampleSurvey(setting, later())).toBeGreaterThan(0);
    const picked = await t.app.db.kysely.selectFrom('backcheck_assignments').select(['response_id', 'draw', 'reason']).where('survey_id', '=', s).execute();
    // Binomial(1000, 0.1): sd 9.5; 4 sd either side.
    expect(picked.length).toBeGreaterThanOrEqual(62);
    expect(picked.length).toBeLessThanOrEqual(138);
    // Re-derived from the seed alone: exactly the same responses, each with its stored draw.
    const expected = rows.filter((r) => drawOf(setting.seed, r.id) < 0.1).map((r) => r.id).sort();
    expect(picked.map((r) => r.response_id).sort()).toEqual(expected);
    for (const r of picked) expect(Number(r.draw)).toBeCloseTo(drawOf(setting.seed, r.response_id), 12);
    // A second pass selects nothing more (the cursor and the unique response_id).
    expect(await service.sampleSurvey((await service.repo.settings(s))!, later())).toBe(0);
  });

  it('tops up each field user to the weekly minimum and adds flagged responses', async () => {
    const s = (await createSurvey(t.app, org.id, { title: 'Minimum survey', questions: QUESTIONS })).id;
    const a = await addMember(t.app, s, org.id, { fullName: 'Min A' });
    const b = await addMember(t.app, s, org.id, { fullName: 'Min B' });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await addResponse(t.app, i % 2 ? a : b, { id: s, organizationId: org.id }, { answers: { 'Respondent name': `M${i}` }, createdAt: Date.now() - 5 * 60_000 })).id);
    await t.app.db.kysely.insertInto('response_flags').values({ response_id: ids[0]!, flag: 'too_fast', survey_id: s, member_id: b.id, reason: 'x', other_response_id: null, created_at: Date.now(), dismissed_at: null, dismissed_by: null, dismissed_role: null, dismiss_note: null }).execute();
    await settings({ backcheck: { percent: 0, minPerWeek: 2, includeFlagged: true } }, org.token, s);
    await t.app.services.backchecks.sampleAll(later());
    const picked = await t.app.db.kysely.selectFrom('backcheck_assignments').select(['member_id', 'reason', 'response_id']).where('survey_id', '=', s).execute();
    expect(picked.filter((r) => r.member_id === a.id)).toHaveLength(2);
    expect(picked.filter((r) => r.member_id === b.id)).toHaveLength(2);
    expect(picked.find((r) => r.response_id === ids[0])?.reason).toBe('flagged');
  });
});

describe('assignment, feed and back-check answers', () => {
  const originals: Record<string, string> = {};

  it('never gives anyone their own or their own team\'s work', async () => {
    for (const [key, m] of Object.entries(p)) {
      if (key.startsWith('sup')) continue;
      for (let i = 0; i < 6; i++) {
        originals[`${key}-${i}`] = (await addResponse(t.app, m, { id: surveyId, organizationId: org.id }, { rate: 100, answers: { 'Respondent name': `Resp ${key} ${i}`, 'Household size': '5', 'Roof material': 'Zinc', Village: `Secret-village-${key}-${i}`, 'Monthly income': '90000' }, createdAt: Date.now() - 10 * 60_000 })).id;
      }
    }
    await t.app.services.backchecks.sampleAll(later());
    const rows = await t.app.db.kysely.selectFrom('backcheck_assignments as a').innerJoin('members as o', 'o.id', 'a.member_id').innerJoin('members as b', 'b.id', 'a.backchecker_member_id')
      .select(['o.user_id as o_user', 'o.supervisor_id as o_sup', 'b.id as b_member', 'b.user_id as b_user', 'b.role as b_role', 'b.supervisor_id as b_sup']).where('a.survey_id', '=', surveyId).execute();
    expect(rows.length).toBe(30);
    for (const r of rows) {
      expect(r.b_user).not.toBe(r.o_user);
      if (r.o_sup !== null) {
        expect(r.b_member).not.toBe(r.o_sup);
        if (r.b_role === Role.fieldUser) expect(r.b_sup).not.toBe(r.o_sup);
      }
    }
    // The rule itself, on every pair.
    expect(mayCheck({ memberId: 'x', userId: 'u1', role: 'field_user', supervisorId: null }, { userId: 'u1', supervisorId: null })).toBe(false);
    expect(mayCheck({ memberId: 's1', userId: 'u2', role: 'supervisor', supervisorId: null }, { userId: 'u1', supervisorId: 's1' })).toBe(false);
    expect(mayCheck({ memberId: 'f2', userId: 'u2', role: 'field_user', supervisorId: 's1' }, { userId: 'u1', supervisorId: 's1' })).toBe(false);
    expect(mayCheck({ memberId: 'f2', userId: 'u2', role: 'field_user', supervisorId: 's2' }, { userId: 'u1', supervisorId: 's1' })).toBe(true);
  });

  it('feeds the back-checker respondent, location and capture time, never the original answers', async () => {
    const res = await feed(p.fu4.token!);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.assignments.length).toBeGreaterThan(0);
    expect(body.assignments[0].respondent).toMatch(/^Resp /);
    expect(body.forms[0].questions.map((q: { text: string }) => q.text)).toContain('Did an enumerator visit you?');
    expect(res.body).not.toMatch(/Secret-village|90000/);
    expect(Object.keys(body.assignments[0]).sort()).toEqual(['_id', 'assignedAt', 'capturedAt', 'location', 'organization_id', 'respondent', 'responseId', 'surveyTitle', 'survey_id'].sort());
    // An office user or a field user who is not a back-checker has no feed of anyone else's.
    expect((await feed(p.fu1.token!)).json().assignments).toEqual([]);
  });

  it('takes a back-check through the response route: within tolerance it matches, a replay is the same, another body is refused', async () => {
    const a = (await feed(p.fu4.token!)).json().assignments[0];
    const answers = { 'Household size': '6', 'Roof material': 'Zinc', Village: 'x', 'Did an enumerator visit you?': 'Yes' };
    const clientId = uuidv7();
    const ok = await respond(p.fu4.token!, { backcheckOf: a.responseId, answers, clientId, version: 2 });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await respond(p.fu4.token!, { backcheckOf: a.responseId, answers, clientId, version: 2 });
    expect(again.json()._id).toBe(ok.json()._id);
    expect((await respond(p.fu4.token!, { backcheckOf: a.responseId, answers: { ...answers, 'Household size': '9' }, version: 2 })).statusCode).toBe(409);
    const row = await t.app.db.kysely.selectFrom('backcheck_assignments').selectAll().where('response_id', '=', a.responseId).executeTakeFirstOrThrow();
    // The village differs (1 of 3: 33% > 20%): a mismatch, flagged, not returned (autoReturn off).
    expect([Number(row.compared), Number(row.mismatched), Number(row.mismatch), Number(row.returned)]).toEqual([3, 1, 1, 0]);
    expect(await t.app.db.kysely.selectFrom('response_flags').select('flag').where('response_id', '=', a.responseId).execute()).toEqual([{ flag: 'backcheck_mismatch' }]);
    // Someone else's assignment, or a survey mismatch, is not found.
    expect((await respond(p.fu2.token!, { backcheckOf: a.responseId, answers })).statusCode).toBe(404);
    // Answers are checked against the back-check form.
    const b = (await feed(p.fu4.token!)).json().assignments[0];
    expect((await respond(p.fu4.token!, { backcheckOf: b.responseId, answers: { 'Roof material': 'Glass' } })).statusCode).toBe(400);
  });

  it('returns the original automatically above the threshold, through the queue route too', async () => {
    await settings({ backcheck: { autoReturn: true, threshold: 30 } });
    const [a, b] = (await feed(p.fu5.token!)).json().assignments;
    const villageOf = async (id: string) => JSON.parse((await t.app.db.kysely.selectFrom('responses').select('answers').where('id', '=', id).executeTakeFirstOrThrow()).answers).Village as string;
    const same = { 'Household size': '5', 'Roof material': 'Zinc', Village: await villageOf(b.responseId), 'Did an enumerator visit you?': 'Yes' };
    const res = await call(t.app, p.fu5.token!, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: [
      { survey_id: surveyId, organization_id: org.id, clientId: uuidv7(), backcheckOf: a.responseId, answers: { ...same, Village: await villageOf(a.responseId), 'Roof material': 'Thatch', 'Household size': '9' } },
      { survey_id: surveyId, organization_id: org.id, clientId: uuidv7(), backcheckOf: b.responseId, answers: same },
      { survey_id: surveyId, organization_id: org.id, clientId: uuidv7(), answers: { 'Respondent name': 'New', 'Household size': '3', 'Roof material': 'Zinc', Village: 'V' } },
    ] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200]);
    const status = async (id: string) => (await t.app.db.kysely.selectFrom('responses').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    expect(await status(a.responseId)).toBe('returned');
    expect(await status(b.responseId)).toBe('approved');
    const review = await t.app.db.kysely.selectFrom('response_reviews').select(['actor_name', 'comment']).where('response_id', '=', a.responseId).executeTakeFirstOrThrow();
    expect(review.actor_name).toBe('Back-check');
    expect(review.comment).toContain('"Roof material"');
    // The office's detail view: both answers side by side.
    const detail = await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${a.responseId}/backcheck` });
    expect(detail.statusCode, detail.body).toBe(200);
    const items = detail.json().backcheck.items;
    expect(items.find((i: { questionId: string }) => i.questionId === 'roof')).toMatchObject({ original: 'Zinc', backcheck: 'Thatch', match: false });
    expect(items.find((i: { questionId: string }) => i.questionId === 'hh')).toMatchObject({ original: '5', backcheck: '9', match: false, tolerance: 1 });
    expect(detail.json().backcheck.extra).toEqual([{ text: 'Did an enumerator visit you?', answer: 'Yes' }]);
  });

  it('lets a supervisor back-check another team, and only back-check', async () => {
    const [a] = (await feed(p.supA.token!)).json().assignments;
    expect(a).toBeDefined();
    const ok = await respond(p.supA.token!, { backcheckOf: a.responseId, answers: { 'Household size': '5', 'Roof material': 'Zinc', Village: 'Somewhere', 'Did an enumerator visit you?': 'No' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await respond(p.supA.token!, { answers: { 'Respondent name': 'x' } })).statusCode).toBe(404);
  });

  it('shows the office its back-checks per field user, question and week, holds the worst field user, and exports one sheet', async () => {
    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${surveyId}/backchecks?page=1` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.totals.completed).toBe(4);
    expect(body.questions.find((q: { id: string }) => q.id === 'roof')).toMatchObject({ text: 'Roof material', compared: 4, mismatched: 1 });
    expect(body.weeks.at(-1).completed).toBe(4);
    expect(body.backcheckers.map((b: { fullName: string }) => b.fullName).sort()).toEqual(['Bola Two', 'Dayo Four', 'Efe Five', 'Sup A', 'Sup B']);
    const held = await backcheckHolds(t.app.db.kysely, surveyId);
    const heldMembers = body.fieldUsers.filter((f: { held: boolean }) => f.held).map((f: { memberId: string }) => f.memberId);
    expect(heldMembers.sort()).toEqual([...held.memberIds].sort());
    expect(held.memberIds.size).toBeGreaterThan(0);
    for (const id of held.responseIds) {
      const r = await t.app.db.kysely.selectFrom('responses').select(['member_id', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(held.memberIds.has(r.member_id)).toBe(true);
      expect(['pending', 'approved']).toContain(r.status);
    }
    // The survey's pay gate holds exactly these responses out of payouts once it asks for back-checks.
    expect((await settings({ payGate: { backcheck: true } })).statusCode).toBe(200);
    expect([...((await holdRuleOf(t.app.db.kysely, surveyId))?.backcheckHeld ?? [])].sort()).toEqual([...held.responseIds].sort());
    // Dismissing the mismatch flags (reviewed side by side) releases the hold.
    await t.app.db.kysely.updateTable('response_flags').set({ dismissed_at: Date.now(), dismissed_by: 'x', dismissed_role: 'organization', dismiss_note: 'checked' }).where('flag', '=', 'backcheck_mismatch').execute();
    expect((await backcheckHolds(t.app.db.kysely, surveyId)).responseIds.size).toBe(0);
    const file = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${surveyId}/backchecks/download` });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as never);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Back-checks']);
    const head = (book.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
    expect(head).toContain('Roof material (original)');
    expect(head).toContain('Roof material (back-check)');
    expect(book.worksheets[0]!.rowCount).toBe(5);
  });

  it('invites a back-checker with backchecker: true', async () => {
    const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/field-user', payload: { survey_id: surveyId, fullName: 'New Checker', email: 'checker@team.ng', phoneNumber: '08031234567', backchecker: true } });
    expect(res.statusCode, res.body).toBe(200);
    const member = await t.app.db.kysely.selectFrom('members').select('id').where('email', '=', 'checker@team.ng').executeTakeFirstOrThrow();
    expect(await t.app.db.kysely.selectFrom('backcheckers').select('member_id').where('member_id', '=', member.id).execute()).toHaveLength(1);
  });

  it("marks the surveys a field user back-checks in their own survey list, and only those", async () => {
    const mine = async (token: string) => {
      const res = await call(t.app, token, { method: 'GET', url: '/api/v1/survey/field-user' });
      expect(res.statusCode, res.body).toBe(200);
      return Object.fromEntries(res.json().survey.map((s: { _id: string; backchecker?: boolean }) => [s._id, s.backchecker]));
    };
    expect(await mine(p.fu2.token!)).toEqual({ [surveyId]: true });
    expect(await mine(p.fu1.token!)).toEqual({ [surveyId]: false });
    // The same person on a second survey, not a back-checker there.
    const second = (await createSurvey(t.app, org.id, { title: 'Markets', questions: QUESTIONS })).id;
    await addMember(t.app, second, org.id, { email: p.fu2.email, fullName: 'Bola Two' });
    expect(await mine(p.fu2.token!)).toEqual({ [surveyId]: true, [second]: false });
    // Withdrawn from the survey: no longer a back-checker there.
    await t.app.db.kysely.updateTable('members').set({ withdrawn_at: Date.now() }).where('id', '=', p.fu5.id).execute();
    expect(await mine(p.fu5.token!)).toEqual({});
    await t.app.db.kysely.updateTable('members').set({ withdrawn_at: null }).where('id', '=', p.fu5.id).execute();
    // The office's lists do not carry it.
    const office = await call(t.app, org.token, { method: 'GET', url: '/api/v1/survey/organization' });
    expect(office.json().survey.every((s: { backchecker?: boolean }) => s.backchecker === undefined)).toBe(true);
  });

  it("masks an analyst's comparison and sheet where a compared question is personal, and keeps them for the owner", async () => {
    expect((await settings({ personalQuestionIds: ['village'] })).statusCode).toBe(200);
    const analyst = await addOfficeUser(t.app, org.id, OfficeRole.analyst);
    const done = await t.app.db.kysely.selectFrom('backcheck_assignments').select('response_id').where('survey_id', '=', surveyId).where('completed_at', 'is not', null).execute();
    expect(done.length).toBeGreaterThan(0);
    for (const { response_id } of done) {
      const url = `/api/v1/responses/${response_id}/backcheck`;
      const seen = await call(t.app, analyst.token, { method: 'GET', url });
      expect(seen.statusCode, seen.body).toBe(200);
      expect(seen.body).not.toMatch(/Secret-village|Somewhere/);
      const village = seen.json().backcheck.items.find((i: { questionId: string }) => i.questionId === 'village');
      expect(village).toMatchObject({ original: PERSONAL_MASK, backcheck: PERSONAL_MASK });
      expect(seen.json().backcheck.items.find((i: { questionId: string }) => i.questionId === 'roof').original).toBe('Zinc');
      const owner = (await call(t.app, org.token, { method: 'GET', url })).json();
      expect(owner.backcheck.items.find((i: { questionId: string }) => i.questionId === 'village').original).not.toBe(PERSONAL_MASK);
    }
    const sheet = async (token: string) => {
      const file = await call(t.app, token, { method: 'GET', url: `/api/v1/survey/${surveyId}/backchecks/download` });
      expect(file.statusCode).toBe(200);
      const { default: ExcelJS } = await import('exceljs');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(file.rawPayload as never);
      return JSON.stringify(book.worksheets[0]!.getSheetValues());
    };
    const masked = await sheet(analyst.token);
    expect(masked).not.toMatch(/Secret-village|Somewhere/);
    expect(masked).toContain(PERSONAL_MASK);
    expect(await sheet(org.token)).toMatch(/Secret-village|Somewhere/);
  });
});
