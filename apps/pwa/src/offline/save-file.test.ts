// @vitest-environment node
import { QuestionType, routes } from '@survey-bird/contracts';
import { beforeEach, expect, it } from 'vitest';
import { accountKey, db } from './db';
import { loadDraft, saveDraft, saveDraftPhoto } from './drafts';
import { enqueueResponse, getRecord, listOutbox } from './outbox';
import { loadUnsentFromFile, PBKDF2_ITERATIONS, saveUnsentToFile, SaveFileError } from './save-file';
import { syncAccount } from './sync-engine';
import { FakeServer, freshDb, q, survey } from '../../test/offline-server';

const ADA = accountKey('ada@example.com');
const BEN = accountKey('ben@example.com');
const PASS = 'correct horse battery';
/** Fewer rounds than a real save (PBKDF2_ITERATIONS), so the suite stays quick; one test uses the real figure. */
const FAST = 1_000;
let server: FakeServer;

const photo = (tag: string) => new Blob([new TextEncoder().encode(tag.repeat(50))], { type: 'image/jpeg' });
const sync = () => syncAccount({ account: ADA, token: 'tok-ada', fetch: server.fetch });
const text = async (b: Blob) => Array.from(new Uint8Array(await b.arrayBuffer()), (c) => String.fromCharCode(c)).join('');

beforeEach(async () => {
  await freshDb();
  server = new FakeServer({ 'tok-ada': ADA, 'tok-ben': BEN });
  server.surveys.set('s1', survey('s1', [q('Name', QuestionType.text, true), q('Photo', QuestionType.image), q('Shelf', QuestionType.image)]));
});

/** What a phone holds: three waiting responses (one with two photos), a draft with a photo, and one sent already. */
async function fillThePhone() {
  const sent = await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'already sent' } });
  await sync();
  const ids = [
    await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'Iya Basira stores' }, photos: { Photo: photo('front-'), Shelf: photo('shelf-') } }),
    await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'Kiosk 2' } }),
    await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'Kiosk 3' } }),
  ];
  await saveDraft(ADA, 's1', { Name: 'half typed' });
  await saveDraftPhoto(ADA, 's1', 'Photo', photo('draft-'));
  return { sent, ids };
}

it('save to file, clear the site data, load, sync: every response and photo arrives once', async () => {
  const { sent, ids } = await fillThePhone();
  const saved = await saveUnsentToFile(ADA, PASS, FAST);
  expect(saved).toMatchObject({ responses: 3, photos: 3, drafts: 1 });
  // The file is ciphertext: no answer and no photo byte in it.
  const raw = await text(saved.file);
  expect(raw).not.toContain('Iya Basira');
  expect(raw).not.toContain('front-');
  expect(raw).not.toContain('ada@example.com');

  await freshDb(); // site data cleared: no records, no key
  await expect(loadUnsentFromFile(ADA, saved.file, 'wrong passphrase')).rejects.toThrow('Wrong passphrase, or the file is damaged');
  await expect(loadUnsentFromFile(BEN, saved.file, PASS)).rejects.toBeInstanceOf(SaveFileError);
  expect(await loadUnsentFromFile(ADA, saved.file, PASS)).toEqual({ added: 3, alreadyHere: 0, photos: 3, drafts: 1, draftsKept: 0 });
  expect((await loadDraft(ADA, 's1'))?.answers).toEqual({ Name: 'half typed' });
  expect(await (await loadDraft(ADA, 's1'))!.photos.Photo!.text()).toBe('draft-'.repeat(50));
  // A second load of the same file adds nothing.
  expect(await loadUnsentFromFile(ADA, saved.file, PASS)).toMatchObject({ added: 0, alreadyHere: 3, drafts: 0, draftsKept: 1 });

  await sync();
  await sync();
  const sentIds = server.sentClientIds();
  expect(sentIds.filter((id) => id === sent)).toHaveLength(1);
  for (const id of ids) expect(sentIds.filter((x) => x === id)).toHaveLength(1);
  expect(server.stored.get(ids[0]!)?.answers.Name).toBe('Iya Basira stores');
  const uploads = await Promise.all(server.paths(routes.uploadImage.path).map(async (u) => `${String(u.form!.question)}:${(await (u.form![String(u.form!.question)] as Blob).text()).slice(0, 6)}`));
  expect(uploads.sort()).toEqual(['Photo:front-', 'Shelf:shelf-']);
  expect((await listOutbox(ADA)).every((r) => r.status === 'synced')).toBe(true);
});

it('a response sent before the save whose photos had not followed is sent again as the same request: stored once, photos attached', async () => {
  const id = await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'text went first' }, photos: { Photo: photo('late-') } });
  // The text reached the server; the photo upload got no answer.
  server.override(routes.uploadImage.path, 'network');
  await sync();
  expect((await getRecord(id))).toMatchObject({ status: 'synced', photosPending: ['Photo'] });
  const saved = await saveUnsentToFile(ADA, PASS, FAST);
  expect(saved).toMatchObject({ responses: 1, photos: 1 });
  await freshDb();
  await loadUnsentFromFile(ADA, saved.file, PASS);
  server.clearOverrides(routes.uploadImage.path);
  await sync();
  expect(server.sentClientIds()).toEqual([id]);
  expect(server.stored.get(id)?.answers.Photo).toMatch(/^http:\/\/sb\.test\/api\/v1\/files\/image\//);
  expect(await db.photos.count()).toBe(0);
});

it('a file saved with the real key derivation opens, and names it in its header', async () => {
  await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'one' } });
  const saved = await saveUnsentToFile(ADA, PASS);
  const header = JSON.parse((await text(saved.file)).split('\n')[0]!) as { kdf: { iterations: number; name: string }; cipher: { name: string } };
  expect(header).toMatchObject({ format: 'survey-bird-unsent', kdf: { name: 'PBKDF2', iterations: PBKDF2_ITERATIONS }, cipher: { name: 'AES-GCM' } });
  await freshDb();
  expect(await loadUnsentFromFile(ADA, saved.file, PASS)).toMatchObject({ added: 1 });
  await expect(saveUnsentToFile(ADA, 'short')).rejects.toThrow('at least 8 characters');
});
