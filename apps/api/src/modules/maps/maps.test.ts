import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MapLimits, MapMsg, Role, type MapReply, type TeamMapReply } from '@survey-bird/contracts';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { cellDegrees } from './service.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let otherOrg: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string; organizationId: string };
let supA: Awaited<ReturnType<typeof addMember>>;
let supB: Awaited<ReturnType<typeof addMember>>;
let ada: Awaited<ReturnType<typeof addMember>>;
let bayo: Awaited<ReturnType<typeof addMember>>;
let chi: Awaited<ReturnType<typeof addMember>>;
const DAY = 86_400_000;
const now = Date.now();
const ids: Record<string, string> = {};

/** A response with a location answer; its position reaches the map when the flag worker checks it (drain). */
async function located(member: { id: string; userId: string | null }, name: string, lat: number, lng: number, capturedAt: number, status = 'pending') {
  const answers = { 'Name of outlet': `Outlet ${name}`, 'Outlet type': 'Kiosk', Location: `${lat}, ${lng} (±5 m)` };
  const { id } = await addResponse(t.app, member, survey, { answers, capturedAt, createdAt: capturedAt, status });
  ids[name] = id;
  return id;
}

const map = async (token: string | null, query: Record<string, string> = {}, surveyId = survey.id) => {
  const res = await call(t.app, token, { method: 'GET', url: `/api/v1/survey/${surveyId}/map`, query });
  return { status: res.statusCode, body: res.json<MapReply & { msg?: string }>() };
};
const pointIds = (r: MapReply) => r.features.flatMap((f) => (f.properties.kind === 'response' ? [f.properties.id] : [])).sort();

beforeAll(async () => {
  t = await buildTestApp();
  // The tests work the flag queue themselves (drain): positions come from its checks.
  await t.app.services.flags.worker.stop();
  org = await createOrganization(t.app, 'Map Org');
  otherOrg = await createOrganization(t.app, 'Other Org');
  survey = { id: (await createSurvey(t.app, org.id)).id, organizationId: org.id };
  supA = await addMember(t.app, survey.id, org.id, { role: Role.supervisor, fullName: 'Sup A' });
  supB = await addMember(t.app, survey.id, org.id, { role: Role.supervisor, fullName: 'Sup B' });
  ada = await addMember(t.app, survey.id, org.id, { fullName: 'Ada', supervisorId: supA.id });
  bayo = await addMember(t.app, survey.id, org.id, { fullName: 'Bayo', supervisorId: supA.id });
  chi = await addMember(t.app, survey.id, org.id, { fullName: 'Chi', supervisorId: supB.id });
  // Lagos: three points within 200 m of each other, one in Ikeja (~15 km north).
  await located(ada, 'ada1', 6.4550, 3.3940, now - 2 * DAY, 'approved');
  await located(ada, 'ada2', 6.4560, 3.3950, now - 1 * DAY);
  await located(bayo, 'bayo1', 6.4555, 3.3945, now - 10 * DAY, 'rejected');
  await located(chi, 'chi1', 6.6018, 3.3515, now - 2.5 * DAY);
  // A response without a position is not on the map.
  await addResponse(t.app, chi, survey, { answers: { 'Name of outlet': 'No fix', 'Outlet type': 'Kiosk' } });
  await t.app.services.flags.worker.drain();
  await t.app.db.kysely.deleteFrom('response_flags').execute();
  await t.app.db.kysely.insertInto('response_flags').values({ response_id: ids.ada2!, flag: 'too_fast', survey_id: survey.id, member_id: ada.id, reason: 'Filled in 3 s', other_response_id: null, created_at: now, dismissed_at: null, dismissed_by: null, dismissed_role: null, dismiss_note: null }).execute();
  await t.app.db.kysely.insertInto('response_flags').values({ response_id: ids.chi1!, flag: 'duplicate_answers', survey_id: survey.id, member_id: chi.id, reason: 'Same answers', other_response_id: null, created_at: now, dismissed_at: now, dismissed_by: 'x', dismissed_role: 'organization', dismiss_note: 'fine' }).execute();
});

afterAll(async () => {
  await t.close();
});

