// @vitest-environment node
/**
 * A survey closed while responses wait on the phone, against the real API over HTTP: the one made
 * before the close is received once; the one made after it is refused as closed, kept on the phone
 * as failed with the server's reason (what Responses and the closed screen show), and never sent
 * again by later syncs.
 */
import { Msg, routes, uuidv7, type ResponseListReply } from '@survey-bird/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '../../offline/db';
import { enqueueResponse, getRecord } from '../../offline/outbox';
import { syncAccount } from '../../offline/sync-engine';
import { freshDb } from '../../../test/offline-server';
import { isClosedRefusal } from './closed-at-submit';

/** The API's own test kit, loaded at run time (the PWA's tsconfig cannot compile the API's sources). */
interface ApiTestKit {
  buildTestApp(): Promise<{ app: { listen(options: { host: string; port: number }): Promise<string> }; close(): Promise<void> }>;
  createOrganization(app: unknown): Promise<{ id: string; token: string }>;
  createSurvey(app: unknown, organizationId: string): Promise<{ id: string }>;
  addMember(app: unknown, surveyId: string, organizationId: string): Promise<{ email: string; token: string | null }>;
}
async function loadKit(): Promise<ApiTestKit> {
  const paths = ['../../../../api/test/helpers.js', '../../../../api/test/fixtures.js'];
  const modules = (await Promise.all(paths.map((p) => import(/* @vite-ignore */ new URL(p, import.meta.url).href)))) as object[];
  return Object.assign({}, ...modules) as ApiTestKit;
}

let t: Awaited<ReturnType<ApiTestKit['buildTestApp']>>;
let baseUrl: string;
let org: { id: string; token: string };
let surveyId: string;
let field: { email: string; token: string };

beforeAll(async () => {
  await freshDb();
  const kit = await loadKit();
  t = await kit.buildTestApp();
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  org = await kit.createOrganization(t.app);
  surveyId = (await kit.createSurvey(t.app, org.id)).id;
  const member = await kit.addMember(t.app, surveyId, org.id);
  field = { email: member.email, token: member.token! };
});
afterAll(() => t?.close());

const answers = (outlet: string) => ({ 'Name of outlet': outlet, 'Outlet type': 'Kiosk', 'Brands stocked': ['Alpha'] });

async function storedOutlets(): Promise<unknown[]> {
  const res = await fetch(`${baseUrl}${routes.organizationResponses.path.replace(':surveyId', surveyId)}?page=1`, { headers: { authorization: `Bearer ${org.token}` } });
  return ((await res.json()) as ResponseListReply).responses.map((r) => r.answers['Name of outlet']);
}

/** Real fetch that counts the batches sent. */
function counting(): { fetch: typeof fetch; batches: () => number } {
  let batches = 0;
  return {
    fetch: async (input, init) => {
      if (String(input).endsWith(routes.syncResponses.path)) batches++;
      return fetch(input, init);
    },
    batches: () => batches,
  };
}

it('takes the response made before the close once, refuses the one made after it as closed, and does not send that one again', async () => {
  // Made on the phone before the close, still queued (the phone was offline at submit).
  const before = await enqueueResponse({ account: field.email, surveyId, organizationId: org.id, answers: answers('Mama Put') });

  const closed = await fetch(`${baseUrl}${routes.surveySettings.path.replace(':id', surveyId)}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ closed: true }),
  });
  expect(closed.status).toBe(200);

  // Made ten minutes after the close (beyond the five minutes of clock slack the server allows).
  const later = Date.now() + 10 * 60_000;
  const after = await enqueueResponse({ account: field.email, surveyId, organizationId: org.id, answers: answers('Iya Basira'), clientId: uuidv7(later) });
  await db.outbox.update(after, { capturedAt: new Date(later).toISOString() });

  const net = counting();
  const first = await syncAccount({ account: field.email, token: field.token, baseUrl, fetch: net.fetch });
  expect(first).toMatchObject({ sent: 1, failed: 1, remaining: 0 });
  expect((await getRecord(before))?.status).toBe('synced');
  const refused = (await getRecord(after))!;
  expect(refused).toMatchObject({ status: 'failed', lastError: { status: 403, msg: Msg.surveyClosed }, answers: answers('Iya Basira') });
  expect(isClosedRefusal(refused)).toBe(true);
  expect(await storedOutlets()).toEqual(['Mama Put']);

  // Later syncs leave it alone: it waits for the user (Retry once reopened, or save it to a file).
  const second = await syncAccount({ account: field.email, token: field.token, baseUrl, fetch: net.fetch });
  expect(second).toMatchObject({ sent: 0, failed: 0, remaining: 0 });
  expect(net.batches()).toBe(1);
  expect((await getRecord(after))?.status).toBe('failed');
  expect(await storedOutlets()).toEqual(['Mama Put']);
});
