/* eslint-disable @typescript-eslint/only-throw-error -- tus answers the `{ status_code, body }` objects of its ERRORS */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type Pg from 'pg';

/** The channel on which an instance asks the holder of an upload's lock to let go (payload: the lock key). */
const CHANNEL = 'survey_bird_tus_release';
/** How long a request waits for an upload's lock before it is answered 503 (tus's MemoryLocker waits as long). */
const ACQUIRE_TIMEOUT_MS = 30_000;
const ASK_AGAIN_MS = 1000;

interface Holding {
  lock: PgLock;
  requestRelease: RequestRelease;
  /** The connection the lock was taken on: a lock of a connection that has since dropped is gone. */
  generation: number;
}

export interface PgLockerOptions {
  connectionString: string;
  /** The PostgreSQL schema: advisory locks are per database, and tests run many schemas in one. */
  schema: string | undefined;
  acquireTimeoutMs?: number;
  onConnectionLost?: (err: Error | undefined) => void;
}

/**
 * tus's Locker over PostgreSQL session advisory locks, so that two instances never write one upload
 * at once. Each instance holds its locks on one connection of its own (not the pool's:
 * a PATCH on 2G holds its lock for minutes), keyed by 64 bits of SHA-256 of schema and upload id.
 * A session lock is re-entrant within its session, so this process also keeps which uploads it
 * holds, and a second local request waits on that map before it asks PostgreSQL.
 *
 * tus's semantics across instances: a request that finds the lock taken asks its holder to let go
 * (NOTIFY on CHANNEL; the holder's instance LISTENs and calls the holder's requestRelease, which
 * ends its request after tus's lockDrainTimeout with what it has stored), then polls
 * pg_try_advisory_lock until it gets it or 30 s pass. A phone whose PATCH stalled on a dead link
 * can so resume through any instance, after about 3 s. If the connection drops, PostgreSQL has
 * released every lock of it: each holder here is asked to stop, and the store's offset check
 * (resumable-store.ts) refuses a write that another instance has overtaken meanwhile.
 */
export class PgLocker implements Locker {
  readonly holding = new Map<string, Holding>();
  private client: Pg.Client | undefined;
  private connecting: Promise<{ client: Pg.Client; generation: number }> | undefined;
  private generation = 0;
  private closed = false;
  /** The lock connection's queries, one after another (pg 8 deprecates queueing them on one client). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: PgLockerOptions) {}

  newLock(id: string): Lock {
    return new PgLock(this, lockKey(this.opts.schema, id), this.opts.acquireTimeoutMs ?? ACQUIRE_TIMEOUT_MS);
  }

  /** This instance's lock connection, opened (and LISTENing) on first use and after a drop. */
  connection(): Promise<{ client: Pg.Client; generation: number }> {
    if (this.closed) return Promise.reject(new Error('Connection terminated: the upload locker is closed'));
    if (this.client) return Promise.resolve({ client: this.client, generation: this.generation });
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    this.generation++;
    await client?.end().catch(() => undefined);
  }

  /** Runs one query on the lock connection after the ones before it. */
  query<R extends Pg.QueryResultRow>(client: Pg.Client, text: string, values: unknown[]): Promise<R[]> {
    const result = this.queue.then(() => client.query<R>(text, values));
    this.queue = result.catch(() => undefined);
    return result.then((r) => r.rows);
  }

  /** Releases a lock taken on the current connection; one of a dropped connection is already gone. */
  async release(key: string, holding: Holding): Promise<void> {
    try {
      if (this.client && holding.generation === this.generation) await this.query(this.client, 'select pg_advisory_unlock($1::bigint)', [key]);
    } finally {
      // Only after PostgreSQL let go: the session lock is re-entrant, so a local request must not try it before.
      if (this.holding.get(key) === holding) this.holding.delete(key);
    }
  }

  private async open(): Promise<{ client: Pg.Client; generation: number }> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: this.opts.connectionString, application_name: 'survey-bird upload locks' });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, undefined));
    let pid = 0;
    client.on('notification', (message) => {
      // Our own asks come back to us too: only another instance's are for our holders.
      if (message.channel !== CHANNEL || !message.payload || message.processId === pid) return;
      const holding = this.holding.get(message.payload);
      if (holding) void holding.requestRelease();
    });
    try {
      await client.connect();
      pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? 0;
      await client.query(`listen ${CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('Connection terminated: the upload locker is closed');
    }
    this.client = client;
    return { client, generation: this.generation };
  }

  private lost(client: Pg.Client, err: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    const generation = this.generation++;
    if (!this.closed) this.opts.onConnectionLost?.(err);
    for (const holding of this.holding.values()) if (holding.generation === generation) void holding.requestRelease();
  }
}

class PgLock implements Lock {
  constructor(
    private readonly locker: PgLocker,
    private readonly key: string,
    private readonly timeoutMs: number,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    let askedAt = 0;
    for (let wait = 10; ; wait = Math.min(wait * 2, 250)) {
      if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
      const local = this.locker.holding.get(this.key);
      if (local) {
        await local.requestRelease();
      } else {
        // Claimed here before PostgreSQL is asked: another local request now waits on the map.
        const holding: Holding = { lock: this, requestRelease, generation: -1 };
        this.locker.holding.set(this.key, holding);
        let taken = false;
        let client: Pg.Client;
        try {
          const connection = await this.locker.connection();
          client = connection.client;
          holding.generation = connection.generation;
          taken = (await this.locker.query<{ ok: boolean }>(client, 'select pg_try_advisory_lock($1::bigint) as ok', [this.key]))[0]?.ok === true;
        } finally {
          if (!taken && this.locker.holding.get(this.key) === holding) this.locker.holding.delete(this.key);
        }
        if (taken) return;
        if (Date.now() - askedAt >= ASK_AGAIN_MS) {
          askedAt = Date.now();
          await this.locker.query(client, 'select pg_notify($1, $2)', [CHANNEL, this.key]);
        }
      }
      if (Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await sleep(wait, undefined, { signal }).catch(() => undefined);
    }
  }

  async unlock(): Promise<void> {
    const holding = this.locker.holding.get(this.key);
    if (holding?.lock !== this) return;
    await this.locker.release(this.key, holding).catch(() => undefined);
  }
}

/** 64 bits of SHA-256 of the schema and the upload id, as the signed bigint PostgreSQL's advisory locks take. */
export function lockKey(schema: string | undefined, id: string): string {
  return createHash('sha256').update(`survey-bird tus\0${schema ?? ''}\0${id}`).digest().readBigInt64BE(0).toString();
}
