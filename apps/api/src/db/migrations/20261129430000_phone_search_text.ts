import { SqliteAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Responses stored before the search text carried each +234 number's local form (0XXXXXXXXXX, after
 * the marker ' \u0002 ', modules/responses/search-text.ts) get it appended, so 0812... finds them too.
 * Only search_text changes, and older code reads it as before: additive. Every index follows:
 * SQLite's trigram index is given each rewritten row it holds (rows above its mark are read from
 * the new text when the indexer reaches them), the gram index lists the row in search_grams_stale
 * (searches scan those until the indexer re-indexes them at start-up), both a batch at a time
 * (writeSqlite); PostgreSQL's pg_trgm and response_grams GIN indexes follow in the UPDATE itself.
 * Cost per rewritten row, measured on 20k: SQLite 56 µs plus about 0.2 ms of gram re-indexing at
 * start-up; PostgreSQL 0.5-0.9 ms (every index of the row takes the new version), with the rows
 * locked until the migrations commit.
 * Batches of BATCH rows keep memory flat; the walk reads every row once. The derivation is a copy
 * frozen here, so a later change to the search text cannot change what this migration did.
 */
const BATCH = 1000;
const MARK = ' \u0002 ';
const SEPARATOR = ' \u0001 ';

type Row = { key: string | number; search_text: string };
/** search_text contains the string: instr() on SQLite, strpos() on PostgreSQL. */
type Has = (needle: string) => RawBuilder<unknown>;

export async function up(db: Kysely<any>): Promise<void> {
  await rewrite(db, (has) => sql`${has('+234')} and not ${has(MARK)}`, (text) => {
    const local = new Set<string>();
    for (const m of text.matchAll(/\+234(\d{10})(?!\d)/g)) local.add(`0${m[1]}`);
    return local.size === 0 ? text : text + MARK + [...local].join(SEPARATOR);
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await rewrite(db, (has) => has(MARK), (text) => {
    const at = text.lastIndexOf(MARK);
    const derived = text.slice(at + MARK.length).split(SEPARATOR).every((part) => /^0\d{10}$/.test(part));
    return derived ? text.slice(0, at) : text;
  });
}

/**
 * Maps the search text of every row `where` picks, in key order, writing back the ones it changes.
 * Kysely runs SQLite's migrations outside a transaction: this one opens its own, so a crash never
 * leaves the indexer's marks at 0 (quietSqliteTriggers) or half the rows rewritten.
 */
async function rewrite(db: Kysely<any>, where: (has: Has) => RawBuilder<unknown>, map: (text: string) => string): Promise<void> {
  if (!db.isTransaction) return db.transaction().execute((trx) => rewrite(trx, where, map));
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  // SQLite walks the rowid; PostgreSQL the primary key (rows have no stable physical order there).
  const key = sqlite ? 'rowid' : 'id';
  const test = where(sqlite ? (s) => sql`instr(search_text, ${s}) > 0` : (s) => sql`strpos(search_text, ${s}) > 0`);
  const marks = sqlite ? await quietSqliteTriggers(db) : undefined;
  let after: string | number = sqlite ? 0 : '';
  for (;;) {
    const { rows } = await sql<Row>`select ${sql.raw(key)} as key, search_text from responses
      where ${sql.raw(key)} > ${after} and ${test} order by ${sql.raw(key)} limit ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    after = rows.at(-1)!.key;
    const changed = rows.map((r) => ({ key: r.key, old: r.search_text, text: map(r.search_text) })).filter((r) => r.text !== r.old);
    if (changed.length === 0) continue;
    if (marks) {
      await writeSqlite(db, changed, marks);
    } else {
      await sql`update responses r set search_text = v.t from unnest(${changed.map((r) => String(r.key))}::text[], ${changed.map((r) => r.text)}::text[]) as v(id, t)
        where r.id = v.id`.execute(db);
    }
  }
  if (marks) await sql`update search_index_state set last_rowid = ${marks.last_rowid}, grams_rowid = ${marks.grams_rowid} where id = 1`.execute(db);
}

type Marks = { last_rowid: number; grams_rowid: number };

/**
 * SQLite's update triggers keep the indexes in step one row at a time, and each row's delete then
 * insert flushes the trigram index's pending terms: 0.58 ms a row against 0.05 without them. They
 * fire only for rows at or below the indexer's marks, so the marks read 0 while this runs (inside
 * rewrite()'s transaction, which no other connection sees) and writeSqlite does their work a
 * batch at a time; rewrite() puts the marks back.
 */
async function quietSqliteTriggers(db: Kysely<any>): Promise<Marks> {
  const { rows } = await sql<Marks>`select last_rowid, grams_rowid from search_index_state where id = 1`.execute(db);
  await sql`update search_index_state set last_rowid = 0, grams_rowid = 0 where id = 1`.execute(db);
  return rows[0]!;
}

/** One batch, ascending rowids: out of the trigram index, the new text, back in; the gram index re-indexes it (stale). */
async function writeSqlite(db: Kysely<any>, rows: { key: string | number; old: string; text: string }[], marks: Marks): Promise<void> {
  const json = (list: typeof rows, field: 'old' | 'text') => JSON.stringify(list.map((r) => [r.key, r[field]]));
  const held = rows.filter((r) => Number(r.key) <= marks.last_rowid);
  await sql`insert into responses_fts(responses_fts, rowid, search_text) select 'delete', value ->> 0, value ->> 1 from json_each(${json(held, 'old')})`.execute(db);
  await sql`update responses set search_text = j.value ->> 1 from json_each(${json(rows, 'text')}) as j where responses.rowid = j.value ->> 0`.execute(db);
  await sql`insert into responses_fts(rowid, search_text) select value ->> 0, value ->> 1 from json_each(${json(held, 'text')})`.execute(db);
  const grams = JSON.stringify(rows.filter((r) => Number(r.key) <= marks.grams_rowid).map((r) => r.key));
  await sql`insert into search_grams_stale (rowid) select value from json_each(${grams}) where true on conflict do nothing`.execute(db);
}
