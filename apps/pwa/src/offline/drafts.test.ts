import { beforeEach, expect, it } from 'vitest';
import { clearDraft, loadDraft, saveDraft, saveDraftPhoto } from './drafts';
import { freshDb, photoBlob } from './test-support';

beforeEach(freshDb);

it('saves and restores the answers per account and survey, keeping one clientId', async () => {
  expect(await loadDraft('a@x.ng', 's1')).toBeUndefined();
  await saveDraft('a@x.ng', 's1', { Name: 'A' });
  const first = await loadDraft('A@X.ng', 's1');
  await saveDraft('a@x.ng', 's1', { Name: 'Ada', Colours: ['red', 'blue'] });
  const second = await loadDraft('a@x.ng', 's1');
  expect(second).toMatchObject({ answers: { Name: 'Ada', Colours: ['red', 'blue'] }, photos: {} });
  expect(second?.clientId).toBe(first?.clientId);
  expect(await loadDraft('b@x.ng', 's1')).toBeUndefined();
  expect(await loadDraft('a@x.ng', 's2')).toBeUndefined();
});

it('keeps, replaces and removes draft photos; clearDraft removes everything', async () => {
  await saveDraftPhoto('a@x.ng', 's1', 'Photo', photoBlob(1, 5));
  const onlyPhoto = await loadDraft('a@x.ng', 's1');
  expect(onlyPhoto?.photos.Photo?.size).toBe(5);
  await saveDraft('a@x.ng', 's1', { Name: 'Ada' });
  const draft = await loadDraft('a@x.ng', 's1');
  expect(draft?.clientId).toBe(onlyPhoto?.clientId);
  expect(new Uint8Array(await draft!.photos.Photo!.arrayBuffer())).toEqual(new Uint8Array(5).fill(1));
  await saveDraftPhoto('a@x.ng', 's1', 'Photo', null);
  expect((await loadDraft('a@x.ng', 's1'))?.photos).toEqual({});
  await saveDraftPhoto('a@x.ng', 's1', 'Photo', photoBlob(2));
  await clearDraft('a@x.ng', 's1');
  expect(await loadDraft('a@x.ng', 's1')).toBeUndefined();
});
