import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { MapMsg, type BasemapReply, type MapReply } from '@survey-bird/contracts';
import type { StoreKind } from '../files/store/index.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { makePmtiles } from '../../../test/pmtiles.js';
import { startS3 } from '../../../test/s3-server.js';
import { CHUNK_BYTES } from './basemap-store.js';
import { parseRange } from './routes.js';

function multipart(file: Buffer, filename = 'lagos.pmtiles') {
  const boundary = `----sb${randomUUID()}`;
  const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`);
  return { payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The PMTiles reader's byte source, over the API's range requests. */
function apiSource(t: TestApp, url: string): Source {
  return {
    getKey: () => url,
    async getBytes(offset: number, length: number): Promise<RangeResponse> {
      const res = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${offset}-${offset + length - 1}` } });
      expect(res.statusCode).toBe(206);
      const data = res.rawPayload;
      return { data: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer };
    },
  };
}

const stores: StoreKind[] = ['disk', 'postgres', 's3'];

describe.each(stores)('basemaps in the %s store', (kind) => {
  let t: TestApp;
  let s3: Awaited<ReturnType<typeof startS3>> | undefined;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  // Zoom 0-5: 1,365 tiles, about 1.5 MB, so the database store holds it in two chunks.
  const archive = makePmtiles({ maxZoom: 5 });
  const upload = async (token: string | null, file: Buffer, filename?: string) => {
    const res = await call(t.app, token, { method: 'POST', url: '/api/v1/organization/basemap', ...multipart(file, filename) });
    return { status: res.statusCode, body: res.json<BasemapReply & { msg: string }>() };
  };

  beforeAll(async () => {
    s3 = kind === 's3' ? await startS3('basemaps') : undefined;
    t = await buildTestApp({ fileStore: kind, ...(s3 ? { s3: s3.config } : {}), maxBasemapBytes: archive.length + 4096 });
    org = await createOrganization(t.app, 'Basemap Org');
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  it('keeps an uploaded PMTiles archive and serves it by range (206, Accept-Ranges), whole (200) and refuses a range past the end (416)', async () => {
    const { status, body } = await upload(org.token, archive);
    expect(status).toBe(200);
    expect(body).toMatchObject({ msg: MapMsg.basemapSaved, size: archive.length, name: 'lagos.pmtiles' });
    expect(body.url).toBe(`/api/v1/basemap/${body.id}`);

    const whole = await t.app.inject({ method: 'GET', url: body.url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(Buffer.compare(whole.rawPayload, archive)).toBe(0);

    expect(archive.length).toBeGreaterThan(CHUNK_BYTES);
    // A range across the database store's chunk edge.
    const from = CHUNK_BYTES - 100;
    const part = await t.app.inject({ method: 'GET', url: body.url, headers: { range: `bytes=${from}-${from + 149}` } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes ${from}-${from + 149}/${archive.length}`);
    expect(part.headers['content-length']).toBe('150');
    expect(Buffer.compare(part.rawPayload, archive.subarray(from, from + 150))).toBe(0);

    const suffix = await t.app.inject({ method: 'GET', url: body.url, headers: { range: 'bytes=-10' } });
    expect(suffix.statusCode).toBe(206);
    expect(Buffer.compare(suffix.rawPayload, archive.subarray(archive.length - 10))).toBe(0);

    const past = await t.app.inject({ method: 'GET', url: body.url, headers: { range: `bytes=${archive.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${archive.length}`);
  });

  it('is read by the pmtiles library through the range requests: header, metadata and a tile', async () => {
    const { body } = await upload(org.token, archive);
    const reader = new PMTiles(apiSource(t, body.url));
    const header = await reader.getHeader();
    expect(header).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 5, tileType: 2 });
    expect(await reader.getMetadata()).toMatchObject({ name: 'Test area' });
    const tile = await reader.getZxy(3, 5, 2);
    expect(tile).toBeDefined();
    expect(Buffer.from(tile!.data).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(await reader.getZxy(6, 0, 0)).toBeUndefined();
  });

  it('the newest upload is the survey maps\' basemap; the one it replaced is gone', async () => {
    const first = (await upload(org.token, archive)).body;
    const second = (await upload(org.token, makePmtiles({ maxZoom: 1 }))).body;
    expect((await t.app.inject({ method: 'GET', url: first.url })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: second.url })).statusCode).toBe(200);
    const survey = await createSurvey(t.app, org.id);
    const fu = await addMember(t.app, survey.id, org.id, {});
    const map = await call(t.app, fu.token, { method: 'GET', url: `/api/v1/survey/${survey.id}/map` });
    expect(map.json<MapReply>().basemap).toEqual({ pmtilesUrl: second.url, tileUrl: null, attribution: null });
    if (kind === 'postgres') expect(await t.app.db.kysely.selectFrom('basemap_chunks').select('basemap_id').distinct().execute()).toEqual([{ basemap_id: second.id }]);
  });

  it('refuses what is not a PMTiles v3 archive, an empty or missing file, and one past the size cap', async () => {
    const v2 = Buffer.from(archive);
    v2[7] = 2;
    expect(await upload(org.token, v2)).toMatchObject({ status: 415, body: { msg: MapMsg.notPmtiles } });
    expect(await upload(org.token, Buffer.from('<html>not tiles</html>'.padEnd(300, ' ')))).toMatchObject({ status: 415, body: { msg: MapMsg.notPmtiles } });
    // A header whose root directory points past the end of the file.
    expect(await upload(org.token, archive.subarray(0, 140))).toMatchObject({ status: 415, body: { msg: MapMsg.notPmtiles } });
    expect(await upload(org.token, Buffer.alloc(0))).toMatchObject({ status: 400, body: { msg: MapMsg.basemapMissing } });
    const json = await call(t.app, org.token, { method: 'POST', url: '/api/v1/organization/basemap', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(await upload(org.token, Buffer.concat([archive, Buffer.alloc(8192)]))).toMatchObject({ status: 413, body: { msg: MapMsg.basemapTooLarge } });
  });

  it('only an organization uploads; an unknown id is 404', async () => {
    const survey = await createSurvey(t.app, org.id);
    const fu = await addMember(t.app, survey.id, org.id, {});
    expect((await upload(fu.token, archive)).status).toBe(403);
    expect((await upload(null, archive)).status).toBe(401);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/basemap/0123456789abcdef0123456789abcdef' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ msg: MapMsg.basemapNotFound });
    const malformed = await t.app.inject({ method: 'GET', url: '/api/v1/basemap/..%2F..%2Fetc' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ msg: MapMsg.basemapNotFound });
  });
});

describe('parseRange', () => {
  it('reads one range of bytes and refuses the unsatisfiable', () => {
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange('bytes=0-9', 100)).toEqual([0, 9]);
    expect(parseRange('bytes=90-', 100)).toEqual([90, 99]);
    expect(parseRange('bytes=90-500', 100)).toEqual([90, 99]);
    expect(parseRange('bytes=-5', 100)).toEqual([95, 99]);
    expect(parseRange('bytes=-500', 100)).toEqual([0, 99]);
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-4', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    // Several ranges or another unit: the whole file, as RFC 9110 allows.
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(parseRange('items=0-1', 100)).toBeUndefined();
  });
});

describe('MAP_TILE_URL', () => {
  it('reaches the map replies with its attribution, and its origin only the CSP img-src', async () => {
    const t = await buildTestApp({ mapTiles: { url: 'https://tiles.example.org/{z}/{x}/{y}.png', attribution: '© Example' } });
    try {
      const org = await createOrganization(t.app);
      const survey = await createSurvey(t.app, org.id);
      const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${survey.id}/map` });
      expect(res.json<MapReply>().basemap).toEqual({ pmtilesUrl: null, tileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png', attribution: '© Example' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("img-src 'self' blob: data: https://tiles.example.org;");
      expect(csp).toContain("connect-src 'self';");
    } finally {
      await t.close();
    }
  });

  it('must be an http(s) template with {z}, {x} and {y}', async () => {
    const { loadConfig } = await import('../../config.js');
    // A secret given, so loading writes nothing to a data directory.
    const env = { JWT_SECRET: 'a-secret-for-this-test-only', DATA_DIR: '/nonexistent' };
    expect(() => loadConfig({ ...env, MAP_TILE_URL: 'https://tiles.example.org/tile.png' })).toThrow(/MAP_TILE_URL/);
    expect(() => loadConfig({ ...env, MAP_TILE_URL: 'file:///etc/{z}/{x}/{y}' })).toThrow(/MAP_TILE_URL/);
    expect(loadConfig({ ...env, MAP_TILE_URL: 'https://t.example/{z}/{x}/{y}.png', MAP_ATTRIBUTION: 'OSM' }).mapTiles).toEqual({ url: 'https://t.example/{z}/{x}/{y}.png', attribution: 'OSM' });
    expect(loadConfig(env).mapTiles).toBeUndefined();
  });
});
