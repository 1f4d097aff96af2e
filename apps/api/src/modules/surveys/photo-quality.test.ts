import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, QuestionType, Role } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

/**
 * A survey's photo quality: standard unless the organization says high, at creation or
 * with PATCH .../settings; sent with the survey wherever it is listed, so the phone caches it.
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Photo Org');
  other = await createOrganization(t.app, 'Other Org');
});
afterAll(() => t.close());

const questions = [{ text: 'Shelf photo', type: QuestionType.image, compulsory: true }];
const create = (payload: object) => call(t.app, org.token, { method: 'POST', url: '/api/v1/survey/create', payload: { title: 'Shelves', questions, ...payload } });
const settings = (id: string, payload: unknown, token = org.token) => call(t.app, token, { method: 'PATCH', url: `/api/v1/survey/${id}/settings`, payload: payload as object });
const stored = async (id: string) => (await t.app.db.kysely.selectFrom('surveys').select('photo_quality').where('id', '=', id).executeTakeFirstOrThrow()).photo_quality;

describe('photo quality', () => {
  it('is standard by default, high when created so, and the survey says which', async () => {
    const plain = await create({});
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().survey.photoQuality).toBe('standard');
    expect(await stored(plain.json().survey._id)).toBe('standard');
    const high = await create({ title: 'Shelves (detail)', photoQuality: 'high' });
    expect(high.json().survey.photoQuality).toBe('high');
    expect(await stored(high.json().survey._id)).toBe('high');
  });

  it('a survey stored before the setting (or by an older instance, without the column) is standard', async () => {
    const { id } = await createSurvey(t.app, org.id, { title: 'Before the setting' });
    expect(await stored(id)).toBe('standard');
    const listed = (await call(t.app, org.token, { method: 'GET', url: '/api/v1/survey/organization?searchQuery=Before the setting' })).json();
    expect(listed.survey[0]).toMatchObject({ _id: id, photoQuality: 'standard' });
  });

  it('PATCH settings changes it alone; the reply, the lists of every role and PUT carry it', async () => {
    const survey = (await create({ title: 'Changed later' })).json().survey as { _id: string };
    const fu = await addMember(t.app, survey._id, org.id, { fullName: 'Ada Field' });
    const sup = await addMember(t.app, survey._id, org.id, { role: Role.supervisor });
    const res = await settings(survey._id, { photoQuality: 'high' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ msg: 'Settings saved', payAfterReview: false, closed: false, minDurationSeconds: null, maxAccuracyMeters: null, photoQuality: 'high', personalQuestionIds: expect.any(Array), retentionDays: null, audioAudit: null, payGate: { approved: false, audioReviewed: false, backcheck: false }, backcheck: { percent: 10, minPerWeek: 0, includeFlagged: false, threshold: 20, autoReturn: false, stableQuestionIds: [] }, encryptionKey: null });
    expect(await stored(survey._id)).toBe('high');

    // The field user's list is what the phone caches for offline use.
    const mine = (await call(t.app, fu.token, { method: 'GET', url: '/api/v1/survey/field-user' })).json();
    expect(mine.survey.find((s: { _id: string }) => s._id === survey._id)).toMatchObject({ photoQuality: 'high' });
    const supervised = (await call(t.app, sup.token, { method: 'GET', url: '/api/v1/survey/supervisor' })).json();
    expect(supervised.survey.find((s: { _id: string }) => s._id === survey._id)).toMatchObject({ photoQuality: 'high' });

    // Another setting leaves it; a new version (a body without it) does not reset it.
    expect((await settings(survey._id, { closed: true })).json().photoQuality).toBe('high');
    const put = await call(t.app, org.token, { method: 'PUT', url: `/api/v1/survey/${survey._id}`, payload: { title: 'Changed later', questions } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().survey).toMatchObject({ version: 2, photoQuality: 'high' });

    const back = await settings(survey._id, { photoQuality: 'standard' });
    expect(back.json()).toMatchObject({ photoQuality: 'standard', closed: true });
    expect(await stored(survey._id)).toBe('standard');
  });

  it('anything but "standard" or "high" is 400 with the reason, at creation and in settings, and nothing changes', async () => {
    const survey = (await create({ title: 'Validated', photoQuality: 'high' })).json().survey as { _id: string };
    for (const bad of ['HIGH', 'low', '', 2000, null, true, ['high']]) {
      const res = await settings(survey._id, { photoQuality: bad });
      expect(res.statusCode, `${JSON.stringify(bad)}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ msg: 'photoQuality must be "standard" or "high"' });
      const created = await create({ title: 'Bad quality', photoQuality: bad });
      expect(created.statusCode).toBe(400);
      expect(created.json()).toMatchObject({ msg: 'photoQuality must be "standard" or "high"' });
    }
    expect(await stored(survey._id)).toBe('high');
    const empty = await settings(survey._id, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe('Send payAfterReview, closed, minDurationSeconds, maxAccuracyMeters, photoQuality, personalQuestionIds, retentionDays, audioAudit, payGate, backcheck or encryptionKey');
  });

  it('only the owning organization changes it: another gets 404, its supervisor and field user 403', async () => {
    const survey = (await create({ title: 'Guarded quality' })).json().survey as { _id: string };
    const sup = await addMember(t.app, survey._id, org.id, { role: Role.supervisor });
    const fu = await addMember(t.app, survey._id, org.id, {});
    const intruder = await settings(survey._id, { photoQuality: 'high' }, other.token);
    expect(intruder.statusCode).toBe(404);
    expect(intruder.json()).toMatchObject({ msg: ApiMsg.surveyNotFound });
    expect((await settings(survey._id, { photoQuality: 'high' }, sup.token!)).statusCode).toBe(403);
    expect((await settings(survey._id, { photoQuality: 'high' }, fu.token!)).statusCode).toBe(403);
    expect(await stored(survey._id)).toBe('standard');
  });
});
