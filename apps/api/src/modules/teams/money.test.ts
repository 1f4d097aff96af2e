import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@survey-bird/contracts';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

/**
 * outstanding: approved and unpaid only; awaitingReview: pending; totalDue sums outstanding.
 * Ada (Sup): approved 100 x2 (one paid), pending 100, returned 100, rejected 100
 *   -> outstanding 100, awaitingReview 100
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
let sup: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Money Org');
  surveyId = (await createSurvey(t.app, org.id)).id;
  const survey = { id: surveyId, organizationId: org.id };
  sup = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Sup' });
  const ada = await addMember(t.app, surveyId, org.id, { fullName: 'Ada', rate: 100, supervisorId: sup.id });
  await addResponse(t.app, ada, survey, { rate: 100 });
  await addResponse(t.app, ada, survey, { rate: 100, paid: true });
  for (const status of ['pending', 'returned', 'rejected']) await addResponse(t.app, ada, survey, { rate: 100, status });
});
afterAll(() => t.close());

describe('money', () => {
  it('outstanding counts approved unpaid responses only; awaitingReview the pending ones; totalDue sums outstanding', async () => {
    const fu = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/field-user/${surveyId}` })).json();
    expect(fu.totalDue).toBe(100);
    expect(fu.fieldUsers[0]).toMatchObject({ responses: 5, outstanding: 100, awaitingReview: 100 });
    const sups = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/supervisor/${surveyId}` })).json();
    expect(sups.supervisors[0]).toMatchObject({ outstanding: 100, awaitingReview: 100 });
    const own = (await call(t.app, sup.token, { method: 'GET', url: `/api/v1/supervisor/field-user/${surveyId}` })).json();
    expect(own).toMatchObject({ totalDue: 100 });
  });

  it('a rate is whole naira, strictly: "0x10", true, [], 1.5, "1e3" are 400; a string of digits is accepted', async () => {
    const invite = (rate: unknown, n: number) => call(t.app, org.token, { method: 'POST', url: '/api/v1/field-user', payload: { survey_id: surveyId, fullName: 'New Person', email: `new${n}@team.ng`, phoneNumber: '0803', rate } });
    let n = 0;
    for (const bad of ['0x10', true, [], 1.5, '1e3', '', ' ', {}, '-0x1']) {
      const res = await invite(bad, ++n);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().msg).toBe('Rate must be a whole number of naira');
    }
    expect((await invite(-5, ++n)).json().msg).toBe('Rate cannot be negative');
    const ok = await invite('250', ++n);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().fieldsUser.rate).toBe(250);
  });
});
