// @vitest-environment node
// Node, not happy-dom: its Blob survives IndexedDB's structured clone, like Chrome's, so a photo kept in clear would show.
import { QuestionType, routes } from '@survey-bird/contracts';
import { Dexie } from 'dexie';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { accountKey, db } from './db';
import { loadDraft, saveDraft, saveDraftPhoto } from './drafts';
import { forgetAccountData } from './forget';
import { enqueueResponse, getRecord, listOutbox } from './outbox';
import { readPhoto } from './photo-store';
import { sealClearRows } from './sealing';
import { applyChanges, listStatuses } from './statuses';
import { syncAccount } from './sync-engine';
import { resetVaultCache, setSealingForTests } from './vault';
import { FakeServer, freshDb, q, survey } from '../../test/offline-server';
import { indexedDbName } from '../session/storage-keys';

const ADA = accountKey('ada@example.com');
const BEN = accountKey('ben@example.com');
const SECRET = 'Mama Nkechi Provisions, 08031234567';
const PIXELS = 'PIXELS-OF-A-RESPONDENT';
let server: FakeServer;

/** A photo whose bytes are recognizable text, so a copy kept in clear is found by the byte search. */
const photo = (tag = PIXELS) => new Blob([new TextEncoder().encode(tag.repeat(40))], { type: 'image/jpeg' });

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join('');

/** Every value IndexedDB holds, every string and every byte (Blobs, ArrayBuffers, typed arrays) as text. */
async function storedText(): Promise<string> {
  const parts: string[] = [];
  const walk = async (v: unknown): Promise<void> => {
    if (typeof v === 'string') parts.push(v);
    else if (v instanceof ArrayBuffer) parts.push(latin1(new Uint8Array(v)));
    else if (ArrayBuffer.isView(v)) parts.push(latin1(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)));
    else if (v instanceof Blob) parts.push(latin1(new Uint8Array(await v.arrayBuffer())));
    else if (Array.isArray(v)) for (const x of v) await walk(x);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
      parts.push(k);
      await walk(x);
    }
    else parts.push(String(v));
  };
  for (const table of db.tables) await walk(await table.toArray());
  return parts.join('\n');
}

beforeEach(async () => {
  await freshDb();
  server = new FakeServer({ 'tok-ada': ADA, 'tok-ben': BEN });
  server.surveys.set('s1', survey('s1', [q('Name', QuestionType.text, true), q('Photo', QuestionType.image)]));
});
afterEach(() => setSealingForTests(true));

const meta = { openedAt: '2026-11-12T09:00:00.000Z', durationMs: 61_000, locationAccuracy: 8, locationFixedAt: '2026-11-12T09:00:40.000Z', deviceId: 'dev-1', appVersion: '0.1.0', photoHashes: { Photo: '0123456789abcdef' } };

async function fillThePhone() {
  await saveDraft(ADA, 's1', { Name: `${SECRET} (draft)` });
  await saveDraftPhoto(ADA, 's1', 'Photo', photo(`${PIXELS}-draft`));
  const queued = await enqueueResponse({ account: ADA, surveyId: 's2', organizationId: 'org-1', answers: { Name: `${SECRET} (queued)` }, photos: { Photo: photo() }, meta });
  await applyChanges(ADA, { changes: [{ _id: 'r1', clientId: 'c1', survey_id: 's1', status: 'returned', comment: 'fix it', revision: 1, paid: false, changedAt: '2026-11-12T10:00:00.000Z', answers: { Name: `${SECRET} (returned)` } }], cursor: '1_', hasMore: false });
  return queued;
}

it('keeps no answer, location or photo byte in clear in IndexedDB, and every screen still reads them', async () => {
  const id = await fillThePhone();
  const text = await storedText();
  expect(text).not.toContain('Mama Nkechi');
  expect(text).not.toContain('08031234567');
  expect(text).not.toContain(PIXELS);
  expect(text).not.toContain('locationFixedAt');
  // The same search finds them when sealing is off (a browser without WebCrypto): the test can fail.
  setSealingForTests(false);
  await saveDraft(BEN, 's1', { Name: SECRET });
  expect(await storedText()).toContain(SECRET);
  setSealingForTests(true);

  expect((await loadDraft(ADA, 's1'))?.answers).toEqual({ Name: `${SECRET} (draft)` });
  expect((await getRecord(id))?.answers).toEqual({ Name: `${SECRET} (queued)` });
  expect((await getRecord(id))?.meta).toEqual(meta);
  expect((await listOutbox(ADA))[0]?.answers).toEqual({ Name: `${SECRET} (queued)` });
  expect((await listStatuses(ADA))[0]?.answers).toEqual({ Name: `${SECRET} (returned)` });
  expect(await (await readPhoto(id, 'Photo'))!.text()).toBe(PIXELS.repeat(40));
  // The key is a WebCrypto key that script cannot export.
  const [row] = await db.keys.toArray();
  expect(row?.key.extractable).toBe(false);
  await expect(crypto.subtle.exportKey('raw', row!.key)).rejects.toThrow();
});

it('sends the opened answers, meta and photo bytes exactly once', async () => {
  server.surveys.set('s2', survey('s2', [q('Name', QuestionType.text, true), q('Photo', QuestionType.image)]));
  const id = await fillThePhone();
  await syncAccount({ account: ADA, token: 'tok-ada', fetch: server.fetch });
  await syncAccount({ account: ADA, token: 'tok-ada', fetch: server.fetch });
  expect(server.stored.get(id)?.answers.Name).toBe(`${SECRET} (queued)`);
  expect(server.paths(routes.syncResponses.path).flatMap((r) => (r.body as { responses: { clientId: string }[] }).responses.map((x) => x.clientId))).toEqual([id]);
  const items = (server.paths(routes.syncResponses.path)[0]!.body as { responses: Record<string, unknown>[] }).responses;
  expect(items[0]).toMatchObject(meta);
  const uploads = server.paths(routes.uploadImage.path);
  expect(uploads).toHaveLength(1);
  expect(await (uploads[0]!.form!.Photo as Blob).text()).toBe(PIXELS.repeat(40));
});