describe('GET /survey/:id/map', () => {
  it('answers every located response as points from the points zoom, with status, flag, field user and time', async () => {
    const { status, body } = await map(org.token, { zoom: String(MapLimits.pointsZoom) });
    expect(status).toBe(200);
    expect(body.type).toBe('FeatureCollection');
    expect(body.clustered).toBe(false);
    expect(body.total).toBe(4);
    expect(pointIds(body)).toEqual([ids.ada1, ids.ada2, ids.bayo1, ids.chi1].sort());
    const ada2 = body.features.find((f) => f.properties.kind === 'response' && f.properties.id === ids.ada2)!;
    expect(ada2.geometry.coordinates).toEqual([3.395, 6.456]);
    expect(ada2.properties).toMatchObject({ kind: 'response', status: 'pending', flagged: true, fieldUser: 'Ada' });
    // A dismissed flag is not open.
    expect(body.features.find((f) => f.properties.kind === 'response' && f.properties.id === ids.chi1)!.properties).toMatchObject({ flagged: false });
    expect(body.basemap).toEqual({ pmtilesUrl: null, tileUrl: null, attribution: null });
    expect(body.bounds).toEqual([3.3515, 6.455, 3.395, 6.6018]);
  });

  it('clusters below the points zoom: near points in one cluster with counts by status and flag, a lone one as itself', async () => {
    const { body } = await map(org.token, { zoom: '10', bbox: '3,6,4,7' });
    expect(body.clustered).toBe(true);
    expect(body.total).toBe(4);
    const clusters = body.features.filter((f) => f.properties.kind === 'cluster');
    expect(clusters).toHaveLength(1);
    expect(clusters[0]!.properties).toEqual({ kind: 'cluster', count: 3, statuses: { approved: 1, pending: 1, returned: 0, rejected: 1 }, flagged: 1 });
    const [lng, lat] = clusters[0]!.geometry.coordinates;
    expect(lat).toBeCloseTo(6.4555, 4);
    expect(lng).toBeCloseTo(3.3945, 4);
    expect(pointIds(body)).toEqual([ids.chi1]);
    // At zoom 2 (22.5-degree cells) all four are one cluster.
    const world = await map(org.token, { zoom: '2' });
    expect(world.body.features).toHaveLength(1);
    expect(world.body.features[0]!.properties).toMatchObject({ kind: 'cluster', count: 4 });
    // One cluster, yet the bounds span every response: what the map fits into view.
    expect(world.body.bounds).toEqual([3.3515, 6.455, 3.395, 6.6018]);
    expect((await map(org.token, { zoom: '2', status: 'returned' })).body.bounds).toBeNull();
  });

  it('filters by status, flag, date range, field user and bbox', async () => {
    const ids15 = async (q: Record<string, string>) => {
      const res = await map(org.token, { zoom: '16', ...q });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return pointIds(res.body);
    };
    expect(await ids15({ status: 'pending' })).toEqual([ids.ada2, ids.chi1].sort());
    expect(await ids15({ flag: 'any' })).toEqual([ids.ada2]);
    expect(await ids15({ flag: 'too_fast' })).toEqual([ids.ada2]);
    expect(await ids15({ flag: 'duplicate_answers' })).toEqual([]);
    expect(await ids15({ flag: 'none' })).toEqual([ids.ada1, ids.bayo1, ids.chi1].sort());
    expect(await ids15({ from: new Date(now - 7 * DAY).toISOString() })).toEqual([ids.ada1, ids.ada2, ids.chi1].sort());
    expect(await ids15({ from: new Date(now - 7 * DAY).toISOString(), to: new Date(now - 1.5 * DAY).toISOString() })).toEqual([ids.ada1, ids.chi1].sort());
    expect(await ids15({ fieldUserId: ada.id })).toEqual([ids.ada1, ids.ada2].sort());
    expect(await ids15({ bbox: '3.3,6.5,3.4,6.7' })).toEqual([ids.chi1]);
  });

  it('a supervisor sees only their own field users; a field user only their own responses', async () => {
    expect(pointIds((await map(supA.token, { zoom: '16' })).body)).toEqual([ids.ada1, ids.ada2, ids.bayo1].sort());
    expect(pointIds((await map(supB.token, { zoom: '16' })).body)).toEqual([ids.chi1]);
    // Asking for another team's field user finds nothing, not their responses.
    expect(pointIds((await map(supB.token, { zoom: '16', fieldUserId: ada.id })).body)).toEqual([]);
    expect(pointIds((await map(bayo.token, { zoom: '16' })).body)).toEqual([ids.bayo1]);
    expect((await map(supA.token, { zoom: '2' })).body.total).toBe(3);
  });

  it('is 404 for another organization, and refuses bad input in words', async () => {
    expect(await map(otherOrg.token, {})).toMatchObject({ status: 404, body: { msg: 'Survey not found' } });
    const outsider = await addMember(t.app, (await createSurvey(t.app, org.id)).id, org.id, {});
    expect((await map(outsider.token, {})).status).toBe(404);
    expect(await map(org.token, { bbox: '4,6,3,7' })).toMatchObject({ status: 400, body: { msg: MapMsg.badBbox } });
    expect(await map(org.token, { bbox: '-190,6,3,7' })).toMatchObject({ status: 400, body: { msg: MapMsg.badBbox } });
    expect(await map(org.token, { zoom: '23' })).toMatchObject({ status: 400, body: { msg: MapMsg.badZoom } });
    expect(await map(org.token, { zoom: 'x' })).toMatchObject({ status: 400, body: { msg: MapMsg.badZoom } });
    expect(await map(org.token, { from: new Date(now).toISOString(), to: new Date(now - DAY).toISOString() })).toMatchObject({ status: 400, body: { msg: MapMsg.badRange } });
    expect((await map(org.token, { flag: 'nonsense' })).status).toBe(400);
  });

  it('widens the cells of a bbox too large for its zoom, so one answer never groups into more than maxCells', () => {
    expect(cellDegrees(2, undefined)).toBe(22.5);
    const wide = cellDegrees(14, undefined);
    expect((360 / wide) * (180 / wide)).toBeLessThanOrEqual(MapLimits.maxCells + 1);
    expect(cellDegrees(14, { west: 3.3, south: 6.4, east: 3.4, north: 6.5 })).toBeCloseTo(90 / 2 ** 14, 10);
  });
});

