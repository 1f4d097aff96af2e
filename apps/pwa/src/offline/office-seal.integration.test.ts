// @vitest-environment node
/**
 * End-to-end encryption from the phone's outbox to the office's browser, against the real API:
 * the phone seals the answers to the survey's public key, a lost reply is replayed with the same
 * envelope (stored once), the server's database holds no answer in clear, and the key file opens it.
 */
import { routes, type ResponseListReply } from '@survey-bird/contracts';
import { decryptAnswers, generateSurveyKeys, keyIdOf, lockPrivateKey, unlockPrivateKey } from '@survey-bird/contracts/e2e';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { db } from './db';
import { enqueueResponse, getRecord } from './outbox';
import { syncAccount } from './sync-engine';
import { freshDb } from '../../test/offline-server';

interface ApiTestKit {
  buildTestApp(): Promise<{ app: { listen(options: { host: string; port: number }): Promise<string>; db: { kysely: { selectFrom(t: string): { selectAll(): { execute(): Promise<unknown[]> } } } } }; close(): Promise<void> }>;
  createOrganization(app: unknown): Promise<{ id: string; token: string }>;
  createSurvey(app: unknown, organizationId: string): Promise<{ id: string }>;
  addMember(app: unknown, surveyId: string, organizationId: string): Promise<{ email: string; token: string | null }>;
  tinyJpeg(width: number, height: number): Uint8Array<ArrayBuffer>;
}
async function loadKit(): Promise<ApiTestKit> {
  const paths = ['../../../api/test/helpers.js', '../../../api/test/fixtures.js', '../../../api/test/images.js'];
  const modules = (await Promise.all(paths.map((p) => import(/* @vite-ignore */ new URL(p, import.meta.url).href)))) as object[];
  return Object.assign({}, ...modules) as ApiTestKit;
}

let kit: ApiTestKit;
let t: Awaited<ReturnType<ApiTestKit['buildTestApp']>>;
let baseUrl: string;
let org: { id: string; token: string };
let surveyId: string;
let field: { email: string; token: string };
let keys: Awaited<ReturnType<typeof generateSurveyKeys>>;

beforeAll(async () => {
  kit = await loadKit();
  t = await kit.buildTestApp();
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  org = await kit.createOrganization(t.app);
  surveyId = (await kit.createSurvey(t.app, org.id)).id;
  const a = await kit.addMember(t.app, surveyId, org.id);
  field = { email: a.email, token: a.token! };
  keys = await generateSurveyKeys();
  const res = await fetch(`${baseUrl}${routes.surveySettings.path.replace(':id', surveyId)}`, { method: 'PATCH', headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ encryptionKey: keys.publicKey }) });
  expect(res.status).toBe(200);
});
afterAll(() => t?.close());
beforeEach(freshDb);

it('sends the answers sealed to the survey key, once despite a lost reply; the database holds no answer in clear; the key file opens them', async () => {
  const answers = { 'Name of outlet': 'Mama Nkechi Provisions', 'Outlet type': 'Kiosk', 'Brands stocked': ['Alpha', 'Gamma'] };
  const id = await enqueueResponse({ account: field.email, surveyId, organizationId: org.id, answers, encryptTo: keys.publicKey, photos: { 'Shelf photo': new Blob([kit.tinyJpeg(16, 16)], { type: 'image/jpeg' }) } });
  let lose = 1;
  const flaky: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (String(input).endsWith(routes.syncResponses.path) && lose-- > 0) throw new TypeError('network connection lost');
    return res;
  };
  expect(await syncAccount({ account: field.email, token: field.token, baseUrl, fetch: flaky })).toMatchObject({ sent: 0, remaining: 1 });
  const firstEnvelope = (await db.outbox.get(id))?.officeSealed?.envelope;
  expect(firstEnvelope).toBeDefined();
  await db.outbox.update(id, { nextAttemptAt: 0 });
  expect(await syncAccount({ account: field.email, token: field.token, baseUrl, fetch: flaky })).toMatchObject({ sent: 1, failed: 0, remaining: 0 });

  const rows = await t.app.db.kysely.selectFrom('responses').selectAll().execute();
  expect(rows).toHaveLength(1);
  const stored = JSON.stringify(rows);
  for (const secret of ['Mama Nkechi', 'Kiosk', 'Alpha']) expect(stored).not.toContain(secret);

  const list = (await (await fetch(`${baseUrl}${routes.organizationResponses.path.replace(':surveyId', surveyId)}`, { headers: { authorization: `Bearer ${org.token}` } })).json()) as ResponseListReply;
  expect(list.responses[0]!._id).toBe((await getRecord(id))?.serverId);
  expect(list.responses[0]!.encrypted).toEqual(firstEnvelope);
  const privateKey = await unlockPrivateKey(await lockPrivateKey(keys.privateKey, keys.publicKey, 'office passphrase', 1_000), 'office passphrase');
  expect(await decryptAnswers(privateKey, await keyIdOf(keys.publicKey), list.responses[0]!.encrypted!)).toEqual(answers);
});
