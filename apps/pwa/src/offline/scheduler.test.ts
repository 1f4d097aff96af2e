import { Msg, QuestionType, routes } from '@survey-bird/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredAccount } from '../session/account-list';
import { mirroredAccounts } from './accounts';
import { accountKey, db } from './db';
import { enqueueResponse, getRecord } from './outbox';
import { startSync, type SyncController, type SyncStatus } from './scheduler';
import { handleBackgroundSync, SYNC_TAG } from './sw-sync';
import { eventually, FakeServer, freshDb, q, survey } from '../../test/offline-server';


const ADA = accountKey('ada@example.com');
const BEN = accountKey('ben@example.com');
let server: FakeServer;
let accounts: StoredAccount[];
let controller: SyncController | undefined;

const queue = (account = ADA) => enqueueResponse({ account, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'x' } });
const start = () => {
  controller = startSync({ getAccounts: () => accounts, fetch: server.fetch, minIntervalMs: 10 });
  return controller;
};

beforeEach(async () => {
  await freshDb();
  server = new FakeServer({ 'tok-ada': ADA, 'tok-ben': BEN });
  server.surveys.set('s1', survey('s1', [q('Name', QuestionType.text, true)]));
  accounts = [
    { email: ADA, token: 'tok-ada' },
    { email: BEN, token: 'tok-ben' },
  ];
});
afterEach(async () => {
  // A run still in flight would write its lease into the next test's fresh database.
  await controller?.stop();
  controller = undefined;
  vi.unstubAllGlobals();
});

describe('startSync', () => {
  it('sends every account’s queue on start and reports it in the status', async () => {
    const a = await queue(ADA);
    const b = await queue(BEN);
    const seen: SyncStatus[] = [];
    start().subscribe((s) => seen.push(s));
    await eventually(async () => expect((await getRecord(b))?.status).toBe('synced'));
    expect((await getRecord(a))?.status).toBe('synced');
    await eventually(() => expect(controller!.getStatus()).toMatchObject({ running: false, pending: 0, failed: 0 }));
    const status = controller!.getStatus();
    expect(status.accounts[ADA]).toMatchObject({ synced: 1, authRequired: false });
    expect(status.lastSyncAt).not.toBeNull();
    expect(seen.some((s) => s.running)).toBe(true);
    expect(await mirroredAccounts()).toEqual(accounts);
  });

  it('picks up a response queued while it runs, without being asked', async () => {
    start();
    await eventually(() => expect(controller!.getStatus().running).toBe(false));
    const id = await queue();
    await eventually(async () => expect((await getRecord(id))?.status).toBe('synced'));
  });

  it('waits for nextAttemptAt before trying a record again', async () => {
    const id = await queue();
    const due = Date.now() + 400;
    await db.outbox.update(id, { nextAttemptAt: due });
    start();
    await eventually(async () => expect((await getRecord(id))?.status).toBe('synced'));
    // A timer may fire a millisecond before Date.now() reaches its due time.
    expect(Date.now()).toBeGreaterThanOrEqual(due - 5);
  });

  it('runs on the online event and on syncNow(), never on top of the backoff', async () => {
    let runs = 0;
    controller = startSync({ getAccounts: () => (runs++, accounts), fetch: server.fetch, minIntervalMs: 10 });
    await eventually(() => expect(controller!.getStatus().running).toBe(false));
    const path = routes.syncResponses.path;
    server.override(path, ...Array<'network'>(100).fill('network'));
    const id = await queue();
    await eventually(async () => expect((await getRecord(id))?.attempts).toBeGreaterThanOrEqual(1));
    await db.outbox.update(id, { nextAttemptAt: Date.now() + 60_000 });
    await eventually(() => expect(controller!.getStatus().running).toBe(false));
    const before = runs;
    const sent = server.paths(path).length;
    globalThis.dispatchEvent(new Event('online'));
    await eventually(() => expect(runs).toBe(before + 1));
    await eventually(() => expect(controller!.getStatus().running).toBe(false));
    expect(server.paths(path)).toHaveLength(sent);
    expect((await getRecord(id))?.status).toBe('queued');
    server.clearOverrides(path);
    await db.outbox.update(id, { nextAttemptAt: 0 });
    await controller.syncNow();
    expect((await getRecord(id))?.status).toBe('synced');
  });

  it('shows an account whose token was refused and stops trying it', async () => {
    await queue();
    server.override(routes.syncResponses.path, { status: 401, msg: Msg.invalidOrExpiredToken });
    start();
    await eventually(() => expect(controller!.getStatus().accounts[ADA]?.authRequired).toBe(true));
    // Ada's token is not tried again (Ben's account still pulls its statuses at each run).
    const ada = () => server.requests.filter((r) => r.token === 'tok-ada');
    const calls = ada().length;
    await controller!.syncNow();
    expect(ada()).toHaveLength(calls);
    expect(controller!.getStatus().pending).toBe(1);
    accounts = [{ email: ADA, token: 'tok-ada-new' }];
    server.users.set('tok-ada-new', ADA);
    await controller!.syncNow();
    await eventually(() => expect(controller!.getStatus()).toMatchObject({ pending: 0 }));
  });

  it('asks for Background Sync while something is waiting', async () => {
    const register = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { onLine: true, serviceWorker: { getRegistration: async () => ({ sync: { register } }) } });
    server.override(routes.syncResponses.path, 'network');
    await queue();
    start();
    await eventually(() => expect(register).toHaveBeenCalledWith(SYNC_TAG));
  });
});

describe('handleBackgroundSync (service worker)', () => {
  it('syncs the mirrored accounts', async () => {
    const { mirrorAccounts } = await import('./accounts');
    await mirrorAccounts(accounts);
    const id = await queue(BEN);
    const summaries = await handleBackgroundSync(undefined, { fetch: server.fetch });
    expect(summaries.map((s) => s.sent)).toEqual([0, 1]);
    expect((await getRecord(id))?.status).toBe('synced');
  });

  it('rejects while responses still wait for the network, so the browser fires the event again', async () => {
    await queue();
    server.override(routes.syncResponses.path, 'network');
    await expect(handleBackgroundSync(async () => accounts, { fetch: server.fetch })).rejects.toThrow(/still waiting/);
  });

  it('does not ask to be woken again for an account that must sign in', async () => {
    await queue();
    server.override(routes.syncResponses.path, { status: 401, msg: Msg.invalidOrExpiredToken });
    const [ada] = await handleBackgroundSync(async () => accounts, { fetch: server.fetch });
    expect(ada).toMatchObject({ authRequired: true, remaining: 1 });
  });
});
