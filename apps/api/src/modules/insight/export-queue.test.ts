import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Role } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

describe('export queue (issue 14 item 3)', () => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let surveyId: string;
  let supervisors: string[];
  beforeAll(async () => {
    // One export at a time, one more may wait: a third caller is refused at once. Each export here
    // starts threads that compile TypeScript through tsx: 15-20 s on a busy 2-core machine.
    t = await buildTestApp({ exports: { concurrency: 1, queue: 1 } });
    org = await createOrganization(t.app, 'Queue Org');
    surveyId = (await createSurvey(t.app, org.id)).id;
    supervisors = [];
    for (let i = 0; i < 2; i++) supervisors.push((await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: `Supervisor ${i}` })).token!);
    const fu = await addMember(t.app, surveyId, org.id, { fullName: 'Field Person' });
    for (let i = 0; i < 20; i++) await addResponse(t.app, fu, { id: surveyId, organizationId: org.id }, { answers: { 'Name of outlet': `Outlet ${i}`, 'Outlet type': 'Kiosk' } });
  });
  afterAll(() => t.close());

  const orgExport = () => call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${surveyId}` });
  const supExport = (token: string) => call(t.app, token, { method: 'GET', url: `/api/v1/survey/supervisorName/response/download/${surveyId}` });

  it('gives one user one export at a time: a second at once is 429 with a clear message', async () => {
    const [a, b] = await Promise.all([orgExport(), orgExport()]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 429]);
    expect([a, b].find((r) => r.statusCode === 429)!.json()).toMatchObject({ msg: ApiMsg.exportInProgress });
    // Once it has finished, the next one runs.
    expect((await orgExport()).statusCode).toBe(200);
  }, 300_000);

  it('runs the next waiting export when one finishes, and refuses past the queue with 503 + Retry-After', async () => {
    const replies = await Promise.all([orgExport(), supExport(supervisors[0]!), supExport(supervisors[1]!)]);
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    const refused = replies.find((r) => r.statusCode === 503)!;
    expect(refused.json()).toMatchObject({ msg: ApiMsg.serviceUnavailable });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await supExport(supervisors[1]!)).statusCode).toBe(200);
  }, 300_000);
});
