import { ApiMsg, Msg } from '@survey-bird/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from './db';
import { loadDraft, saveDraft, saveDraftPhoto } from './drafts';
import {
  claimDue,
  counts,
  deliveryLabel,
  discard,
  enqueueResponse,
  exportFailed,
  getRecord,
  lastSyncAt,
  listOutbox,
  markFailed,
  markRetry,
  markSynced,
  recordPhotoRef,
  recoverStuck,
  resendAsNew,
  retry,
  setLastSyncAt,
  updateAnswers,
  OutboxError,
} from './outbox';
import { readPhoto } from './photo-store';
import { freshDb, photoBlob } from '../../test/offline-server';
import { accountKey, type AccountKey } from '../session/account-key';

/** A raw e-mail, as a caller that skipped accountKey would pass: the stores key it lower-cased all the same. */
const A = 'Ada@Example.com' as AccountKey;
const a = accountKey('ada@example.com');
const claimOf = (run: string) => ({ run, at: Date.now(), locked: false });
const base = { account: A, surveyId: 's1', organizationId: 'org-1' };

beforeEach(freshDb);
afterEach(() => vi.restoreAllMocks());

describe('enqueueResponse', () => {
  it('keeps the survey version the form showed (issue 17), and none when not given (= 1 to the server)', async () => {
    const v2 = await enqueueResponse({ ...base, answers: { Name: 'Ada' }, version: 2 });
    const old = await enqueueResponse({ ...base, answers: { Name: 'Bola' } });
    expect((await getRecord(v2))?.version).toBe(2);
    expect((await getRecord(old))?.version).toBeUndefined();
  });

  it('queues the response and its photos together, under the lower-cased account, with a UUID and capture time', async () => {
    const before = Date.now();
    const id = await enqueueResponse({ ...base, answers: { Name: 'Ada' }, photos: { Photo: photoBlob(1) } });
    // A UUIDv7 from the clock, so the server's (survey, clientId) index grows at its end.
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(before);
    const record = await getRecord(id);
    expect(record).toMatchObject({ account: a, status: 'queued', attempts: 0, answers: { Name: 'Ada' }, photoQuestions: ['Photo'], photoRefs: {} });
    expect(Date.parse(record!.capturedAt)).toBeLessThanOrEqual(Date.now());
    expect((await readPhoto(id, 'Photo'))?.size).toBe(1000);
    expect(await counts(A)).toEqual({ queued: 1, sending: 0, failed: 0, synced: 0 });
    expect(deliveryLabel(record!)).toBe(Msg.savedOnPhone);
  });

  it("consumes the survey's draft in the same transaction, photos included", async () => {
    await saveDraft(A, 's1', { Name: 'Ad' });
    await saveDraftPhoto(A, 's1', 'Photo', photoBlob(2));
    const draft = await loadDraft(A, 's1');
    await enqueueResponse({ ...base, answers: { Name: 'Ada' }, photos: draft!.photos, clientId: draft!.clientId });
    expect(await loadDraft(A, 's1')).toBeUndefined();
    expect(await db.photos.count()).toBe(1);
  });

  it('keeps a burst in order and makes every record of it due at once, even when createdAt runs ahead of the clock', async () => {
    const frozen = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(frozen);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await enqueueResponse({ ...base, answers: { Name: `n${i}` } }));
    const claimed = await claimDue(a, claimOf('run-1'), frozen, 50);
    expect(claimed.map((r) => r.id)).toEqual(ids);
    expect(new Set(claimed.map((r) => r.createdAt)).size).toBe(5);
  });

  it("queues a double submit of the same draft once", async () => {
    await saveDraft(A, 's1', { Name: 'Ada' });
    const { clientId } = (await loadDraft(A, 's1'))!;
    const first = await enqueueResponse({ ...base, answers: { Name: 'Ada' }, clientId });
    await saveDraft(A, 's1', { Name: 'Next one' });
    const second = await enqueueResponse({ ...base, answers: { Name: 'Changed' }, photos: { Photo: photoBlob(3) }, clientId });
    expect(second).toBe(first);
    expect(await db.outbox.count()).toBe(1);
    // The second tap changed nothing: not the record, no photo, and not the new draft either.
    expect((await getRecord(first))?.answers).toEqual({ Name: 'Ada' });
    expect(await db.photos.count()).toBe(0);
    expect((await loadDraft(A, 's1'))?.answers).toEqual({ Name: 'Next one' });
  });

  it('writes neither the response nor any photo when a photo write fails (one transaction)', async () => {
    const fail = () => {
      throw new Error('QuotaExceededError');
    };
    db.photos.hook('creating', fail);
    try {
      await expect(enqueueResponse({ ...base, answers: { Name: 'x' }, photos: { P1: photoBlob(1), P2: photoBlob(2) } })).rejects.toThrow();
    } finally {
      db.photos.hook('creating').unsubscribe(fail);
    }
    expect(await db.outbox.count()).toBe(0);
    expect(await db.photos.count()).toBe(0);
  });
});

