import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QualityFlag } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg } from '../../../test/images.js';
import { tusClient } from '../../../test/tus.js';

/**
 * The phone sends a response first, its photos after, by tus. The response's checks ran without
 * the photo; its arrival must queue them again, so duplicate and similar photo flags see it. On
 * the engine the run is on (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
let t: TestApp;
let c: ReturnType<typeof tusClient>;

beforeAll(async () => {
  t = await buildTestApp();
  // The tests work the queue themselves (drain).
  await t.app.services.flags.worker.stop();
  const org = await createOrganization(t.app);
  const survey = await createSurvey(t.app, org.id);
  const member = await addMember(t.app, survey.id, org.id);
  c = tusClient(t.app, { surveyId: survey.id, organizationId: org.id, token: member.token });
});
afterAll(() => t.close());

const drain = () => t.app.services.flags.worker.drain();
const responseId = async (clientId: string) => (await t.app.db.kysely.selectFrom('responses').select('id').where('client_id', '=', clientId).executeTakeFirstOrThrow()).id;
const flagsOf = async (id: string) => (await t.app.db.kysely.selectFrom('response_flags').select('flag').where('response_id', '=', id).execute()).map((f) => f.flag);

/** Sends `bytes` by tus as the photo of the response `clientId` waits for. */
async function sendByTus(clientId: string, bytes: Buffer): Promise<void> {
  const created = await c.create(clientId, bytes.length);
  expect(created.statusCode, created.body).toBe(201);
  const done = await c.patch(created.headers.location as string, 0, bytes);
  expect(done.statusCode, done.body).toBe(204);
}

describe('photos sent by tus after their response feed the photo checks', () => {
  it('two responses with the same photo sent via tus: duplicate_photo is raised', async () => {
    const bytes = tinyJpeg(40, 40);
    const first = await c.respondWith(bytes);
    const second = await c.respondWith(bytes);
    // Checked on arrival, the photos still pending: nothing to compare yet.
    await drain();
    await sendByTus(first, bytes);
    await sendByTus(second, bytes);
    await drain();
    const [a, b] = [await responseId(first), await responseId(second)];
    expect(await t.app.db.kysely.selectFrom('response_photos').select('response_id').where('response_id', 'in', [a, b]).execute()).toHaveLength(2);
    expect([...(await flagsOf(a)), ...(await flagsOf(b))]).toContain(QualityFlag.duplicatePhoto);
  });

  it('a photo attaching while its response is being checked: the stale check does not take the job', async () => {
    const bytes = tinyJpeg(44, 44);
    const clientId = await c.respondWith(bytes);
    const id = await responseId(clientId);
    // A worker read the response (photo pending) ...
    const seen = await t.app.services.flags.worker.repo.subject(id);
    expect(seen?.queued_at).not.toBeNull();
    // ... then the photo attached, then that worker saves what it computed.
    await sendByTus(clientId, bytes);
    expect(await t.app.services.flags.worker.repo.save({ ...seen!, created_at: Number(seen!.created_at) }, null, [], [], Date.now(), seen!.queued_at)).toBe(false);
    expect(await t.app.db.kysely.selectFrom('flag_jobs').select('response_id').where('response_id', '=', id).execute()).toHaveLength(1);
    await drain();
    expect(await t.app.db.kysely.selectFrom('response_photos').select('sha256').where('response_id', '=', id).execute()).toHaveLength(1);
  });
});
