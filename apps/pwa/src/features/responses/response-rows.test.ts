import { describe, expect, it } from 'vitest';
import type { OutboxRecord } from '../../offline';
import { responseRows } from './response-rows';
import { accountKey } from '../../session/account-key';

let clock = 0;
const rec = (id: string, over: Partial<OutboxRecord> = {}): OutboxRecord => ({
  id, account: accountKey('a@x.ng'), surveyId: 's1', organizationId: 'o1', answers: {}, capturedAt: '2026-11-27T10:00:00Z', createdAt: ++clock, updatedAt: clock,
  status: 'synced', attempts: 0, nextAttemptAt: 0, photoQuestions: [], photoRefs: {}, ...over,
});
const shape = (records: OutboxRecord[]) => responseRows([...records].reverse()).map((r) => [r.original?.id ?? null, r.fixes.map((f) => f.id), r.latest.id]);

describe('responseRows: a fix is a revision of its response, not a response of its own', () => {
  it('puts the fixes of a returned response in its row, the newest fix showing', () => {
    const a = rec('a', { serverId: 'srv-a' });
    const b = rec('b', { serverId: 'srv-b' });
    const fix1 = rec('f1', { revisionOf: 'srv-a' });
    const c = rec('c', { status: 'queued' });
    const fix2 = rec('f2', { revisionOf: 'srv-a', status: 'queued' });
    expect(shape([a, b, fix1, c, fix2])).toEqual([['c', [], 'c'], ['b', [], 'b'], ['a', ['f1', 'f2'], 'f2']]);
  });

  it('a fix whose response is not on this phone still shows, once, in the outbox order', () => {
    const a = rec('a', { serverId: 'srv-a' });
    const orphan = rec('f1', { revisionOf: 'srv-gone', status: 'failed' });
    const again = rec('f2', { revisionOf: 'srv-gone' });
    const b = rec('b', { serverId: 'srv-b' });
    expect(shape([a, orphan, again, b])).toEqual([['b', [], 'b'], [null, ['f1', 'f2'], 'f2'], ['a', [], 'a']]);
  });

  it('responses without fixes are one row each, as before', () => {
    expect(shape([rec('a', { status: 'failed' }), rec('b', { status: 'queued' })])).toEqual([['b', [], 'b'], ['a', [], 'a']]);
  });
});
