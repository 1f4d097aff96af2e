import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg, QualityFlag } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { CLOSE_CLOCK_SKEW_MS } from './capture-window.js';

// A response's time is the phone's word (its clientId's UUIDv7 time, its capturedAt): a closed
// survey takes only what falls between the survey's creation or the invitation and the close, and
// no older than the maximum offline age; an open survey takes anything and flags what falls outside.
const DAY = 86_400_000;
const MAX_OFFLINE_DAYS = 30;
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await buildTestApp({ maxOfflineAgeMs: MAX_OFFLINE_DAYS * DAY });
  await t.app.services.flags.worker.stop();
  org = await createOrganization(t.app, 'Window Keepers');
});
afterAll(() => t.close());

/** A survey created `ageDays` ago, with a field user invited `invitedDaysAgo` ago. */
async function surveyWithMember(ageDays: number, invitedDaysAgo: number) {
  const survey = await createSurvey(t.app, org.id, { createdAt: Date.now() - ageDays * DAY });
  const member = await addMember(t.app, survey.id, org.id, { fullName: 'Ngozi Eze' });
  await t.app.db.kysely.updateTable('members').set({ created_at: Date.now() - invitedDaysAgo * DAY }).where('id', '=', member.id).execute();
  return { survey, member };
}
const close = async (surveyId: string) => expect((await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${surveyId}/settings`, payload: { closed: true } })).statusCode).toBe(200);
const body = (surveyId: string, clientId: string, extra: object = {}) => ({ survey_id: surveyId, organization_id: org.id, answers: { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' }, clientId, ...extra });
const respond = (token: string, payload: object) => call(t.app, token, { method: 'POST', url: '/api/v1/survey/respond', payload });
const sync = (token: string, responses: object[]) => call(t.app, token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses } });

describe('a closed survey', () => {
  it('refuses a back-dated clientId (1970, 2001, before the survey or the invitation), on the single and the batch routes', async () => {
    const { survey, member } = await surveyWithMember(20, 10);
    await close(survey.id);
    const backDated = [uuidv7(0), uuidv7(Date.UTC(2001, 8, 9)), uuidv7(Date.now() - 15 * DAY), uuidv7(Date.now() - 11 * DAY)];
    for (const clientId of backDated) {
      const res = await respond(member.token!, body(survey.id, clientId));
      expect(res.statusCode, clientId).toBe(403);
      expect(res.json()).toMatchObject({ msg: Msg.surveyClosed });
    }
    const batch = await sync(member.token!, backDated.map((clientId) => body(survey.id, clientId)));
    expect(batch.json().results.map((r: { status: number }) => r.status)).toEqual([403, 403, 403, 403]);
    expect(await t.app.db.kysely.selectFrom('responses').select('id').where('survey_id', '=', survey.id).execute()).toHaveLength(0);
  });

  it('refuses work older than the maximum offline age, and a capturedAt outside the window', async () => {
    const { survey, member } = await surveyWithMember(90, 90);
    await close(survey.id);
    expect((await respond(member.token!, body(survey.id, uuidv7(Date.now() - (MAX_OFFLINE_DAYS + 1) * DAY)))).statusCode).toBe(403);
    const inside = uuidv7(Date.now() - 2 * DAY);
    expect((await respond(member.token!, body(survey.id, inside, { capturedAt: new Date(Date.UTC(2001, 0, 1)).toISOString() }))).statusCode).toBe(403);
    expect((await respond(member.token!, body(survey.id, uuidv7(Date.now() - 2 * DAY), { capturedAt: new Date(Date.now() + CLOSE_CLOCK_SKEW_MS + 60_000).toISOString() }))).statusCode).toBe(403);
  });

  it('keeps taking genuine offline work made before the close, within the offline age', async () => {
    const { survey, member } = await surveyWithMember(90, 40);
    await close(survey.id);
    const made = Date.now() - (MAX_OFFLINE_DAYS - 1) * DAY;
    const single = await respond(member.token!, body(survey.id, uuidv7(made), { capturedAt: new Date(made + 60_000).toISOString() }));
    expect(single.statusCode, single.body).toBe(200);
    const batch = await sync(member.token!, [body(survey.id, uuidv7(Date.now() - DAY)), body(survey.id, uuidv7(Date.now() - 60_000))]);
    expect(batch.json().results.map((r: { status: number }) => r.status)).toEqual([200, 200]);
  });
});

describe('an open survey', () => {
  const flagsOf = async (clientId: string) => {
    await t.app.services.flags.worker.drain();
    const row = await t.app.db.kysely.selectFrom('responses').select('id').where('client_id', '=', clientId).executeTakeFirstOrThrow();
    // The same answers on every response here: duplicate_answers is not what is looked at.
    return t.app.db.kysely.selectFrom('response_flags').select(['flag', 'reason']).where('response_id', '=', row.id).where('flag', '!=', QualityFlag.duplicateAnswers).execute();
  };

  it('takes a back-dated or too old response and flags it implausible_time, naming the time and why', async () => {
    const { survey, member } = await surveyWithMember(90, 60);
    const year2001 = uuidv7(Date.UTC(2001, 8, 9));
    expect((await respond(member.token!, body(survey.id, year2001))).statusCode).toBe(200);
    expect(await flagsOf(year2001)).toEqual([{ flag: QualityFlag.implausibleTime, reason: 'Made on the phone 9 Sept 2001, before the survey was created or the field user invited' }]);

    const stale = uuidv7(Date.now() - 45 * DAY);
    expect((await sync(member.token!, [body(survey.id, stale)])).json().results[0].status).toBe(200);
    expect((await flagsOf(stale)).map((f) => [f.flag, f.reason.endsWith(`more than ${MAX_OFFLINE_DAYS} days before it arrived`)])).toEqual([[QualityFlag.implausibleTime, true]]);

    const capturedEarly = uuidv7(Date.now() - 60_000);
    expect((await respond(member.token!, body(survey.id, capturedEarly, { capturedAt: '1970-01-02T00:00:00.000Z' }))).statusCode).toBe(200);
    expect((await flagsOf(capturedEarly)).map((f) => f.reason)).toEqual(['Captured 2 Jan 1970, before the survey was created or the field user invited']);
  });

  it('does not flag a response made and captured inside the window', async () => {
    const { survey, member } = await surveyWithMember(90, 60);
    const clientId = uuidv7(Date.now() - 3 * DAY);
    expect((await respond(member.token!, body(survey.id, clientId, { capturedAt: new Date(Date.now() - 3 * DAY).toISOString() }))).statusCode).toBe(200);
    expect(await flagsOf(clientId)).toEqual([]);
  });
});