describe('status machine', () => {
  it('queued -> sending -> synced keeps the record and server _id, purges photo bytes, keeps photo refs', async () => {
    const id = await enqueueResponse({ ...base, answers: {}, photos: { Photo: photoBlob(1) } });
    const [claimed] = await claimDue(a, claimOf('run1'), Date.now(), 50);
    expect(claimed?.status).toBe('sending');
    await recordPhotoRef(id, 'run1', 'Photo', 'http://x/img');
    expect(await markSynced(id, 'run1', 'resp-1', 123)).toBe(true);
    const record = await getRecord(id);
    expect(record).toMatchObject({ status: 'synced', serverId: 'resp-1', syncedAt: 123, photoRefs: { Photo: 'http://x/img' } });
    expect(record?.claim).toBeUndefined();
    expect(await db.photos.count()).toBe(0);
    expect(deliveryLabel(record!)).toBe(Msg.receivedByServer);
  });

  it("once received, says what the office decided, joined from the changes feed's status, never 'received' of one awaiting review", () => {
    const synced = { status: 'synced' as const };
    expect(deliveryLabel({ status: 'queued' }, { status: 'approved', paid: false })).toBe(Msg.savedOnPhone);
    expect(deliveryLabel(synced)).toBe(Msg.receivedByServer);
    expect(deliveryLabel(synced, undefined, true)).toBe('awaiting review');
    expect(deliveryLabel(synced, { status: 'pending', paid: false })).toBe('awaiting review');
    expect(deliveryLabel(synced, { status: 'approved', paid: false })).toBe('approved');
    expect(deliveryLabel(synced, { status: 'returned', paid: false })).toBe('returned for fixing');
    expect(deliveryLabel(synced, { status: 'rejected', paid: false })).toBe('rejected');
    expect(deliveryLabel(synced, { status: 'approved', paid: true })).toBe('paid');
  });

  it('sending -> failed keeps the server msg; updateAnswers + retry make it queued and due again', async () => {
    const id = await enqueueResponse({ ...base, answers: { Q: 'bad' } });
    await claimDue(a, claimOf('r'), Date.now(), 50);
    await markFailed(id, 'r', 400, Msg.fillCompulsory);
    expect(await getRecord(id)).toMatchObject({ status: 'failed', lastError: { status: 400, msg: Msg.fillCompulsory } });
    expect(await counts(A)).toMatchObject({ failed: 1, queued: 0 });

    await updateAnswers(id, { Q: 'good', Other: 'x' });
    expect(await getRecord(id)).toMatchObject({ status: 'failed', answers: { Q: 'good', Other: 'x' } });
    await retry(id);
    const record = await getRecord(id);
    expect(record).toMatchObject({ status: 'queued', attempts: 0 });
    expect(record!.nextAttemptAt).toBeLessThanOrEqual(Date.now());
  });

  it('a failed response corrected on a newer survey version is sent on that version (issue 17)', async () => {
    const id = await enqueueResponse({ ...base, answers: { Q: 'bad' }, version: 1 });
    await claimDue(a, claimOf('r'), Date.now(), 50);
    await markFailed(id, 'r', 400, Msg.fillCompulsory);
    await updateAnswers(id, { Q: 'good' });
    expect((await getRecord(id))?.version).toBe(1);
    await updateAnswers(id, { Q: 'good', New: 'y' }, {}, 2);
    expect(await getRecord(id)).toMatchObject({ version: 2, answers: { Q: 'good', New: 'y' } });
  });

  it('resendAsNew gives a 409-refused record a fresh clientId, keeping its photos and references', async () => {
    const id = await enqueueResponse({ ...base, answers: { Q: 'x' }, photos: { P: photoBlob(4, 8) } });
    await claimDue(a, claimOf('r'), Date.now(), 50);
    await recordPhotoRef(id, 'r', 'P', 'http://x/ref');
    await markFailed(id, 'r', 409, ApiMsg.responseConflict);
    const fresh = await resendAsNew(id);
    expect(fresh).not.toBe(id);
    expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(await getRecord(id)).toBeUndefined();
    expect(await getRecord(fresh)).toMatchObject({ status: 'queued', answers: { Q: 'x' }, photoRefs: { P: 'http://x/ref' } });
    expect((await getRecord(fresh))?.lastError).toBeUndefined();
    expect((await readPhoto(fresh, 'P'))?.size).toBe(8);
    await expect(resendAsNew(fresh)).rejects.toBeInstanceOf(OutboxError);
  });

  it('updateAnswers refuses a record that is not failed', async () => {
    const id = await enqueueResponse({ ...base, answers: {} });
    await expect(updateAnswers(id, { Q: 'x' })).rejects.toBeInstanceOf(OutboxError);
  });

  it('updateAnswers with a new photo drops the old reference so it is uploaded again', async () => {
    const id = await enqueueResponse({ ...base, answers: {}, photos: { Photo: photoBlob(1) } });
    await claimDue(a, claimOf('r'), Date.now(), 50);
    await recordPhotoRef(id, 'r', 'Photo', 'http://x/old');
    await markFailed(id, 'r', 415, ApiMsg.unsupportedImage, 'Photo');
    await updateAnswers(id, {}, { Photo: photoBlob(9, 10) });
    expect((await getRecord(id))?.photoRefs).toEqual({});
    expect((await readPhoto(id, 'Photo'))?.size).toBe(10);
  });

  it('updateAnswers drops the photos, references and placeholders of questions no longer answered (now hidden)', async () => {
    const id = await enqueueResponse({ ...base, answers: {}, photos: { Sent: photoBlob(1), Local: photoBlob(2), Kept: photoBlob(3, 30) } });
    await claimDue(a, claimOf('r'), Date.now(), 50);
    await recordPhotoRef(id, 'r', 'Sent', 'http://x/sent');
    await markFailed(id, 'r', 400, 'refused', 'Q');
    await updateAnswers(id, { Q: 'good' }, {}, undefined, ['Kept']);
    expect(await getRecord(id)).toMatchObject({ photoRefs: {}, photoQuestions: ['Kept'] });
    expect(await readPhoto(id, 'Local')).toBeUndefined();
    expect((await readPhoto(id, 'Kept'))?.size).toBe(30);
  });

  it('sending -> queued with backoff on a retry verdict, attempts counted', async () => {
    const id = await enqueueResponse({ ...base, answers: {} });
    await claimDue(a, claimOf('r'), Date.now(), 50);
    await markRetry(id, 'r', { kind: 'retry', status: 503, msg: 'busy', retryAfterMs: 10_000 }, 1_000, () => 0);
    expect(await getRecord(id)).toMatchObject({ status: 'queued', attempts: 1, nextAttemptAt: 11_000, lastError: { status: 503, msg: 'busy' } });
  });

  it("ignores a transition from a run that no longer owns the record", async () => {
    const id = await enqueueResponse({ ...base, answers: {} });
    await claimDue(a, claimOf('old'), Date.now(), 50);
    await recoverStuck(a, 'new', Date.now() + 10 * 60_000, 6 * 60_000, false);
    await claimDue(a, claimOf('new'), Date.now() + 10 * 60_000, 50);
    expect(await markSynced(id, 'old', 'late', 1)).toBe(false);
    expect(await getRecord(id)).toMatchObject({ status: 'sending', claim: { run: 'new' } });
  });

  it('claims only due records, oldest first, up to the limit', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await enqueueResponse({ ...base, answers: { i: String(i) } }));
    await db.outbox.update(ids[0]!, { nextAttemptAt: Date.now() + 60_000 });
    const claimed = await claimDue(a, claimOf('r'), Date.now(), 3);
    expect(claimed.map((r) => r.id)).toEqual(ids.slice(1, 4));
    expect(await claimDue(accountKey('someone@else'), claimOf('r'), Date.now(), 50)).toEqual([]);
  });

  it('recovers stuck sending records older than the lease, or at once from a dead Web Lock holder', async () => {
    const id = await enqueueResponse({ ...base, answers: {} });
    await claimDue(a, { run: 'dead', at: 1_000, locked: false }, Date.now(), 50);
    expect(await recoverStuck(a, 'me', 1_000 + 60_000, 6 * 60_000, false)).toBe(0);
    expect(await recoverStuck(a, 'me', 1_000 + 7 * 60_000, 6 * 60_000, false)).toBe(1);
    expect((await getRecord(id))?.status).toBe('queued');

    await claimDue(a, { run: 'dead2', at: Date.now(), locked: true }, Date.now(), 50);
    expect(await recoverStuck(a, 'me', Date.now(), 6 * 60_000, false)).toBe(0);
    expect(await recoverStuck(a, 'me', Date.now(), 6 * 60_000, true)).toBe(1);
  });
});

