import { afterAll, beforeAll, expect, it } from 'vitest';
import { Role } from '@survey-bird/contracts';
import { buildTestApp, call, login, type TestApp } from '../../test/helpers.js';
import { seedDemoIfEmpty } from './demo.js';
import { DEMO_ANALYST } from './demo-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

it('seeds a working demo once, and returns the same logins on the next start', async () => {
  const logins = await seedDemoIfEmpty(t.app);
  expect(logins?.map((l) => l.role).sort()).toEqual([Role.masterAdmin, Role.organization, Role.organization, ...Array(2).fill(Role.supervisor), ...Array(6).fill(Role.fieldUser)].sort());
  const k = t.app.db.kysely;
  const count = async (table: 'responses' | 'members' | 'surveys' | 'dataset_options') => Number((await k.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  expect(await count('responses')).toBe(420);
  expect(await count('members')).toBe(8);
  expect(await count('surveys')).toBe(2);
  expect(await count('dataset_options')).toBeGreaterThan(50);
  // Every field user with responses has a last sync (the team list would say "Never" otherwise).
  const withResponses = await k.selectFrom('responses').select('user_id').distinct().execute();
  const synced = await k.selectFrom('device_status').select(['user_id', 'last_sync_at']).execute();
  expect(synced.map((d) => d.user_id).sort()).toEqual(withResponses.map((r) => r.user_id).sort());
  for (const d of synced) expect(d.last_sync_at).toBeGreaterThan(0);

  const owner = logins!.find((l) => l.role === Role.organization)!;
  const token = await login(t.app, owner.email, owner.password);
  const me = await call(t.app, token, { method: 'GET', url: '/api/v1/user' });
  expect(me.json().user).toMatchObject({ email: owner.email, role: Role.organization, verified: true });

  // Each demo survey opens in the builder: its first version is listed like a builder-made survey's.
  const surveys = (await call(t.app, token, { method: 'GET', url: '/api/v1/survey/organization' })).json().survey as { _id: string; title: string }[];
  for (const s of surveys) {
    const versions = (await call(t.app, token, { method: 'GET', url: `/api/v1/survey/${s._id}/versions` })).json();
    expect(versions).toMatchObject({ totalCount: 1, versions: [{ version: 1, title: s.title }] });
    // The survey's expected count travels with its versions: an editor opened from a link keeps it.
    expect(versions.expectedResponseCount).toBeGreaterThan(0);
  }
  expect(await k.selectFrom('survey_versions').select('survey_id').execute()).toHaveLength(2);

  // The demo analyst reads the same surveys, and the map only by area (personal locations hidden).
  const analyst = logins!.find((l) => l.email === DEMO_ANALYST.email)!;
  const analystToken = await login(t.app, analyst.email, analyst.password);
  const retail = surveys.find((s) => s.title.startsWith('Retail'))!;
  const map = await call(t.app, analystToken, { method: 'GET', url: `/api/v1/survey/${retail._id}/map`, query: { zoom: '16' } });
  expect(map.json()).toMatchObject({ locationsHidden: true, clustered: true });

  const again = await seedDemoIfEmpty(t.app);
  expect(again).toEqual(logins);
  expect(await count('responses')).toBe(420);
});
