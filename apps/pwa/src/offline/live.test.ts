import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountKey, db } from './db';
import { coalescedLiveQuery, liveCounts } from './live';
import { enqueueResponse } from './outbox';
import { freshDb } from '../../test/offline-server';

const A = accountKey('ada@example.com');
const queue = () => enqueueResponse({ account: A, surveyId: 's1', organizationId: 'org-1', answers: { Name: 'x' } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let stop: (() => void) | undefined;

beforeEach(freshDb);
afterEach(() => stop?.());

describe('coalescedLiveQuery', () => {
  it('reads at once, then a burst of writes costs far fewer reads than writes, the last after the last write', async () => {
    let reads = 0;
    const seen: number[] = [];
    stop = coalescedLiveQuery(async () => (reads++, db.outbox.count()), ['outbox'], { quietMs: 300, maxWaitMs: 10_000 }).subscribe((n) => seen.push(n)).unsubscribe;
    await expect.poll(() => seen).toEqual([0]);
    for (let i = 0; i < 10; i++) await queue();
    await expect.poll(() => seen.at(-1)).toBe(10);
    await sleep(400);
    // One read after the burst; a slow machine may pause long enough mid-burst for another.
    expect(reads).toBeLessThanOrEqual(3);
  });

  it('reads during a long burst at least every maxWaitMs', async () => {
    const seen: number[] = [];
    stop = coalescedLiveQuery(() => db.outbox.count(), ['outbox'], { quietMs: 1_000, maxWaitMs: 60 }).subscribe((n) => seen.push(n)).unsubscribe;
    await expect.poll(() => seen).toEqual([0]);
    const until = Date.now() + 400;
    while (Date.now() < until) {
      await queue();
      await sleep(10);
    }
    expect(seen.length).toBeGreaterThan(2);
  });

  it('ignores writes to other tables, and reads nothing after unsubscribe', async () => {
    let reads = 0;
    const sub = coalescedLiveQuery(async () => (reads++, db.outbox.count()), ['outbox'], { quietMs: 10 }).subscribe(() => undefined);
    await expect.poll(() => reads).toBe(1);
    await db.meta.put({ key: 'x', value: 1 });
    await sleep(60);
    expect(reads).toBe(1);
    sub.unsubscribe();
    await queue();
    await sleep(60);
    expect(reads).toBe(1);
  });

  it('liveCounts follows the outbox', async () => {
    const seen: number[] = [];
    stop = liveCounts(A).subscribe((c) => seen.push(c.queued)).unsubscribe;
    await expect.poll(() => seen.at(-1)).toBe(0);
    await queue();
    await expect.poll(() => seen.at(-1)).toBe(1);
  });
});
