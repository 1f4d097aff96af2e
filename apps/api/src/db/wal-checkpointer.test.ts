import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SAFETY_NET_PAGES, startWalCheckpointer } from './wal-checkpointer.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function open(): SQLite.Database {
  const dir = mkdtempSync(join(tmpdir(), 'sb-wal-'));
  dirs.push(dir);
  const db = new SQLite(join(dir, 'db.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec('create table t (id integer primary key, body text)');
  return db;
}

/** Frames in the WAL that no checkpoint has copied into the database yet. */
const uncopied = (db: SQLite.Database) => {
  const [r] = db.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[];
  return r!.log - r!.checkpointed;
};

const writeMany = (db: SQLite.Database, n: number) => {
  const insert = db.prepare('insert into t (body) values (?)');
  for (let i = 0; i < n; i++) db.transaction(() => insert.run('x'.repeat(2000)))();
};

describe('WAL checkpoint thread', () => {
  it('takes checkpoints off the writing connection and keeps the WAL copied, then hands them back', async () => {
    const db = open();
    const checkpointer = startWalCheckpointer(db, { onError: (message) => expect.fail(message) })!;
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(SAFETY_NET_PAGES);
    // 2,000 commits of a page or more each: past SQLite's own threshold of 1,000 pages, which no
    // longer applies on this connection.
    writeMany(db, 2000);
    await expect.poll(() => uncopied(db), { timeout: 5000, interval: 50 }).toBe(0);
    // The next write after a complete checkpoint starts the WAL over instead of growing it.
    const walSize = statSync(`${db.name}-wal`).size;
    writeMany(db, 50);
    expect(statSync(`${db.name}-wal`).size).toBeLessThanOrEqual(walSize);
    await checkpointer.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 2050 });
    db.close();
  });

  it('lets a close go on when its thread has already ended', async () => {
    const db = open();
    const checkpointer = startWalCheckpointer(db, { onError: (message) => expect.fail(message) })!;
    await checkpointer.stop();
    // The thread is gone: a second stop (a close after it ended on its own) must not wait for it.
    await checkpointer.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
  });

  it('stops its thread while the WAL is at rest and starts one again on the next write', async () => {
    const db = open();
    const checkpointer = startWalCheckpointer(db, { onError: (message) => expect.fail(message) }, { idleMs: 300, watchMs: 50 })!;
    expect(checkpointer.running()).toBe(true);
    writeMany(db, 1200);
    await expect.poll(() => checkpointer.running(), { timeout: 5000, interval: 50 }).toBe(false);
    // At rest, with everything copied, and the request connection still on the safety net.
    expect(uncopied(db)).toBe(0);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(SAFETY_NET_PAGES);
    writeMany(db, 1200);
    await expect.poll(() => checkpointer.running(), { timeout: 5000, interval: 20 }).toBe(true);
    await expect.poll(() => uncopied(db), { timeout: 5000, interval: 50 }).toBe(0);
    await checkpointer.stop();
    expect(checkpointer.running()).toBe(false);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 2400 });
    db.close();
  });

  it('is not started for an in-memory database', () => {
    const db = new SQLite(':memory:');
    expect(startWalCheckpointer(db, { onError: () => undefined })).toBeUndefined();
    db.close();
  });
});