it('removing an account destroys its key and its data; the other account keeps both', async () => {
  await fillThePhone();
  const bens = await enqueueResponse({ account: BEN, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'Ben' }, photos: { Photo: photo('BEN') } });
  await forgetAccountData(ADA);
  expect(await db.keys.get(ADA)).toBeUndefined();
  for (const table of [db.outbox, db.drafts, db.statuses]) expect(await table.where('account').equals(ADA).count()).toBe(0);
  expect(await db.photos.count()).toBe(1);
  expect((await getRecord(bens))?.answers).toEqual({ Name: 'Ben' });
  expect(await (await readPhoto(bens, 'Photo'))!.text()).toBe('BEN'.repeat(40));
});

it('a phone upgraded with unsent work in clear (database version 2) seals every row, loses none, and sends each response once', async () => {
  server.surveys.set('s2', survey('s2', [q('Name', QuestionType.text, true), q('Photo', QuestionType.image)]));
  // The previous version's database, written as it wrote it: answers, meta and photos in clear.
  db.close();
  await Dexie.delete(indexedDbName);
  const old = new Dexie(indexedDbName);
  old.version(1).stores({
    surveys: '&[account+surveyId], account',
    datasets: '++id, [account+surveyId+question], [account+surveyId+question+lower]',
    drafts: '&[account+surveyId], account',
    outbox: '&id, [account+status], [account+status+nextAttemptAt], [account+createdAt], status',
    photos: '&[owner+question], owner',
    accounts: '&account',
    meta: '&key',
  });
  old.version(2).stores({ statuses: '&[account+id], account' });
  const record = (id: string, n: number, status: string) => ({ id, account: ADA, surveyId: 's2', organizationId: 'org-1', answers: { Name: `${SECRET} ${n}` }, capturedAt: new Date(n).toISOString(), meta, createdAt: n, updatedAt: n, status, attempts: 0, nextAttemptAt: 0, photoQuestions: n < 3 ? ['Photo'] : [], photoRefs: {} });
  const bytes = (tag: string) => new TextEncoder().encode(tag.repeat(40));
  await old.table('outbox').bulkPut([record('c-1', 1, 'queued'), record('c-2', 2, 'queued'), record('c-3', 3, 'sending')]);
  await old.table('photos').bulkPut([
    { owner: 'c-1', question: 'Photo', blob: new Blob([bytes(`${PIXELS}1`)], { type: 'image/jpeg' }), type: 'image/jpeg', size: bytes(`${PIXELS}1`).length },
    { owner: 'c-2', question: 'Photo', buffer: bytes(`${PIXELS}2`).buffer, type: 'image/jpeg', size: bytes(`${PIXELS}2`).length },
    { owner: `draft:${ADA}:s1`, question: 'Photo', blob: new Blob([bytes(`${PIXELS}d`)], { type: 'image/jpeg' }), type: 'image/jpeg', size: bytes(`${PIXELS}d`).length },
  ]);
  await old.table('drafts').put({ account: ADA, surveyId: 's1', clientId: 'd-1', answers: { Name: `${SECRET} draft` }, updatedAt: 5 });
  await old.table('statuses').put({ account: ADA, id: 'r1', clientId: 'c1', surveyId: 's1', status: 'returned', comment: null, revision: 1, paid: false, changedAt: '2026-11-12T10:00:00.000Z', answers: { Name: `${SECRET} returned` } });
  old.close();
  resetVaultCache();
  await db.open();
  expect(db.verno).toBe(3);
  expect(await storedText()).toContain(SECRET);

  // Before the upgrade pass has run, everything reads (a sync may start first).
  expect((await getRecord('c-1'))?.answers).toEqual({ Name: `${SECRET} 1` });
  expect(await sealClearRows()).toBe(8);
  const text = await storedText();
  expect(text).not.toContain('Mama Nkechi');
  expect(text).not.toContain(PIXELS);
  expect(await sealClearRows()).toBe(0);

  expect(await loadDraft(ADA, 's1')).toMatchObject({ clientId: 'd-1', answers: { Name: `${SECRET} draft` } });
  expect(await (await loadDraft(ADA, 's1'))!.photos.Photo!.text()).toBe(`${PIXELS}d`.repeat(40));
  expect((await listStatuses(ADA))[0]?.answers).toEqual({ Name: `${SECRET} returned` });
  await syncAccount({ account: ADA, token: 'tok-ada', fetch: server.fetch });
  for (const n of [1, 2, 3]) expect(server.stored.get(`c-${n}`)?.answers.Name).toBe(`${SECRET} ${n}`);
  const sent = server.paths(routes.syncResponses.path).flatMap((r) => (r.body as { responses: { clientId: string }[] }).responses.map((x) => x.clientId));
  expect(sent.sort()).toEqual(['c-1', 'c-2', 'c-3']);
  const uploads = await Promise.all(server.paths(routes.uploadImage.path).map(async (u) => `${String(u.form!.clientId)}:${await (u.form!.Photo as Blob).text()}`));
  expect(uploads.sort()).toEqual([`c-1:${`${PIXELS}1`.repeat(40)}`, `c-2:${`${PIXELS}2`.repeat(40)}`]);
});
