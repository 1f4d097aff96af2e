import type SQLite from 'better-sqlite3';
import { gramDocument } from './search-grams.js';

/**
 * Moves newly stored responses into the SQLite trigram index in batches (see the migration
 * 20261124000000_deferred_search_index), and into the survey-scoped gram index (migration
 * 20261126500000_search_grams, search-grams.ts), each behind its own mark. Small batches on a short
 * timer keep each pause of the event loop to a few milliseconds while ingest runs; PostgreSQL needs
 * none of this.
 */
/** Work per slice of the event loop, in ms, and the batch bounds around it. */
const SLICE_MS = 4;
const MIN_BATCH = 10;
const MAX_BATCH = 500;
/** The pause between slices while rows are pending. */
const BEHIND_MS = 20;

export class SearchIndexer {
  private timer: NodeJS.Timeout | undefined;
  private readonly pending: SQLite.Statement<[], { n: number }>;
  private readonly step: SQLite.Transaction<(max: number) => number>;

  constructor(sqlite: SQLite.Database) {
    this.pending = sqlite.prepare(
      `select (select coalesce(max(rowid), 0) from responses) - min(last_rowid, grams_rowid) + (select count(*) from search_grams_stale) as n from search_index_state where id = 1`,
    );
    const last = sqlite.prepare<[], { last_rowid: number }>(`select last_rowid from search_index_state where id = 1`);
    const top = sqlite.prepare<[number, number], { rowid: number }>(`select max(rowid) as rowid from (select rowid from responses where rowid > ? order by rowid limit ?)`);
    const fill = sqlite.prepare(`insert into responses_fts(rowid, search_text) select rowid, search_text from responses where rowid > ? and rowid <= ?`);
    const mark = sqlite.prepare(`update search_index_state set last_rowid = ? where id = 1`);
    const trigrams = (max: number) => {
      const from = last.get()!.last_rowid;
      const to = top.get(from, max)?.rowid;
      if (to == null) return 0;
      fill.run(from, to);
      mark.run(to);
      return to - from;
    };
    const gramsMark = sqlite.prepare<[], { grams_rowid: number }>(`select grams_rowid from search_index_state where id = 1`);
    const gramsRows = sqlite.prepare<[number, number], { rowid: number; survey_id: string; search_text: string }>(
      `select rowid, survey_id, search_text from responses where rowid > ? order by rowid limit ?`,
    );
    const staleRows = sqlite.prepare<[number], { rowid: number; survey_id: string | null; search_text: string | null }>(
      `select s.rowid, r.survey_id, r.search_text from search_grams_stale s left join responses r on r.rowid = s.rowid limit ?`,
    );
    const addGrams = sqlite.prepare<[number, string]>(`insert into responses_grams (rowid, grams) values (?, ?)`);
    const dropGrams = sqlite.prepare<[number]>(`delete from responses_grams where rowid = ?`);
    const unstale = sqlite.prepare<[number]>(`delete from search_grams_stale where rowid = ?`);
    const markGrams = sqlite.prepare<[number]>(`update search_index_state set grams_rowid = ? where id = 1`);
    const grams = (max: number) => {
      const stale = staleRows.all(max);
      for (const r of stale) {
        dropGrams.run(r.rowid);
        if (r.survey_id !== null && r.search_text !== null) addGrams.run(r.rowid, gramDocument(r.survey_id, r.search_text));
        unstale.run(r.rowid);
      }
      const rows = gramsRows.all(gramsMark.get()!.grams_rowid, max);
      for (const r of rows) addGrams.run(r.rowid, gramDocument(r.survey_id, r.search_text));
      if (rows.length > 0) markGrams.run(rows.at(-1)!.rowid);
      return stale.length + rows.length;
    };
    this.step = sqlite.transaction((max: number) => trigrams(max) + grams(max));
  }

  /** Indexes up to `max` rows; returns how many rowids it covered (0 when up to date). */
  indexBatch(max = 500): number {
    return this.step(max);
  }

  /** Everything pending, in batches: at start-up and in tests. */
  drain(): void {
    while (this.indexBatch(2000) > 0);
  }

  hasPending(): boolean {
    return (this.pending.get()?.n ?? 0) > 0;
  }

  /**
   * Drains what is pending, then indexes on a timer in slices of about SLICE_MS of work each: the
   * batch size follows the measured cost per row (the gram document made one row 2.3x dearer, and
   * fixed batches of 500 had grown to 45 ms pauses that every request waited behind: ingest p99
   * 51 ms against 15 ms for the bare insert). While rows are pending the next slice comes after
   * BEHIND_MS, so the index catches up when ingest pauses; otherwise every `intervalMs`.
   */
  start(intervalMs = 250): void {
    try {
      this.drain();
    } catch {
      // A full disk (or a busy file) must not stop the server from starting: the timer catches up.
    }
    // After a failure, wait (doubling up to a minute) before the next try: on a full disk every try
    // indexes a whole batch before its commit fails, and retrying each tick would pin the event loop.
    let backoffMs = 0;
    let msPerRow = 0.1;
    const tick = () => {
      let next = intervalMs;
      try {
        if (this.hasPending()) {
          const max = Math.max(MIN_BATCH, Math.min(MAX_BATCH, Math.floor(SLICE_MS / msPerRow)));
          const started = performance.now();
          const covered = this.indexBatch(max);
          // `covered` counts a row once per index (trigram, gram): the cost per row is per pair.
          if (covered > 0) msPerRow = 0.7 * msPerRow + 0.3 * ((performance.now() - started) / Math.max(1, covered / 2));
          if (this.hasPending()) next = BEHIND_MS;
        }
        backoffMs = 0;
      } catch {
        // Busy or full disk: the rows stay searchable by scan and a later tick tries again.
        backoffMs = Math.min(60_000, Math.max(1000, backoffMs * 2));
        next = backoffMs;
      }
      this.timer = setTimeout(tick, next).unref();
    };
    this.timer = setTimeout(tick, intervalMs).unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
