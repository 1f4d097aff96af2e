import { SqliteAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL's survey-scoped gram index (1-2 character terms and survey-rare ones; SQLite's is 20261126500000_search_grams):
 * a GIN index over `response_grams(survey_id, search_text)`, an immutable function giving one int8
 * code per character, per pair of adjacent characters and per run of 4 digits (bit 62), each
 * carrying 20 bits of the survey id's md5 (modules/insight/search-grams.ts computes the same codes
 * for a term). GIN sorts and de-duplicates the codes itself, so the function does not. The key is
 * a materialized CTE: joined as a plain subquery, PostgreSQL computed the md5 once per character.
 * Its cost (docs/decisions.md): 110 µs of CPU per inserted row, a batched insert 115 -> 490 µs a
 * row with its GIN upkeep; the build on an existing database about 4 minutes per million
 * responses, during which writes to responses wait; an operator can build it beforehand with
 * CREATE INDEX CONCURRENTLY (docs/deploy.md), then this skips it.
 * COST 10000 tells the planner that calling it per row is never the cheap plan: it reads the index.
 * PARALLEL UNSAFE keeps such a query in one process: with that cost PostgreSQL started two workers
 * for a bitmap scan of a few pages, 40-70 ms of start-up for a 0.4 ms scan.
 * PARALLEL UNSAFE keeps such a query in one process: that cost made PostgreSQL start two workers
 * for a bitmap scan of a few pages, 40-70 ms of start-up for a 0.4 ms scan.
 */
/** Also in docs/deploy.md, for building the index beforehand (a test holds the two the same). */
export const RESPONSE_GRAMS_FUNCTION = `create or replace function response_grams(survey text, t text) returns int8[]
  language sql immutable parallel unsafe cost 10000 as $$
    with kk as materialized (select ('x' || substr(md5(survey), 1, 5))::bit(20)::int8 << 42 as k)
    select array_cat(array_cat(array_agg(kk.k | p.a), array_agg(kk.k | (p.a << 21) | p.b) filter (where p.b is not null)),
      array_agg(kk.k | 4611686018427387904 | ((p.a - 48) * 1000 + (p.b - 48) * 100 + (p.c - 48) * 10 + p.d - 48))
        filter (where p.a between 48 and 57 and p.b between 48 and 57 and p.c between 48 and 57 and p.d between 48 and 57))
    from kk, (select ascii(ch)::int8 as a, lead(ascii(ch)::int8) over w as b, lead(ascii(ch)::int8, 2) over w as c, lead(ascii(ch)::int8, 3) over w as d
      from unnest(string_to_array(t, null)) with ordinality as u(ch, n) window w as (order by n)) p
  $$`;

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql.raw(RESPONSE_GRAMS_FUNCTION).execute(db);
  await sql`create index if not exists responses_grams on responses using gin (response_grams(survey_id, search_text))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`drop index if exists responses_grams`.execute(db);
  await sql`drop function if exists response_grams(text, text)`.execute(db);
}
