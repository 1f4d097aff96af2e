// @vitest-environment node
import { QuestionType, routes, type EarningsReply, type MyResponse, type MyResponsesReply, type ResponseChange, type SyncItem } from '@survey-bird/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountKey, db } from './db';
import { saveDraft, loadDraft } from './drafts';
import { responsesList, saveResponsesPage } from './my-responses';
import { enqueueResponse, getRecord } from './outbox';
import { changesCursor, earningsLines, earningsSnapshot, listStatuses } from './statuses';
import { syncAccount } from './sync-engine';
import { FakeServer, freshDb, q, survey } from '../../test/offline-server';


const ADA = accountKey('ada@example.com');
let server: FakeServer;
const sync = () => syncAccount({ account: ADA, token: 'tok-ada', fetch: server.fetch });
const bucket = (count: number, amount: number) => ({ count, amount });
const EARNINGS: EarningsReply = { awaitingReview: bucket(1, 150), owed: bucket(2, 300), paid: { ...bucket(3, 450), lastPaidAt: '2026-11-20T10:00:00.000Z' }, returned: bucket(1, 150), rejected: bucket(0, 0), held: [] };

const change = (id: string, clientId: string, status: ResponseChange['status'], extra: Partial<ResponseChange> = {}): ResponseChange =>
  ({ _id: id, clientId, survey_id: 's1', status, comment: null, revision: 1, paid: false, changedAt: '2026-11-20T10:00:00.000Z', ...extra });

beforeEach(async () => {
  await freshDb();
  server = new FakeServer({ 'tok-ada': ADA });
  server.surveys.set('s1', survey('s1', [q('Name', QuestionType.text, true), q('Photo', QuestionType.image)]));
  server.earnings = EARNINGS;
});

describe('statuses and earnings on the phone', () => {
  it('pulls every page of changes from the stored cursor and keeps the earnings, per account', async () => {
    const first = await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'Mama Pt' } });
    await sync();
    const serverId = (await getRecord(first))!.serverId!;
    expect(await listStatuses(ADA)).toEqual([]);
    expect((await earningsSnapshot(ADA))?.reply).toEqual(EARNINGS);

    server.changes.push(
      change('other-1', 'c-1', 'approved', { changedAt: '2026-11-20T10:00:00.000Z' }),
      change('other-2', 'c-2', 'approved', { paid: true, changedAt: '2026-11-21T10:00:00.000Z' }),
      change(serverId, first, 'returned', { comment: 'The name is misspelt', answers: { Name: 'Mama Pt' }, changedAt: '2026-11-22T10:00:00.000Z' }),
    );
    await sync();
    const pulls = server.paths(routes.myResponseChanges.path).map((r) => r.path);
    expect(pulls.length).toBeGreaterThanOrEqual(3);
    expect(await changesCursor(ADA)).toBe('3_');
    expect((await listStatuses(ADA)).map((s) => [s.id, s.status, s.paid])).toEqual([[serverId, 'returned', false], ['other-2', 'approved', true], ['other-1', 'approved', false]]);

    // Nothing new: one request from the cursor, nothing rewritten.
    const before = server.requests.length;
    await sync();
    const asked = server.requests.slice(before).filter((r) => r.path === routes.myResponseChanges.path);
    expect(asked).toHaveLength(1);
    expect(await listStatuses(ADA)).toHaveLength(3);

    // The returned response is listed with its comment and its answers, ready to fix.
    const lines = await earningsLines(ADA, () => false);
    expect(lines.find((l) => l.id === serverId)).toMatchObject({ status: 'returned', comment: 'The name is misspelt', answers: { Name: 'Mama Pt' }, fixQueued: false });
  });

  it('queues a fix as a new revision with a fresh clientId, leaving the form draft alone', async () => {
    const first = await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'Mama Pt' } });
    await sync();
    const serverId = (await getRecord(first))!.serverId!;
    server.changes.push(change(serverId, first, 'returned', { comment: 'Fix the name', answers: { Name: 'Mama Pt' } }));
    await sync();
    await saveDraft(ADA, 's1', { Name: 'half typed' });

    const fix = await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'Mama Put' }, revisionOf: serverId });
    expect(fix).not.toBe(first);
    expect((await loadDraft(ADA, 's1'))?.answers).toEqual({ Name: 'half typed' });
    expect((await earningsLines(ADA, () => false)).find((l) => l.id === serverId)?.fixQueued).toBe(true);
    // The fix is not listed as a response of its own.
    expect((await earningsLines(ADA, () => false)).filter((l) => l.surveyId === 's1')).toHaveLength(1);

    await sync();
    const sent = server.paths(routes.syncResponses.path).flatMap((r) => (r.body as { responses: SyncItem[] }).responses);
    expect(sent.at(-1)).toMatchObject({ clientId: fix, revisionOf: serverId, answers: { Name: 'Mama Put' } });
    expect((await getRecord(fix))?.status).toBe('synced');
    expect((await earningsLines(ADA, () => false)).find((l) => l.id === serverId)?.fixQueued).toBe(false);
  });

  it('keeps what it has when the server cannot be reached, and lists unreviewed responses as received', async () => {
    await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'A' } });
    await sync();
    const at = (await earningsSnapshot(ADA))!.at;
    server.override(routes.currentUser.path, 'network');
    const offline = syncAccount({ account: ADA, token: 'tok-ada-new', fetch: server.fetch });
    await offline;
    expect((await earningsSnapshot(ADA))?.at).toBe(at);
    expect((await earningsLines(ADA, () => true)).map((l) => l.status)).toEqual(['pending']);
    expect((await earningsLines(ADA, () => false)).map((l) => l.status)).toEqual(['approved']);
    expect(await db.statuses.count()).toBe(0);
  });
});

