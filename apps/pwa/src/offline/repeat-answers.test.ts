import type { Answers } from '@survey-bird/contracts';
import { beforeEach, expect, it } from 'vitest';
import { freshDb, photoBlob } from '../../test/offline-server';
import { accountKey } from '../session/account-key';
import { db } from './db';
import { loadDraft, saveDraft, saveDraftPhoto } from './drafts';
import { enqueueResponse, getRecord, updateAnswers } from './outbox';
import { readPhotos } from './photo-store';

beforeEach(freshDb);

const ACCOUNT = accountKey('ada@field.ng');
// A household roster with plots inside each member (a nested repeat).
const roster: Answers = {
  Village: 'Kura',
  Member: [
    { Name: 'Amina', Age: '41', Plot: [{ Size: '2' }, { Size: '0.5' }] },
    { Name: 'Bala', Age: '12' },
  ],
  Children: '1',
};

it('keeps repeat answers (nested instances) and a photo of an instance in the draft, as typed', async () => {
  await saveDraft(ACCOUNT, 's1', roster);
  await saveDraftPhoto(ACCOUNT, 's1', 'Member#2/Photo', photoBlob(3, 7));
  const draft = await loadDraft(ACCOUNT, 's1');
  expect(draft?.answers).toEqual(roster);
  expect(Object.keys(draft?.photos ?? {})).toEqual(['Member#2/Photo']);
});

it('queues repeat answers with their instance photos, and a Fix replaces them whole', async () => {
  const id = await enqueueResponse({ account: ACCOUNT, surveyId: 's1', organizationId: 'o1', answers: roster, photos: { 'Member#1/Photo': photoBlob(1, 5) } });
  const record = await getRecord(id);
  expect(record?.answers).toEqual(roster);
  expect(record?.photoQuestions).toEqual(['Member#1/Photo']);
  expect(Object.keys(await readPhotos(id))).toEqual(['Member#1/Photo']);

  // Fix: the first member removed, so the second's photo moved up to instance 1.
  const fixed: Answers = { ...roster, Member: [{ Name: 'Bala', Age: '12' }] };
  // The server refused it (a Fix changes only a failed response).
  await db.outbox.update(id, { status: 'failed' });
  await updateAnswers(id, fixed, { 'Member#1/Photo': photoBlob(2, 6) }, 2, ['Member#1/Photo']);
  expect((await getRecord(id))?.answers).toEqual(fixed);
  expect((await readPhotos(id))['Member#1/Photo']?.size).toBe(6);
});

it('sends an instance photo already uploaded inside its instance, leaving the record as it was', async () => {
  const { withPhotoRefs } = await import('./photo-refs');
  const sent = withPhotoRefs(roster, { 'Member#2/Photo': '/api/v1/files/image/abc', Signature: '/api/v1/files/image/def' });
  expect(sent).toEqual({ ...roster, Member: [roster.Member![0], { Name: 'Bala', Age: '12', Photo: '/api/v1/files/image/abc' }], Signature: '/api/v1/files/image/def' });
  expect((roster.Member as Record<string, unknown>[])[1]).toEqual({ Name: 'Bala', Age: '12' });
});
