import type { Database as SQLiteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared: the app's queries number a few hundred; `in (?, ?, ...)` lists of every length come and go. */
const CAPACITY = 1000;

/**
 * Kysely's SQLite driver prepares every query anew; better-sqlite3's prepare was 13% of the
 * server's CPU under single-response ingest (a profile of 32 connections posting to
 * /survey/respond). This keeps prepared statements by SQL text, least recently used out. A
 * statement still iterating (a streamed export) is `busy` and cannot run again: such a call gets
 * a fresh statement of its own.
 */
export function cachedStatements(db: SQLiteDatabase): SqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare: (sql: string) => {
      const hit = cache.get(sql);
      if (hit !== undefined) {
        if (hit.busy) return db.prepare(sql);
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = db.prepare(sql);
      cache.set(sql, stmt);
      if (cache.size > CAPACITY) cache.delete(cache.keys().next().value!);
      return stmt;
    },
  };
}
