import { sql } from 'kysely';
import type { Db } from './database.js';

/**
 * Runs `fn` while holding a PostgreSQL session advisory lock, so instances started together do
 * their start-up work (migrations, the generated JWT secret, the first admin, the demo) one after
 * the other: the second finds the work done. The lock is per database and schema and is held on
 * one connection of the pool, which `fn` leaves to the others. SQLite has one process per file.
 */
export async function withStartupLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (db.engine !== 'postgres') return fn();
  const key = `survey-bird startup ${db.pgSchema ?? ''}`;
  return db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtext(${key}))`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn);
    }
  });
}