describe("the Earnings list on a new phone: the server's list of the account's responses", () => {
  const listed = (id: string, status: MyResponse['status'], extra: Partial<MyResponse> = {}): MyResponse => ({
    _id: id, clientId: `c-${id}`, survey_id: 's1', status, comment: null, revision: 1, amount: 150, paid: false,
    capturedAt: '2026-11-20T09:59:00.000Z', submittedAt: '2026-11-20T10:00:00.000Z', reviewedAt: null, paidAt: null, ...extra,
  });
  const page = (n: number, responses: MyResponse[], totalCount: number): MyResponsesReply =>
    ({ responses, page: n, totalCount, hasNextPage: n * 2 < totalCount, hasPreviousPage: n > 1 });

  it('lists every response the server holds, with its amount and times, though this phone sent none and the feed reported none', async () => {
    await saveResponsesPage(ADA, page(1, [listed('r3', 'pending'), listed('r2', 'approved', { reviewedAt: '2026-11-21T10:00:00.000Z' })], 3), 1000);
    await saveResponsesPage(ADA, page(2, [listed('r1', 'approved', { paid: true, reviewedAt: '2026-11-21T10:00:00.000Z', paidAt: '2026-11-22T10:00:00.000Z' })], 3), 2000);
    const lines = await earningsLines(ADA, () => false);
    expect(lines.map((l) => [l.id, l.status, l.paid, l.amount])).toEqual([['r3', 'pending', false, 150], ['r2', 'approved', false, 150], ['r1', 'approved', true, 150]]);
    expect(lines[2]).toMatchObject({ submittedAt: '2026-11-20T10:00:00.000Z', reviewedAt: '2026-11-21T10:00:00.000Z', paidAt: '2026-11-22T10:00:00.000Z' });
    expect(await responsesList(ADA)).toMatchObject({ pages: 2, totalCount: 3, hasNextPage: false });
    // Page 1 again (the screen reopened) starts the list afresh.
    await saveResponsesPage(ADA, page(1, [listed('r4', 'pending'), listed('r3', 'pending')], 4), 3000);
    expect((await earningsLines(ADA, () => false)).map((l) => l.id)).toEqual(['r4', 'r3']);
  });

  it('takes a later change the feed heard over the list, and shows first a returned response from a page not loaded yet', async () => {
    await saveResponsesPage(ADA, page(1, [listed('r3', 'pending'), listed('r2', 'pending')], 3), 1000);
    server.changes.push(
      change('r2', 'c-r2', 'approved', { changedAt: '2026-11-21T10:00:00.000Z' }),
      change('r1', 'c-r1', 'returned', { comment: 'Retake the photo', answers: { Name: 'A' }, changedAt: '2026-11-21T11:00:00.000Z' }),
    );
    await sync();
    const lines = await earningsLines(ADA, () => true);
    expect(lines.map((l) => [l.id, l.status])).toEqual([['r1', 'returned'], ['r3', 'pending'], ['r2', 'approved']]);
    expect(lines.find((l) => l.id === 'r2')).toMatchObject({ amount: 150, reviewedAt: '2026-11-21T10:00:00.000Z' });
    expect(lines[0]).toMatchObject({ comment: 'Retake the photo', reviewedAt: '2026-11-21T11:00:00.000Z', answers: { Name: 'A' } });
  });
});
