import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, type StoredQuestion } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

/**
 * Lines, areas and recordings in the export: a geotrace is a LineString, a geoshape a Polygon in
 * GeoJSON and KML; each has its length (m) or area (m²) in a column beside it; a recording is a
 * signed link as a photo is. On the engine the run is on (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;

const questions: StoredQuestion[] = [
  { id: 'name', text: 'Farmer', type: QuestionType.text, compulsory: true, options: [] },
  { id: 'path', text: 'Path', type: QuestionType.geotrace, compulsory: false, options: [] },
  { id: 'plot', text: 'Plot', type: QuestionType.geoshape, compulsory: false, options: [] },
  { id: 'voice', text: 'Voice', type: QuestionType.audio, compulsory: false, options: [] },
];
// 0.0009 degrees is 100.2 m: a 100 m line and a 100 m square at the equator.
const PATH = '0 0 0 0;0 0.0009 0 0';
const PLOT = '0 0 0 0;0 0.0009 0 0;0.0009 0.0009 0 0;0.0009 0 0 0;0 0 0 0';
const CLIP = 'http://sb.test/api/v1/files/image/voiceclip123';

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Geo Org');
  ({ id: surveyId } = await createSurvey(t.app, org.id, { title: 'Farms', questions }));
  const fu = await addMember(t.app, surveyId, org.id, { fullName: 'Fatima Musa' });
  const at = Date.UTC(2026, 10, 20, 14, 0, 0);
  await addResponse(t.app, fu, { id: surveyId, organizationId: org.id }, { answers: { Farmer: 'Ali', Plot: PLOT, Path: PATH, Voice: CLIP }, createdAt: at });
  await addResponse(t.app, fu, { id: surveyId, organizationId: org.id }, { answers: { Farmer: 'Bala', Path: PATH }, createdAt: at - 1000 });
  await addResponse(t.app, fu, { id: surveyId, organizationId: org.id }, { answers: { Farmer: 'Chidi' }, createdAt: at - 2000 });
});
afterAll(() => t.close());

const url = (format: string) => `/api/v1/survey/organization/response/download/${surveyId}?format=${format}`;
async function get(path: string) {
  const res = await call(t.app, org.token, { method: 'GET', url: path });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res;
}

describe('lines and areas in the export', () => {
  it('GeoJSON: a geoshape is a closed Polygon, a geotrace a LineString, lng before lat', async () => {
    const layer = (await get(url('geojson'))).json<{ features: { geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }[] }>();
    expect(layer.features).toHaveLength(2);
    // The first geographic answer in column order: Ali's path, then Bala's.
    expect(layer.features.map((f) => f.geometry.type)).toEqual(['LineString', 'LineString']);
    expect(layer.features[0]!.geometry.coordinates).toEqual([[0, 0], [0.0009, 0]]);
    expect(layer.features[0]!.properties['Path (length m)']).toBeCloseTo(100.2, 1);
    expect(layer.features[0]!.properties['Plot (area m²)']).toBeGreaterThan(10_000);
  });

  it('GeoJSON of a survey asking only the area: one Polygon with its ring closed', async () => {
    const only = await createSurvey(t.app, org.id, { title: 'Plots', questions: [questions[0]!, questions[2]!] });
    const fu = await addMember(t.app, only.id, org.id);
    await addResponse(t.app, fu, { id: only.id, organizationId: org.id }, { answers: { Farmer: 'Dayo', Plot: '0 0;0 0.0009;0.0009 0.0009;0 0' } });
    const layer = (await get(`/api/v1/survey/organization/response/download/${only.id}?format=geojson`)).json<{ features: { geometry: { type: string; coordinates: number[][][] } }[] }>();
    expect(layer.features[0]!.geometry).toEqual({ type: 'Polygon', coordinates: [[[0, 0], [0.0009, 0], [0.0009, 0.0009], [0, 0]]] });
    const kml = (await get(`/api/v1/survey/organization/response/download/${only.id}?format=kml`)).body;
    expect(kml).toContain('<Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 0.0009,0 0.0009,0.0009 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>');
  });

  it('CSV: the length and area beside their answers, and a recording as a signed link', async () => {
    const csv = (await get(url('csv'))).body.replace(/^\uFEFF/, '');
    const [header, ...rows] = csv.trim().split(/\r\n/);
    const cols = header!.split(',');
    expect(cols).toEqual(expect.arrayContaining(['Path', 'Path (length m)', 'Plot', 'Plot (area m²)', 'Voice']));
    expect(cols.indexOf('Path (length m)')).toBe(cols.indexOf('Path') + 1);
    const ali = rows.find((r) => r.includes('Ali'))!;
    expect(ali).toMatch(/,100\.2,/);
    expect(ali).toMatch(/,1003\d\.\d,|,1003\d,/);
    expect(ali).toMatch(/voiceclip123\?exp=\d+&sig=[0-9a-f]{64}/);
    const chidi = rows.find((r) => r.includes('Chidi'))!;
    expect(chidi.split(',').filter((c) => c === 'N/A').length).toBeGreaterThanOrEqual(5);
  });

  it('Stata: the measures are numeric variables named after the question id', async () => {
    const res = await call(t.app, org.token, { method: 'GET', url: url('stata') });
    expect(res.statusCode).toBe(200);
    const { default: JSZip } = await import('jszip');
    const zip = await JSZip.loadAsync(res.rawPayload);
    const doFile = await zip.file(/\.do$/)[0]!.async('string');
    expect(doFile).toMatch(/path_length/);
    expect(doFile).toMatch(/plot_area/);
  });
});
