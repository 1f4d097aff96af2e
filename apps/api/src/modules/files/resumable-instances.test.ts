import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestInstances, call, type TestApp } from '../../../test/helpers.js';
import { tinyPng } from '../../../test/images.js';
import { cutPatch, storedChunks, tusClient } from '../../../test/tus.js';

/**
 * Two instances (apps with their own DATA_DIR) on one PostgreSQL database, as behind a
 * load balancer. A resumable upload started through A resumes through B: the partial upload lives
 * in the database and the lock on it is a PostgreSQL advisory lock both instances take.
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.skipIf(!process.env.TEST_DATABASE_URL)('resumable uploads across two instances on one PostgreSQL', () => {
  let close: () => Promise<void>;
  let a: TestApp;
  let b: TestApp;
  let token: string | null;
  let onA: ReturnType<typeof tusClient>;
  let onB: ReturnType<typeof tusClient>;

  beforeAll(async () => {
    // The deployment's default with DATABASE_URL (the tests' config is given, not read from the environment).
    const built = await buildTestInstances(2, { fileStore: 'postgres' });
    close = built.close;
    [a, b] = built.instances as [TestApp, TestApp];
    const org = await createOrganization(a.app);
    const survey = await createSurvey(a.app, org.id);
    const member = await addMember(a.app, survey.id, org.id);
    token = member.token;
    const target = { surveyId: survey.id, organizationId: org.id, token };
    onA = tusClient(a.app, target);
    onB = tusClient(b.app, target);
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => close());

  it('an upload created and half sent through A is at that offset through B, finished there, and readable through A', async () => {
    const bytes = tinyPng(16, 16, { padBytes: 700 * 1024 });
    const clientId = await onA.respondWith(bytes);
    const location = (await onA.create(clientId, bytes.length)).headers.location as string;
    const id = location.split('/').pop()!;
    const half = Math.floor(bytes.length / 2);
    expect((await onA.patch(location, 0, bytes.subarray(0, half))).statusCode).toBe(204);

    const head = await onB.head(location);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    expect(sha(await storedChunks(b.app, id))).toBe(sha(bytes.subarray(0, half)));

    const rest = await onB.patch(location, half, bytes.subarray(half));
    expect(rest.statusCode, rest.body).toBe(204);
    const reference = rest.headers['photo-reference'] as string;
    expect(JSON.parse((await onA.stored(clientId)).answers)['Shelf photo']).toBe(reference);
    const image = await call(a.app, token, { method: 'GET', url: new URL(reference).pathname });
    expect(image.statusCode).toBe(200);
    expect(sha(image.rawPayload)).toBe(sha(bytes));
    expect((await onA.head(location)).statusCode).toBe(404);
  });

  it('a PATCH stalled on A is let go when B asks for the upload, and B resumes from what A stored', async () => {
    const bytes = tinyPng(16, 16, { padBytes: 500 * 1024 });
    const clientId = await onA.respondWith(bytes);
    const location = (await onA.create(clientId, bytes.length)).headers.location as string;
    const part = 200 * 1024 + 17;
    // The phone's link goes quiet: A holds the upload's lock, with bytes it has not committed yet.
    const stalled = await cutPatch(a.app, token, location, 0, bytes, part, { stall: true });
    try {
      // B's HEAD asks A (NOTIFY) to let go; A ends its PATCH after tus's drain time, keeping what arrived.
      const head = await onB.head(location);
      expect(head.statusCode).toBe(200);
      expect(head.headers['upload-offset']).toBe(String(part));
      const rest = await onB.patch(location, part, bytes.subarray(part));
      expect(rest.statusCode, rest.body).toBe(204);
      const image = await call(a.app, token, { method: 'GET', url: new URL(rest.headers['photo-reference'] as string).pathname });
      expect(sha(image.rawPayload)).toBe(sha(bytes));
    } finally {
      stalled.end();
    }
    // A answered its cut request with the offset it stored (and closed the connection).
    expect([204, 0]).toContain(await stalled.status);
  });

  it('two PATCHes of the same bytes at once through A and B: one appends, the other is refused 409, the bytes stay whole', async () => {
    const bytes = tinyPng(16, 16, { padBytes: 400 * 1024 });
    const clientId = await onA.respondWith(bytes);
    const location = (await onA.create(clientId, bytes.length)).headers.location as string;
    const half = Math.floor(bytes.length / 2);
    const [first, second] = await Promise.all([onA.patch(location, 0, bytes.subarray(0, half)), onB.patch(location, 0, bytes.subarray(0, half))]);
    // One holds the lock while it appends; the other waits for it, then finds the offset moved: 409, nothing written twice.
    expect([first.statusCode, second.statusCode].sort()).toEqual([204, 409]);
    const head = await onB.head(location);
    const offset = Number(head.headers['upload-offset']);
    expect(offset).toBe(half);
    const id = location.split('/').pop()!;
    expect(sha(await storedChunks(a.app, id))).toBe(sha(bytes.subarray(0, offset)));
    const rest = await onA.patch(location, offset, bytes.subarray(offset));
    expect(rest.statusCode, rest.body).toBe(204);
  });
});
