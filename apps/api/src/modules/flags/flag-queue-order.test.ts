import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { FlagsRepository } from './repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.services.flags.worker.stop();
});
afterAll(() => t.close());

describe('the flag queue', () => {
  it('hands out the oldest job first, whatever the shape of its response id', async () => {
    const db = t.app.db.kysely;
    await db.deleteFrom('flag_jobs').execute();
    // An id that sorts after every UUIDv7 (a seeded or imported response), queued before them.
    await db.insertInto('flag_jobs').values({ response_id: 'zz-seeded-response', queued_at: 1_000 }).execute();
    await db.insertInto('flag_jobs').values([
      { response_id: '0190a000-0000-7000-8000-000000000001', queued_at: 2_000 },
      { response_id: '0190a000-0000-7000-8000-000000000002', queued_at: 3_000 },
    ]).execute();
    const repo = new FlagsRepository(db);
    expect(await repo.queued(1)).toEqual(['zz-seeded-response']);
    expect(await repo.queued(3)).toEqual(['zz-seeded-response', '0190a000-0000-7000-8000-000000000001', '0190a000-0000-7000-8000-000000000002']);
    await db.deleteFrom('flag_jobs').execute();
  });
});
