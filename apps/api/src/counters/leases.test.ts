import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { ExportQueue } from '../modules/insight/export-queue.js';
import { DbLeaseStore } from './db-lease-store.js';
import type { LeaseStore } from './lease-store.js';
import { RedisLeaseStore } from './redis-lease-store.js';

const never = () => undefined;
const stores: { name: string; open: (t: TestApp) => LeaseStore }[] = [
  { name: 'the database', open: (t) => new DbLeaseStore(t.app.db.kysely) },
  { name: 'Redis', open: () => new RedisLeaseStore('redis://127.0.0.1:6379', `sb-test:${randomUUID()}:`) },
];

describe.each(stores)('leases in $name', ({ open }) => {
  let t: TestApp;
  let leases: LeaseStore;
  beforeAll(async () => {
    t = await buildTestApp();
    leases = open(t);
  });
  afterAll(async () => {
    await leases.close();
    await t.close();
  });

  it('gives a key to one holder until it is released', async () => {
    expect(await leases.acquire('k1', 'a', 10_000)).toBe(true);
    expect(await leases.acquire('k1', 'b', 10_000)).toBe(false);
    expect(await leases.renew('k1', 'b', 10_000)).toBe(false);
    await leases.release('k1', 'b');
    expect(await leases.acquire('k1', 'b', 10_000)).toBe(false);
    expect(await leases.renew('k1', 'a', 10_000)).toBe(true);
    await leases.release('k1', 'a');
    expect(await leases.acquire('k1', 'b', 10_000)).toBe(true);
  });

  it('frees a lease whose holder stopped renewing it', async () => {
    expect(await leases.acquire('k2', 'dead', 50)).toBe(true);
    await new Promise((r) => setTimeout(r, 120));
    expect(await leases.acquire('k2', 'alive', 10_000)).toBe(true);
    expect(await leases.renew('k2', 'dead', 10_000)).toBe(false);
  });

  it('lets exactly one of many racing holders take a key', async () => {
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => leases.acquire('k3', `h${i}`, 10_000)));
    expect(got.filter(Boolean)).toHaveLength(1);
  });

  it('holds the export limits across two instances sharing the leases', async () => {
    // Two queues = two API processes; one export slot across both.
    const a = new ExportQueue({ concurrency: 1, queue: 5, clusterConcurrency: 1 }, leases);
    const b = new ExportQueue({ concurrency: 1, queue: 5, clusterConcurrency: 1 }, leases);
    const releaseOne = await a.acquire('user-1', never);
    await expect(b.acquire('user-1', never)).rejects.toMatchObject({ statusCode: 429 });

    let started = false;
    const second = b.acquire('user-2', never).then((release) => ((started = true), release));
    await new Promise((r) => setTimeout(r, 700));
    expect(started, 'user-2 waits for the slot user-1 holds through the other instance').toBe(false);
    expect(b.placeOf('user-2')).toMatchObject({ state: 'waiting', position: 1 });
    releaseOne();
    const releaseTwo = await second;
    expect(started).toBe(true);
    releaseTwo();
    // user-1's lease went with its export: it may export again, through either instance.
    (await b.acquire('user-1', never))();
  });
});
