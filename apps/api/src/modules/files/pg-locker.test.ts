import { ERRORS } from '@tus/server';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { lockKey, PgLocker } from './pg-locker.js';

/**
 * The upload locker of several instances against a real PostgreSQL: two lockers stand
 * for two instances (each its own connection), as tus's Server uses them.
 */
const url = process.env.TEST_DATABASE_URL;
const schema = `t_lock_${Date.now().toString(36)}`;

describe.skipIf(!url)('PgLocker: tus locks shared by instances through PostgreSQL advisory locks', () => {
  const lockers: PgLocker[] = [];
  const locker = (acquireTimeoutMs = 5000) => {
    const l = new PgLocker({ connectionString: url!, schema, acquireTimeoutMs });
    lockers.push(l);
    return l;
  };
  afterEach(async () => {
    for (const l of lockers.splice(0)) await l.close();
  });
  afterAll(async () => {
    for (const l of lockers) await l.close();
  });

  const signal = () => new AbortController().signal;

  it('one holder at a time across instances; the waiter asks the holder to let go, and gets the lock once it does', async () => {
    const a = locker();
    const b = locker();
    const held = a.newLock('upload-1');
    const asked: string[] = [];
    await held.lock(signal(), () => {
      asked.push('a asked to let go');
      // tus ends the request after its drain time; here at once.
      setTimeout(() => void held.unlock(), 50);
    });
    const waiting = b.newLock('upload-1');
    let bAsked = 0;
    await waiting.lock(signal(), () => {
      bAsked++;
    });
    expect(asked).toEqual(['a asked to let go']);
    // Now B holds it: A cannot take it without asking B.
    const again = a.newLock('upload-1');
    const attempt = again.lock(signal(), () => undefined);
    await new Promise((r) => setTimeout(r, 100));
    await waiting.unlock();
    await attempt;
    await again.unlock();
    expect(bAsked).toBeGreaterThanOrEqual(1);
  });

  it('locks of different uploads do not wait on each other', async () => {
    const a = locker();
    const b = locker();
    const one = a.newLock('upload-2');
    const two = b.newLock('upload-3');
    await one.lock(signal(), () => expect.unreachable('not asked'));
    await two.lock(signal(), () => expect.unreachable('not asked'));
    await one.unlock();
    await two.unlock();
  });

  it('two requests of one instance for one upload do not both hold it (a session lock is re-entrant in PostgreSQL)', async () => {
    const a = locker();
    const first = a.newLock('upload-4');
    let firstAsked = false;
    await first.lock(signal(), () => {
      firstAsked = true;
    });
    const second = a.newLock('upload-4');
    let got = false;
    const attempt = second.lock(signal(), () => undefined).then(() => {
      got = true;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(firstAsked).toBe(true);
    expect(got).toBe(false);
    await first.unlock();
    await attempt;
    expect(got).toBe(true);
    await second.unlock();
  });

  it('gives up after its timeout when the holder does not let go (answered 503 by the server)', async () => {
    const a = locker();
    const b = locker(300);
    await a.newLock('upload-5').lock(signal(), () => undefined);
    await expect(b.newLock('upload-5').lock(signal(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
  });

  it('when a holder\'s connection drops, PostgreSQL frees its locks, the holder is asked to stop, and another instance takes over', async () => {
    const a = locker();
    const b = locker();
    let stopped = 0;
    const held = a.newLock('upload-6');
    await held.lock(signal(), () => {
      stopped++;
    });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // The backend holding this very lock (other test files run lockers on the same database).
      const key = BigInt.asUintN(64, BigInt(lockKey(schema, 'upload-6')));
      const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_locks where locktype = $1 and classid = $2 and objid = $3 and objsubid = 1 and granted', ['advisory', Number(key >> 32n), Number(key & 0xffffffffn)]);
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await expect.poll(() => stopped, { timeout: 5000 }).toBeGreaterThan(0);
    const taken = b.newLock('upload-6');
    await taken.lock(signal(), () => undefined);
    // The old holder's unlock finds its connection gone and does not touch the new holder's lock.
    await held.unlock();
    const third = locker(300);
    await expect(third.newLock('upload-6').lock(signal(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await taken.unlock();
    // And A, connected again, can lock as before.
    const back = a.newLock('upload-7');
    await back.lock(signal(), () => undefined);
    await back.unlock();
  });

  it('stops waiting when the request is aborted', async () => {
    const a = locker();
    const b = locker();
    await a.newLock('upload-8').lock(signal(), () => undefined);
    const controller = new AbortController();
    const attempt = b.newLock('upload-8').lock(controller.signal, () => undefined);
    controller.abort();
    await expect(attempt).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
  });
});