describe('GET /survey/:id/team-map', () => {
  const team = async (token: string | null) => {
    const res = await call(t.app, token, { method: 'GET', url: `/api/v1/survey/${survey.id}/team-map` });
    return { status: res.statusCode, body: res.json<TeamMapReply>() };
  };

  it("answers each field user's latest position and time, stale ones past the organization's setting", async () => {
    const { status, body } = await team(org.token);
    expect(status).toBe(200);
    expect(body.staleSyncDays).toBe(3);
    const byName = Object.fromEntries(body.fieldUsers.map((f) => [f.fullName, f]));
    expect(Object.keys(byName).sort()).toEqual(['Ada', 'Bayo', 'Chi']);
    expect(byName.Ada!.position).toEqual({ lat: 6.456, lng: 3.395, at: new Date(now - DAY).toISOString(), responseId: ids.ada2 });
    expect(byName.Ada!.stale, JSON.stringify(body)).toBe(false);
    expect(byName.Bayo!.stale).toBe(true);
    expect(byName.Chi!.stale).toBe(false);
    await t.app.db.kysely.updateTable('organizations').set({ stale_sync_days: 2 }).where('id', '=', org.id).execute();
    expect((await team(org.token)).body.fieldUsers.find((f) => f.fullName === 'Chi')!.stale).toBe(true);
    await t.app.db.kysely.updateTable('organizations').set({ stale_sync_days: 3 }).where('id', '=', org.id).execute();
  });

  it('a supervisor sees only their team; a field user and another organization are refused', async () => {
    expect((await team(supB.token)).body.fieldUsers.map((f) => f.fullName)).toEqual(['Chi']);
    expect((await team(supA.token)).body.fieldUsers.map((f) => f.fullName)).toEqual(['Ada', 'Bayo']);
    expect((await team(ada.token)).status).toBe(403);
    expect((await team(otherOrg.token)).status).toBe(404);
  });

  it('shows a field user with no located response without a position', async () => {
    const dayo = await addMember(t.app, survey.id, org.id, { fullName: 'Dayo', supervisorId: supB.id });
    const row = (await team(supB.token)).body.fieldUsers.find((f) => f._id === dayo.id);
    expect(row).toEqual({ _id: dayo.id, fullName: 'Dayo', position: null, stale: true });
  });
});
