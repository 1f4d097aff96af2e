import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Limits, MAX_UPLOAD_BYTES, PhotoMsg } from '@survey-bird/contracts';
import { loadConfig, RESUMABLE_EXPIRY_HOURS, RESUMABLE_USER_MAX_MB, type FileStoreKind } from '../../config.js';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { tinyPng } from '../../../test/images.js';
import { tusClient } from '../../../test/tus.js';

/**
 * Unfinished resumable uploads are bounded: one per photo placeholder, a per-user cap on the bytes
 * they declare, cancellation (tus termination), expiry in hours, and 0600 files. Both places
 * partial uploads live (DATA_DIR/resumable, the database), on the engine the run is on (SQLite,
 * or PostgreSQL with TEST_DATABASE_URL).
 */
const PHOTO_BYTES = 40 * 1024;
const photo = (n: number) => tinyPng(8 + n, 8, { padBytes: PHOTO_BYTES });

for (const fileStore of ['disk', 'postgres'] as FileStoreKind[]) {
  const inDatabase = fileStore !== 'disk';
  describe(`unfinished uploads ${inDatabase ? 'in the database' : 'in DATA_DIR/resumable'}`, () => {
    let t: TestApp;
    let c: ReturnType<typeof tusClient>;
    let d: ReturnType<typeof tusClient>;
    let e: ReturnType<typeof tusClient>;

    beforeAll(async () => {
      // Room for two and a half of these photos in one user's unfinished uploads.
      t = await buildTestApp({ fileStore, resumableUserMaxBytes: Math.floor(2.5 * photo(0).length) });
      const org = await createOrganization(t.app);
      const survey = await createSurvey(t.app, org.id);
      const target = (token: string | null) => tusClient(t.app, { surveyId: survey.id, organizationId: org.id, token });
      c = target((await addMember(t.app, survey.id, org.id)).token);
      d = target((await addMember(t.app, survey.id, org.id)).token);
      e = target((await addMember(t.app, survey.id, org.id)).token);
    });
    afterAll(() => t.close());

    const partials = async (): Promise<string[]> => (inDatabase
      ? (await t.app.db.kysely.selectFrom('resumable_uploads').select('id').execute()).map((r) => r.id)
      : readdirSync(join(t.config.dataDir, 'resumable')).filter((n) => !n.endsWith('.json')));
    const idOf = (location: string) => location.split('/').pop()!;

    it('keeps one upload per placeholder: 20 creations leave one, the latest, which finishes and attaches', async () => {
      const bytes = photo(1);
      const clientId = await c.respondWith(bytes);
      const before = await partials();
      const locations: string[] = [];
      for (let i = 0; i < 20; i++) {
        const created = await c.create(clientId, bytes.length);
        expect(created.statusCode, created.body).toBe(201);
        locations.push(created.headers.location as string);
        expect((await c.patch(locations[i]!, 0, bytes.subarray(0, 1000))).statusCode).toBe(204);
      }
      const added = (await partials()).filter((id) => !before.includes(id));
      expect(added).toEqual([idOf(locations[19]!)]);
      expect((await c.head(locations[0]!)).statusCode).toBe(404);
      expect((await c.head(locations[19]!)).headers['upload-offset']).toBe('1000');
      const done = await c.patch(locations[19]!, 1000, bytes.subarray(1000));
      expect(done.statusCode, done.body).toBe(204);
      expect(JSON.parse((await c.stored(clientId)).answers)['Shelf photo']).toBe(done.headers['photo-reference']);
      expect(await t.app.db.kysely.selectFrom('resumable_claims').select('upload_id').where('client_id', '=', clientId).execute()).toEqual([]);
    });

    it("caps the bytes a user's unfinished uploads declare (413, another user unaffected); a cancelled one frees its share", async () => {
      const opened: string[] = [];
      for (let i = 0; i < 2; i++) {
        const bytes = photo(10 + i);
        const created = await d.create(await d.respondWith(bytes), bytes.length);
        expect(created.statusCode, created.body).toBe(201);
        opened.push(created.headers.location as string);
      }
      const third = photo(12);
      const thirdId = await d.respondWith(third);
      const refused = await d.create(thirdId, third.length);
      expect(refused.statusCode).toBe(413);
      expect(refused.json().msg).toBe(PhotoMsg.unfinishedUploadsFull);
      const elsewhere = photo(13);
      expect((await e.create(await e.respondWith(elsewhere), elsewhere.length)).statusCode).toBe(201);

      // Another user cannot cancel it; its owner can, and then the third fits.
      expect((await e.cancel(opened[0]!)).statusCode).toBe(404);
      const cancelled = await d.cancel(opened[0]!);
      expect(cancelled.statusCode, cancelled.body).toBe(204);
      expect((await d.head(opened[0]!)).statusCode).toBe(404);
      expect(await partials()).not.toContain(idOf(opened[0]!));
      expect((await d.create(thirdId, third.length)).statusCode).toBe(201);
    });

    it('removes expired unfinished uploads and their claims', async () => {
      const short = await buildTestApp({ fileStore, resumableExpiryMs: 1 });
      try {
        const org = await createOrganization(short.app);
        const survey = await createSurvey(short.app, org.id);
        const m = await addMember(short.app, survey.id, org.id);
        const sc = tusClient(short.app, { surveyId: survey.id, organizationId: org.id, token: m.token });
        const bytes = photo(20);
        expect((await sc.create(await sc.respondWith(bytes), bytes.length)).statusCode).toBe(201);
        await new Promise((r) => setTimeout(r, 20));
        expect(await short.app.services.resumable.cleanUp()).toBe(1);
        expect(await short.app.db.kysely.selectFrom('resumable_claims').select('upload_id').execute()).toEqual([]);
      } finally {
        await short.close();
      }
    });

    if (!inDatabase) {
      it('writes partial uploads and their metadata 0600', async () => {
        const bytes = photo(30);
        const location = (await c.create(await c.respondWith(bytes), bytes.length)).headers.location as string;
        expect((await c.patch(location, 0, bytes.subarray(0, 500))).statusCode).toBe(204);
        const base = join(t.config.dataDir, 'resumable', idOf(location));
        expect(statSync(base).mode & 0o777).toBe(0o600);
        expect(statSync(`${base}.json`).mode & 0o777).toBe(0o600);
      });
    }
  });
}

describe('resumable upload settings', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'sb-resumable-config-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('expire in hours (default 6) and cap a user at 100 MB by default, never under the largest single upload (a video)', () => {
    const defaults = loadConfig({ DATA_DIR: dataDir });
    expect(defaults.resumableExpiryMs).toBe(RESUMABLE_EXPIRY_HOURS * 3_600_000);
    expect(RESUMABLE_EXPIRY_HOURS).toBe(6);
    expect(defaults.resumableUserMaxBytes).toBe(RESUMABLE_USER_MAX_MB * 1024 * 1024);
    const set = loadConfig({ DATA_DIR: dataDir, RESUMABLE_UPLOAD_EXPIRY_HOURS: '2', RESUMABLE_UPLOAD_USER_MAX_MB: '1' });
    expect(set.resumableExpiryMs).toBe(2 * 3_600_000);
    expect(set.resumableUserMaxBytes).toBe(MAX_UPLOAD_BYTES);
    expect(MAX_UPLOAD_BYTES).toBeGreaterThanOrEqual(Limits.maxImageBytes);
  });
});
