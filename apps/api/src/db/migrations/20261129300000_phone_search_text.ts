import { SqliteAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Responses stored before the search text carried each +234 number's local form (0XXXXXXXXXX, after
 * the marker ' \u0002 ', modules/responses/search-text.ts) get it appended, so 0812... finds them too.
 * Only search_text changes, and older code reads it as before: additive. Every index follows the
 * UPDATE: SQLite's trigram index by its update trigger for rows it holds (rows above its mark are
 * read from the new text when it reaches them), the gram index by listing the row in
 * search_grams_stale (searches scan those until the indexer re-indexes them at start-up);
 * PostgreSQL's pg_trgm and response_grams GIN indexes in the UPDATE itself.
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

/** Maps the search text of every row `where` picks, in key order, writing back the ones it changes. */
async function rewrite(db: Kysely<any>, where: (has: Has) => RawBuilder<unknown>, map: (text: string) => string): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  // SQLite walks the rowid; PostgreSQL the primary key (rows have no stable physical order there).
  const key = sqlite ? 'rowid' : 'id';
  const test = where(sqlite ? (s) => sql`instr(search_text, ${s}) > 0` : (s) => sql`strpos(search_text, ${s}) > 0`);
  let after: string | number = sqlite ? 0 : '';
  for (;;) {
    const { rows } = await sql<Row>`select ${sql.raw(key)} as key, search_text from responses
      where ${sql.raw(key)} > ${after} and ${test} order by ${sql.raw(key)} limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    after = rows.at(-1)!.key;
    const changed = rows.map((r) => ({ key: r.key, text: map(r.search_text) })).filter((r, i) => r.text !== rows[i]!.search_text);
    if (changed.length === 0) continue;
    if (sqlite) {
      for (const r of changed) await sql`update responses set search_text = ${r.text} where rowid = ${r.key}`.execute(db);
    } else {
      await sql`update responses r set search_text = v.t from unnest(${changed.map((r) => String(r.key))}::text[], ${changed.map((r) => r.text)}::text[]) as v(id, t)
        where r.id = v.id`.execute(db);
    }
  }
}
