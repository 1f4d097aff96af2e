import { beforeEach, expect, it } from 'vitest';
import { clearDraft, loadDraft, saveDraft, saveDraftPhoto } from './drafts';
import { freshDb, photoBlob } from '../../test/offline-server';
import { accountKey } from '../session/account-key';

beforeEach(freshDb);

it('saves and restores the answers per account and survey, keeping one clientId', async () => {
  expect(await loadDraft(accountKey('a@x.ng'), 's1')).toBeUndefined();
  await saveDraft(accountKey('a@x.ng'), 's1', { Name: 'A' });
  const first = await loadDraft(accountKey('A@X.ng'), 's1');
  await saveDraft(accountKey('a@x.ng'), 's1', { Name: 'Ada', Colours: ['red', 'blue'] });
  const second = await loadDraft(accountKey('a@x.ng'), 's1');
  expect(second).toMatchObject({ answers: { Name: 'Ada', Colours: ['red', 'blue'] }, photos: {} });
  expect(second?.clientId).toBe(first?.clientId);
  expect(await loadDraft(accountKey('b@x.ng'), 's1')).toBeUndefined();
  expect(await loadDraft(accountKey('a@x.ng'), 's2')).toBeUndefined();
});

it('keeps, replaces and removes draft photos; clearDraft removes everything', async () => {
  await saveDraftPhoto(accountKey('a@x.ng'), 's1', 'Photo', photoBlob(1, 5));
  const onlyPhoto = await loadDraft(accountKey('a@x.ng'), 's1');
  expect(onlyPhoto?.photos.Photo?.size).toBe(5);
  await saveDraft(accountKey('a@x.ng'), 's1', { Name: 'Ada' });
  const draft = await loadDraft(accountKey('a@x.ng'), 's1');
  expect(draft?.clientId).toBe(onlyPhoto?.clientId);
  expect(new Uint8Array(await draft!.photos.Photo!.arrayBuffer())).toEqual(new Uint8Array(5).fill(1));
  await saveDraftPhoto(accountKey('a@x.ng'), 's1', 'Photo', null);
  expect((await loadDraft(accountKey('a@x.ng'), 's1'))?.photos).toEqual({});
  await saveDraftPhoto(accountKey('a@x.ng'), 's1', 'Photo', photoBlob(2));
  await clearDraft(accountKey('a@x.ng'), 's1');
  expect(await loadDraft(accountKey('a@x.ng'), 's1')).toBeUndefined();
});

it('keeps the version and questions the draft was begun on; later saves do not replace them (issue 17)', async () => {
  const v1 = { version: 1, questions: [{ id: 'q1', text: 'Name', type: 'text answer', compulsory: true, options: [] }] } as const;
  const v2 = { version: 2, questions: [{ id: 'q2', text: 'Age', type: 'number', compulsory: true, options: [] }] } as const;
  await saveDraft(accountKey('a@x.ng'), 's1', { Name: 'A' }, structuredClone(v1) as never);
  await saveDraft(accountKey('a@x.ng'), 's1', { Name: 'Ada' }, structuredClone(v2) as never);
  expect(await loadDraft(accountKey('a@x.ng'), 's1')).toMatchObject({ answers: { Name: 'Ada' }, form: v1 });
  await saveDraftPhoto(accountKey('a@x.ng'), 's2', 'Photo', photoBlob(1), structuredClone(v2) as never);
  await saveDraft(accountKey('a@x.ng'), 's2', { Age: '3' }, structuredClone(v1) as never);
  expect((await loadDraft(accountKey('a@x.ng'), 's2'))?.form).toEqual(v2);
  await saveDraft(accountKey('a@x.ng'), 's3', { Name: 'B' });
  expect((await loadDraft(accountKey('a@x.ng'), 's3'))?.form).toBeUndefined();
});
