import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.js';
import { openDb } from './database.js';

// The database, its WAL and the photos are the server user's only.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const modeOf = (path: string) => statSync(path).mode & 0o777;

it('creates the SQLite file, its WAL and shared memory 0600, and narrows an existing 0644 file', async () => {
  const previous = process.umask(0o022);
  try {
    const fresh = mkdtempSync(join(tmpdir(), 'sb-modes-'));
    const old = mkdtempSync(join(tmpdir(), 'sb-modes-'));
    dirs.push(fresh, old);
    writeFileSync(join(old, 'survey-bird.sqlite'), '');
    chmodSync(join(old, 'survey-bird.sqlite'), 0o644);
    for (const dataDir of [fresh, old]) {
      const db = openDb({ dataDir, databaseUrl: undefined });
      db.sqlite!.exec('create table t (x integer); insert into t values (1)');
      const file = join(dataDir, 'survey-bird.sqlite');
      expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual([0o600, 0o600, 0o600]);
      await db.close();
    }
  } finally {
    process.umask(previous);
  }
});

it('creates the uploads folder 0700', async () => {
  const t = await buildTestApp();
  try {
    expect(modeOf(join(t.config.dataDir, 'uploads'))).toBe(0o700);
  } finally {
    await t.close();
  }
});
