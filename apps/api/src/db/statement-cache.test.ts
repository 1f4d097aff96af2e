import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { cachedStatements } from './statement-cache.js';

function counted() {
  const db = new SQLite(':memory:');
  let prepares = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = ((text: string) => {
    prepares++;
    return prepare(text);
  }) as typeof db.prepare;
  const kysely = new Kysely<{ t: { n: number } }>({ dialect: new SqliteDialect({ database: cachedStatements(db) }) });
  return { kysely, prepares: () => prepares };
}

describe('prepared statements kept by SQL text', () => {
  it('prepares a query once however often it runs, with any parameters', async () => {
    const { kysely, prepares } = counted();
    await sql`create table t (n integer)`.execute(kysely);
    for (let n = 0; n < 5; n++) await kysely.insertInto('t').values({ n }).execute();
    const before = prepares();
    for (let n = 0; n < 5; n++) expect(await kysely.selectFrom('t').select('n').where('n', '=', n).executeTakeFirst()).toEqual({ n });
    expect(prepares() - before).toBe(1);
    await kysely.destroy();
  });

  it('gives a statement still iterating no second run: the same text prepares anew', () => {
    const db = new SQLite(':memory:');
    const cache = cachedStatements(db);
    db.exec('create table t (n integer); insert into t values (1), (2), (3)');
    const text = 'select n from t order by n';
    const streamed: number[] = [];
    for (const row of cache.prepare(text).iterate([]) as Iterable<{ n: number }>) {
      streamed.push(row.n);
      expect((cache.prepare(text).all([]) as { n: number }[]).map((r) => r.n)).toEqual([1, 2, 3]);
    }
    expect(streamed).toEqual([1, 2, 3]);
    expect(cache.prepare(text)).toBe(cache.prepare(text));
    cache.close();
  });
});
