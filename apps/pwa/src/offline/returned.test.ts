import { beforeEach, describe, expect, it } from 'vitest';
import { db, type StatusRow } from './db';
import { enqueueResponse, markSynced, claimDue } from './outbox';
import { returnedToFix } from './returned';
import { freshDb } from '../../test/offline-server';
import { accountKey, type AccountKey } from '../session/account-key';

/** A raw e-mail, as a caller that skipped accountKey would pass: the stores key it lower-cased all the same. */
const ADA = 'Ada@Example.com' as AccountKey;
const row = (id: string, status: StatusRow['status'], account = accountKey('ada@example.com')): StatusRow =>
  ({ account, id, clientId: `c-${id}`, surveyId: 's1', status, comment: null, revision: 1, paid: false, changedAt: '2026-11-20T10:00:00.000Z' });

beforeEach(freshDb);

describe('returnedToFix: what the field user home counts as returned for fixing', () => {
  it("counts the account's returned responses, not those another status or another account holds", async () => {
    await db.statuses.bulkPut([row('r1', 'returned'), row('r2', 'returned'), row('a1', 'approved'), row('p1', 'pending'), row('x1', 'rejected'), row('b1', 'returned', accountKey('bola@example.com'))]);
    expect((await returnedToFix(ADA)).sort()).toEqual(['r1', 'r2']);
  });

  it('leaves out a returned response whose fix waits in the outbox, and counts it again once the fix is received (the feed then says what followed)', async () => {
    await db.statuses.bulkPut([row('r1', 'returned'), row('r2', 'returned')]);
    const fix = await enqueueResponse({ account: ADA, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'Mama Put' }, revisionOf: 'r1' });
    expect(await returnedToFix(ADA)).toEqual(['r2']);
    await claimDue(accountKey('ada@example.com'), { run: 'run1', at: Date.now(), locked: false }, Date.now(), 50);
    await markSynced(fix, 'run1', 'r1', Date.now());
    await db.statuses.put({ ...row('r1', 'pending'), revision: 2 });
    expect(await returnedToFix(ADA)).toEqual(['r2']);
  });
});
