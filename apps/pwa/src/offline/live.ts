import { Dexie, type ObservabilitySet } from 'dexie';
import { type AccountKey, db } from './db';
import { counts, type OutboxCounts } from './outbox';

/**
 * A live read for what is shown or scheduled after a save (the badge's counts, the sync
 * scheduler's snapshot): like Dexie's liveQuery, but a burst of writes costs one re-read, not one
 * per write. Dexie re-runs a liveQuery on every committed write, and each re-run is a read
 * transaction that the next save has to wait for; queuing 500 responses in a row paid for that
 * 500 times (benchmark target 8).
 *
 * After a commit that touched one of `tables` (in this tab, another tab or the service worker),
 * the querier runs again once writes have paused for `quietMs`, and at least every `maxWaitMs`
 * while they go on. A write during a run makes another run follow, so the last value is always
 * read after the last write.
 */
export interface CoalesceOptions {
  quietMs?: number;
  maxWaitMs?: number;
}

/** Subscribable as is, or with dexie-react-hooks' useObservable. */
export interface Live<T> {
  subscribe(next: (value: T) => void, error?: (err: unknown) => void): { unsubscribe(): void };
  /** No value without a read: tells useObservable not to subscribe just to peek. */
  hasValue(): false;
}

export function coalescedLiveQuery<T>(querier: () => Promise<T>, tables: readonly string[], { quietMs = 100, maxWaitMs = 1000 }: CoalesceOptions = {}): Live<T> {
  return {
    hasValue: () => false,
    subscribe(next, error = (err) => console.error('survey-bird live query', err)) {
      const prefixes = tables.map((t) => `idb://${db.name}/${t}/`);
      let closed = false;
      let running = false;
      /** A write arrived that the last value may not include. */
      let dirty = false;
      let firstChangeAt = 0;
      let lastChangeAt = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;

      const run = async () => {
        timer = undefined;
        running = true;
        dirty = false;
        try {
          const value = await querier();
          if (!closed) next(value);
        } catch (err) {
          if (!closed) error(err);
        } finally {
          running = false;
          if (dirty) arm();
        }
      };
      const arm = () => {
        if (closed || running) return;
        if (timer !== undefined) clearTimeout(timer);
        const at = Math.min(lastChangeAt + quietMs, firstChangeAt + maxWaitMs);
        timer = setTimeout(() => void run(), Math.max(0, at - Date.now()));
      };
      const onChange = (parts: ObservabilitySet) => {
        if (!(parts.all !== undefined || Object.keys(parts).some((key) => prefixes.some((p) => key.startsWith(p))))) return;
        const now = Date.now();
        if (!dirty) firstChangeAt = now;
        lastChangeAt = now;
        dirty = true;
        arm();
      };

      Dexie.on.storagemutated.subscribe(onChange);
      void run();
      return {
        unsubscribe() {
          closed = true;
          if (timer !== undefined) clearTimeout(timer);
          Dexie.on.storagemutated.unsubscribe(onChange);
        },
      };
    },
  };
}

/** The account's outbox counts (the badge), re-read at most about once a second during a burst of saves. */
export function liveCounts(account: AccountKey): Live<OutboxCounts> {
  return coalescedLiveQuery(() => counts(account), ['outbox']);
}
