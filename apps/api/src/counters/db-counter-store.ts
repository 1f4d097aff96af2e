import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { CounterStore } from './counter-store.js';

/** Rows of rate_counters, one per key; expired windows are swept now and then, not per hit. */
export class DbCounterStore implements CounterStore {
  private hitsSinceSweep = 0;

  constructor(private readonly db: Kysely<Database>) {}

  async hit(keys: readonly string[], windowMs: number): Promise<number[]> {
    const now = Date.now();
    const expired = now - windowMs;
    if (++this.hitsSinceSweep >= 500) {
      this.hitsSinceSweep = 0;
      await this.db.deleteFrom('rate_counters').where('window_start', '<=', expired).execute();
    }
    const counts: number[] = [];
    for (const key of keys) {
      // One statement per key: an upsert that restarts an expired window, atomic on both engines.
      const row = await this.db
        .insertInto('rate_counters')
        .values({ key, window_start: now, hits: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql<number>`case when rate_counters.window_start <= ${expired} then 1 else rate_counters.hits + 1 end`,
            window_start: sql<number>`case when rate_counters.window_start <= ${expired} then ${now} else rate_counters.window_start end`,
          }),
        )
        .returning('hits')
        .executeTakeFirstOrThrow();
      counts.push(Number(row.hits));
    }
    return counts;
  }

  async peek(keys: readonly string[], windowMs: number): Promise<number[]> {
    if (keys.length === 0) return [];
    const rows = await this.db.selectFrom('rate_counters').select(['key', 'hits']).where('key', 'in', [...keys]).where('window_start', '>', Date.now() - windowMs).execute();
    const byKey = new Map(rows.map((r) => [r.key, Number(r.hits)]));
    return keys.map((k) => byKey.get(k) ?? 0);
  }

  async reset(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.db.deleteFrom('rate_counters').where('key', 'in', [...keys]).execute();
  }

  async close(): Promise<void> {}
}
