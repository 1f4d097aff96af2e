import type { WriteWatch } from './write-watch.js';

/**
 * Rows read on every request (the caller's session, a field user's membership), kept until this
 * process writes one of their tables (WriteWatch) or `ttlMs` passes, whichever comes first. The
 * TTL is what bounds a change made elsewhere: another API instance on the same PostgreSQL, or a
 * CLI on the same SQLite file. Misses are kept too, so a flood of bad ids costs no queries.
 */
export class RowCache<V> {
  private readonly entries = new Map<string, { value: V; generation: number; at: number }>();

  constructor(
    private readonly writes: WriteWatch,
    private readonly tables: readonly string[],
    private readonly ttlMs = 1000,
    private readonly maxEntries = 5000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    // Taken before the load: a write that lands during it leaves the new entry already stale.
    const generation = this.writes.generation(this.tables);
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation && now - hit.at < this.ttlMs) return hit.value;
    const value = await load();
    this.entries.delete(key);
    // Map order is insertion order: past the cap, the oldest entry goes.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, generation, at: now });
    return value;
  }
}
