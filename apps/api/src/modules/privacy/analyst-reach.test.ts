import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MapLimits, OfficeRole, QuestionType, type MapReply, type StoredQuestion, type TeamMapReply } from '@survey-bird/contracts';
import { addMember, addOfficeUser, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

// What an analyst (the office role kept from personal data) reaches beyond the table and the
// detail: the map's positions and the search. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

const questions: StoredQuestion[] = [
  { id: 'name', text: 'Respondent name', type: QuestionType.text, compulsory: true, options: [], personal: true },
  { id: 'phone', text: 'Phone', type: QuestionType.phone, compulsory: false, options: [], personal: true },
  { id: 'kind', text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Supermarket'] },
  { id: 'note', text: 'Shop front', type: QuestionType.text, compulsory: false, options: [] },
  { id: 'where', text: 'Where', type: QuestionType.liveLocation, compulsory: false, options: [] },
];

/** The exact places of the two responses, as stored: no analyst's reply may carry either number. */
const AMINA = { lat: 6.524379, lng: 3.379206 };
const BELLO = { lat: 6.601812, lng: 3.351547 };

describe("an analyst's map and search", () => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let survey: { id: string; organizationId: string };
  let analyst: Awaited<ReturnType<typeof addOfficeUser>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.services.flags.worker.stop();
    org = await createOrganization(t.app, 'Reach Org');
    survey = { id: (await createSurvey(t.app, org.id, { title: 'Outlets', questions })).id, organizationId: org.id };
    const fu = await addMember(t.app, survey.id, org.id, { fullName: 'Tunde Field' });
    ids.amina = (await addResponse(t.app, fu, survey, { fullName: 'Tunde Field', answers: { 'Respondent name': 'Amina Yusuf', Phone: '+2348031234567', 'Outlet type': 'Kiosk', 'Shop front': 'blue door', Where: `${AMINA.lat}, ${AMINA.lng} (±12 m)` } })).id;
    ids.bello = (await addResponse(t.app, fu, survey, { fullName: 'Tunde Field', answers: { 'Respondent name': 'Bello Musa', 'Outlet type': 'Supermarket', 'Shop front': 'green gate', Where: `${BELLO.lat}, ${BELLO.lng} (±8 m)` } })).id;
    // Positions reach the map from the flag worker's checks.
    await t.app.services.flags.worker.drain();
    analyst = await addOfficeUser(t.app, org.id, OfficeRole.analyst);
  });
  afterAll(() => t.close());

  const map = async (token: string, query: Record<string, string>) => {
    const res = await call(t.app, token, { method: 'GET', url: `/api/v1/survey/${survey.id}/map`, query });
    expect(res.statusCode, res.body).toBe(200);
    return { body: res.json<MapReply>(), text: res.body };
  };
  const exact = (text: string) => [AMINA.lat, AMINA.lng, BELLO.lat, BELLO.lng].filter((n) => text.includes(String(n)));

  it('gives the owner every response at its exact place', async () => {
    const { body } = await map(org.token, { zoom: String(MapLimits.pointsZoom) });
    expect(body.locationsHidden ?? false).toBe(false);
    expect(body.features.map((f) => f.geometry.coordinates).sort()).toEqual([[AMINA.lng, AMINA.lat], [BELLO.lng, BELLO.lat]].sort());
  });

  it("never gives an analyst a response's coordinates, id or field user: counts per cell of several km, at every zoom", async () => {
    const base = MapLimits.hiddenCellDegrees;
    for (const zoom of ['2', '8', '12', String(MapLimits.pointsZoom), String(MapLimits.maxZoom)]) {
      const { body, text } = await map(analyst.token, { zoom });
      expect(exact(text)).toEqual([]);
      expect(text).not.toContain(ids.amina);
      expect(text).not.toContain('Tunde Field');
      expect(body.locationsHidden).toBe(true);
      expect(body.clustered).toBe(true);
      expect(body.total).toBe(2);
      expect(body.cellDegrees).toBeGreaterThanOrEqual(base);
      // A whole power of two of base cells: views of two zooms never overlay into a finer cell.
      expect(Number.isInteger(Math.log2(body.cellDegrees / base))).toBe(true);
      for (const f of body.features) {
        expect(f.properties.kind).toBe('cluster');
        // Each cluster sits at the centre of its cell, not at the mean of its responses.
        const [lng, lat] = f.geometry.coordinates;
        expect(((lng + 180) / body.cellDegrees) % 1).toBeCloseTo(0.5, 9);
        expect(((lat + 90) / body.cellDegrees) % 1).toBeCloseTo(0.5, 9);
      }
      // Bounds (what the map fits into view) are whole base cells: the two responses' squares.
      expect(body.bounds).toEqual([3.3125, 6.5, 3.4375, 6.625]);
    }
  });

  it("lets no narrow box tell an analyst where inside its cell a response is: the box is widened to whole cells", async () => {
    // A box of a few metres around Amina's door, and one beside it in the same cell: the same answer.
    const box = (d0: number, d1: number) => [AMINA.lng + d0, AMINA.lat + d0, AMINA.lng + d1, AMINA.lat + d1].map((v) => v.toFixed(6)).join(',');
    const tight = box(-0.0001, 0.0001);
    const beside = box(0.0002, 0.0004);
    const a = await map(analyst.token, { zoom: String(MapLimits.maxZoom), bbox: tight });
    const b = await map(analyst.token, { zoom: String(MapLimits.maxZoom), bbox: beside });
    expect(a.body.total).toBe(1);
    expect(b.body.total).toBe(1);
    expect(a.body.features).toEqual(b.body.features);
    expect(exact(a.text)).toEqual([]);
  });

  it("places a field user on an analyst's team map only by the cell of their latest response, the owner at its exact place", async () => {
    const team = async (token: string) => {
      const res = await call(t.app, token, { method: 'GET', url: `/api/v1/survey/${survey.id}/team-map` });
      expect(res.statusCode, res.body).toBe(200);
      return { body: res.json<TeamMapReply>(), text: res.body };
    };
    const owner = await team(org.token);
    const ownerPlace = owner.body.fieldUsers[0]!.position!;
    expect([AMINA, BELLO]).toContainEqual({ lat: ownerPlace.lat, lng: ownerPlace.lng });
    const seen = await team(analyst.token);
    expect(exact(seen.text)).toEqual([]);
    const place = seen.body.fieldUsers[0]!.position!;
    const base = MapLimits.hiddenCellDegrees;
    // The centre of the base cell that holds the exact place.
    expect(Math.abs(place.lat - ownerPlace.lat)).toBeLessThanOrEqual(base / 2);
    expect(Math.abs(place.lng - ownerPlace.lng)).toBeLessThanOrEqual(base / 2);
    expect(((place.lat + 90) / base) % 1).toBeCloseTo(0.5, 6);
    expect(((place.lng + 180) / base) % 1).toBeCloseTo(0.5, 6);
  });

  it('finds nothing for an analyst by a word only in a personal answer, in the table and the export, while the owner finds it', async () => {
    const search = (token: string, q: string) => call(t.app, token, { method: 'GET', url: `/api/v1/survey/organization/response/${survey.id}`, query: { searchQuery: q } });
    for (const q of ['yusuf', 'Amina', '08031234567', '+234803']) {
      const res = await search(analyst.token, q);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ responses: [], totalCount: 0, hasNextPage: false });
      const owner = (await search(org.token, q)).json<{ responses: { _id: string }[] }>();
      expect(owner.responses.map((r) => r._id)).toEqual([ids.amina]);
    }
    // What is not personal is still found: a word of a plain answer, and the field user's name.
    expect((await search(analyst.token, 'blue door')).json<{ responses: { _id: string }[] }>().responses.map((r) => r._id)).toEqual([ids.amina]);
    expect((await search(analyst.token, 'tunde')).json<{ totalCount: number }>().totalCount).toBe(2);

    const exported = async (token: string, q: string) => {
      const get = () => call(t.app, token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${survey.id}`, query: { format: 'csv', searchQuery: q } });
      let res = await get();
      // The previous export's slot is freed when its stream closes, just after its body was read.
      for (let i = 0; res.statusCode === 429 && i < 50; i++) res = await new Promise((r) => setTimeout(r, 100)).then(get);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      return res.body;
    };
    const hidden = await exported(analyst.token, 'yusuf');
    expect(hidden).not.toContain('Kiosk');
    expect(hidden).not.toContain('Yusuf');
    expect(await exported(analyst.token, 'blue door')).toContain('Kiosk');
    expect(await exported(org.token, 'yusuf')).toContain('Amina Yusuf');
  }, 120_000);

  it("keeps personal answers out of an analyst's OData feed and the changes feed read from a cursor", async () => {
    const odata = async (token: string) => {
      const res = await call(t.app, token, { method: 'GET', url: `/api/v1/odata/${survey.id}/Responses` });
      expect(res.statusCode, res.body).toBe(200);
      return res.body;
    };
    const feed = await odata(analyst.token);
    for (const secret of ['Amina Yusuf', '+2348031234567', String(AMINA.lat), 'Bello Musa']) expect(feed).not.toContain(secret);
    expect(feed).toContain('blue door');
    expect(await odata(org.token)).toContain('Amina Yusuf');
    // Power BI reads with the analyst's API token (HTTP Basic): the token reads as its creator does.
    const made = await call(t.app, analyst.token, { method: 'POST', url: '/api/v1/tokens', payload: { name: 'Power BI', surveyId: survey.id, expiresAt: new Date(Date.now() + 86_400_000).toISOString() } });
    expect(made.statusCode, made.body).toBe(200);
    const byToken = await t.app.inject({ method: 'GET', url: `/api/v1/odata/${survey.id}/Responses`, headers: { authorization: `Basic ${Buffer.from(`analyst:${made.json<{ secret: string }>().secret}`).toString('base64')}` } });
    expect(byToken.statusCode, byToken.body).toBe(200);
    for (const secret of ['Amina Yusuf', '+2348031234567', String(AMINA.lat)]) expect(byToken.body).not.toContain(secret);

    const changes = async (token: string, since?: string) => call(t.app, token, { method: 'GET', url: `/api/v1/survey/${survey.id}/responses`, query: { limit: '1', ...(since ? { since } : {}) } });
    const first = await changes(analyst.token);
    expect(first.statusCode, first.body).toBe(200);
    const next = await changes(analyst.token, first.json<{ nextCursor: string }>().nextCursor);
    for (const body of [first.body, next.body]) for (const secret of ['Amina Yusuf', 'Bello Musa', '+2348031234567', String(AMINA.lat), String(BELLO.lat)]) expect(body).not.toContain(secret);
    expect(next.json<{ responses: unknown[] }>().responses).toHaveLength(1);
  });

  it("keeps the respondent's audio clip from an analyst (reviewers only)", async () => {
    const res = await call(t.app, analyst.token, { method: 'GET', url: `/api/v1/responses/${ids.amina}/audio` });
    expect(res.statusCode).toBe(403);
  });
});