describe('user actions and reads', () => {
  it('discard deletes a queued or failed record with its photos, never a sending or synced one', async () => {
    const keep = await enqueueResponse({ ...base, answers: {} });
    await claimDue(a, claimOf('r'), Date.now(), 50);
    expect(await discard(keep)).toBe(false);
    const gone = await enqueueResponse({ ...base, answers: {}, photos: { P: photoBlob(1) } });
    expect(await discard(gone)).toBe(true);
    expect(await getRecord(gone)).toBeUndefined();
    expect(await db.photos.where('owner').equals(gone).count()).toBe(0);
  });

  it('exportFailed returns the failed records with photos as data URLs', async () => {
    const id = await enqueueResponse({ ...base, answers: { Q: 'x' }, photos: { P: photoBlob(7, 3) } });
    await enqueueResponse({ ...base, answers: { Q: 'still queued' } });
    await claimDue(a, claimOf('r'), Date.now(), 1);
    await markFailed(id, 'r', 403, ApiMsg.forbidden);
    const file = await exportFailed(A);
    expect(file.type).toBe('application/json');
    const data = JSON.parse(await file.text()) as { responses: { id: string; lastError: unknown; photos: Record<string, string> }[] };
    expect(data.responses).toHaveLength(1);
    expect(data.responses[0]).toMatchObject({ id, lastError: { status: 403, msg: ApiMsg.forbidden }, photos: { P: 'data:image/jpeg;base64,BwcH' } });
  });

  it('listOutbox is per account, newest first; lastSyncAt is per account', async () => {
    const first = await enqueueResponse({ ...base, answers: {} });
    await new Promise((r) => setTimeout(r, 2));
    const second = await enqueueResponse({ ...base, answers: {} });
    await enqueueResponse({ ...base, account: accountKey('other@example.com'), answers: {} });
    expect((await listOutbox(a)).map((r) => r.id)).toEqual([second, first]);
    expect(await lastSyncAt(A)).toBeNull();
    await setLastSyncAt(a, 42);
    expect(await lastSyncAt(A)).toBe(42);
    expect(await lastSyncAt(accountKey('other@example.com'))).toBeNull();
  });
});
