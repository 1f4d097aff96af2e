import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { FlagWorker, MIN_JOBS_PER_TICK } from './flag-worker.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  // This test's own worker is the only one taking jobs.
  await t.app.services.flags.worker.stop();
});
afterAll(() => t.close());

const N = 4 * MIN_JOBS_PER_TICK;

describe('the flag worker under steady traffic', () => {
  it(`drains a backlog of ${N} with at least ${MIN_JOBS_PER_TICK} jobs a tick while requests keep arriving`, async () => {
    const org = await createOrganization(t.app);
    const survey = await createSurvey(t.app, org.id);
    const member = await addMember(t.app, survey.id, org.id);
    for (let i = 0; i < N; i++) await addResponse(t.app, member, { id: survey.id, organizationId: org.id });
    const worker = new FlagWorker(t.app.db.kysely, undefined, 10);
    expect(await worker.backlog()).toBe(N);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json().flagBacklog).toBe(N);

    // A request noted every millisecond (the worker is never quiet), a real one through the app every tenth.
    let requests = 0;
    const traffic = setInterval(() => {
      worker.noteRequest();
      if (++requests % 10 === 0) void t.app.inject({ method: 'GET', url: '/healthz' });
    }, 1);
    try {
      worker.start();
      while ((await worker.backlog()) > 0) await new Promise((r) => setTimeout(r, 20));
      await worker.stop();
    } finally {
      clearInterval(traffic);
    }
    expect(requests).toBeGreaterThan(worker.stats.workTicks);
    expect(worker.stats.checked).toBe(N);
    // Progress per tick, not wall time: every tick but the last did the minimum at least.
    expect(worker.stats.workTicks).toBeLessThanOrEqual(Math.ceil(N / MIN_JOBS_PER_TICK) + 1);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json().flagBacklog).toBe(0);
  });

  // SQLite runs queries synchronously, so only the worker's own yields let requests in; on PostgreSQL every query yields.
  it.runIf(process.env.TEST_DATABASE_URL === undefined)('runs many jobs per turn of a busy event loop, yielding between slices', async () => {
    const org = await createOrganization(t.app);
    const survey = await createSurvey(t.app, org.id);
    const member = await addMember(t.app, survey.id, org.id);
    for (let i = 0; i < N; i++) await addResponse(t.app, member, { id: survey.id, organizationId: org.id });
    // Every check costs 0.5 ms on the worker's clock, whatever the machine's load: an 8 ms slice holds 16.
    let clock = 0;
    const worker = new (class extends FlagWorker {
      protected override clock(): number {
        return clock;
      }
      override async check(id: string, now?: number): Promise<boolean> {
        clock += 0.5;
        return super.check(id, now);
      }
    })(t.app.db.kysely, undefined, 10);
    // Each turn of the loop carries 3 ms of request work, as a saturated server's turns do (tens of ms).
    let turns = 0;
    const traffic = setInterval(() => {
      worker.noteRequest();
      turns++;
      const until = performance.now() + 3;
      while (performance.now() < until);
    }, 1);
    try {
      worker.start();
      while ((await worker.backlog()) > 0) await new Promise((r) => setTimeout(r, 20));
      await worker.stop();
    } finally {
      clearInterval(traffic);
    }
    expect(worker.stats.checked).toBe(N);
    // One job per turn would take N turns; slices of jobs take a fraction of that.
    expect(turns).toBeLessThan(N / 2);
  });
});
