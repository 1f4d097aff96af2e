import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { Role, type ResponseStatus } from '@survey-bird/contracts';
import { inOffice } from '../../db/actor-scope.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { likePattern, type Page } from '../../http/paging.js';
import type { OfficeActor, SupervisorActor } from '../../plugins/auth.js';
import { gramQuery, pgGramCodes } from './search-grams.js';

/**
 * Which responses a request reads: one survey and, for a supervisor, only their field users. Made
 * only by `findSurvey` from the caller's `Actor` once the survey is found in the actor's reach.
 */
export interface RowScope {
  surveyId: string;
  /** The supervisor's member row on this survey; null when the organization is asking. */
  supervisorMemberId: string | null;
  /** Only responses with this review status (the table's status filter); absent: every status. */
  status?: ResponseStatus;
  /** Only responses with (true) or without (false) an open quality flag. */
  flagged?: boolean;
}

export interface ScopedSurvey {
  id: string;
  organization_id: string;
  title: string;
  /** JSON of StoredQuestion[] */
  questions: string;
  scope: RowScope;
}

/** A response as the table and the export show it, with the field user's member row. */
export interface ListedResponse {
  id: string;
  survey_id: string;
  organization_id: string;
  answers: string;
  created_at: number;
  captured_at: number | null;
  /** The survey version it was filled against. */
  version: number;
  full_name: string;
  email: string;
  status: string;
  /** JSON of EncryptedAnswers; null for a response in clear. */
  encrypted?: string | null;
}

/**
 * The lowest transaction id whose changes may still become visible to this statement: the
 * snapshot's in-progress ids (its xmax when none), less those of backends connected to another
 * database (they never write these tables; another database's long transaction would otherwise
 * hold the feed back). An id that ended after the snapshot was taken is still counted, which only
 * delays its changes to the next read.
 */
const PG_SETTLED = sql`select least(pg_snapshot_xmax(s.snap)::text::bigint, (select min(id::text::bigint) from pg_snapshot_xip(s.snap) id
    where (id::text::bigint % 4294967296) not in (select a.backend_xid::text::bigint from pg_stat_activity a
      where a.backend_xid is not null and a.datname is not null and a.datname <> current_database())))
  from (select pg_current_snapshot() as snap) s`;

const CHANGED_ROW = sql`select r.id, r.survey_id, r.organization_id, r.answers, r.created_at, r.captured_at, r.version, r.revision, r.status,
    r.reviewed_at, r.review_comment, r.change_seq, m.full_name, m.email,
    exists (select 1 from payout_items i join payouts p on p.id = i.payout_id where i.response_id = r.id and p.status = 'paid') as paid
  from responses r join members m on m.id = r.member_id`;

/** A response as the changes feed gives it, with its place in the feed. */
export interface ChangedRow extends ListedResponse {
  change_seq: number | string;
  revision: number;
  reviewed_at: number | null;
  review_comment: string | null;
  paid: number | boolean;
}

export interface ResponsePage {
  rows: ListedResponse[];
  /** Exact without a search; with one, see listResponses (capped, docs/decisions.md). */
  totalCount: number;
  hasNextPage: boolean;
}

export interface DayTotals {
  day: number;
  value: number;
  amount: number;
}

export interface SearchTuning {
  /**
   * The trigram index is first asked for this many hits plus one. Fewer are the whole answer; a full
   * probe gives, from the highest rowid it reached, an estimate of the term's hits in the whole table.
   */
  probeHits: number;
  /** A term with at most this many trigram-index hits (all surveys) is listed straight from those hits. */
  rareTermHits: number;
  /** A common term is first looked for among this many newest rows, plus 20 for every row up to the page's end. */
  scanWindow: number;
  /** Beyond this many matches a search's totalCount stops counting and means "at least". */
  countCap: number;
  /**
   * A term with at most this many rows of the survey in the gram index (search-grams.ts) is
   * listed from them; more, and walking the newest rows finds a page sooner than sorting them all.
   */
  gramHits: number;
}

export const SEARCH_TUNING: SearchTuning = { probeHits: 200, rareTermHits: 5000, scanWindow: 2000, countCap: 200, gramHits: 1500 };
/**
 * PostgreSQL reads a window's rows at about 2.5 µs each (SQLite under 1): a window of 500 fills a
 * page of any term in 1 row of 46 or commoner, and the gram index lists anything rarer.
 */
export const PG_SEARCH_TUNING: SearchTuning = { ...SEARCH_TUNING, scanWindow: 500 };

type Eb = ExpressionBuilder<Database & { r: Database['responses'] }, 'r'>;
/** Rows read at a time by listVisible: 500 rows of answers is a few hundred KB. */
const VISIBLE_BATCH = 500;
/** A row's place in the newest-first order; a page cursor names the last row of the page before. */
export type Key = { created_at: number; id: string };

/**
 * Reads for the dashboards, the responses table and the export. Every query is scoped by
 * `RowScope`; ownership of the survey is settled by the two `find*Survey` methods before a scope exists.
 */
export class InsightRepository {
  constructor(
    private readonly db: Db,
    private readonly tuning: SearchTuning = db.engine === 'sqlite' ? SEARCH_TUNING : PG_SEARCH_TUNING,
  ) {}

  private get k() {
    return this.db.kysely;
  }

  /** Every published version's questions (JSON), oldest first. */
  async versionQuestions(surveyId: string): Promise<{ version: number; questions: string }[]> {
    const rows = await this.k.selectFrom('survey_versions').select(['version', 'questions']).where('survey_id', '=', surveyId).orderBy('version').execute();
    return rows.map((r) => ({ version: Number(r.version), questions: r.questions }));
  }

  /** The survey when it is in the actor's reach: an office user's scope, or a survey the supervisor supervises on. */
  findSurvey(actor: OfficeActor | SupervisorActor, surveyId: string): Promise<ScopedSurvey | undefined> {
    return actor.role === Role.organization ? this.findOfficeSurvey(surveyId, actor) : this.findSupervisorSurvey(surveyId, actor.userId);
  }

  private async findOfficeSurvey(surveyId: string, actor: OfficeActor): Promise<ScopedSurvey | undefined> {
    const row = await this.k.selectFrom('surveys').select(['id', 'organization_id', 'title', 'questions']).where('id', '=', surveyId).where(inOffice(actor, 'organization_id', 'id')).executeTakeFirst();
    return row && { ...row, scope: { surveyId: row.id, supervisorMemberId: null } };
  }

  private async findSupervisorSurvey(surveyId: string, userId: string): Promise<ScopedSurvey | undefined> {
    const row = await this.k
      .selectFrom('surveys as s')
      .innerJoin('members as m', 'm.survey_id', 's.id')
      .select(['s.id', 's.organization_id', 's.title', 's.questions', 'm.id as member_id'])
      .where('s.id', '=', surveyId)
      .where('m.user_id', '=', userId)
      .where('m.role', '=', Role.supervisor)
      .where('m.withdrawn_at', 'is', null)
      .executeTakeFirst();
    return row && { id: row.id, organization_id: row.organization_id, title: row.title, questions: row.questions, scope: { surveyId: row.id, supervisorMemberId: row.member_id } };
  }

  /**
   * The one search entry point: a page of responses, newest first, whose search_text contains
   * `search` (case-insensitive, literal). Plans, cheapest first:
   * - no search: exact count from response_counts, the page's first key found by an index-only
   *   OFFSET, then 20 rows by keyset;
   * - SQLite, 3+ characters, few trigram hits in the whole database: those hits, scoped and
   *   re-checked against search_text (exact count). Whether there are few is first estimated from a
   *   small probe, so a common term does not pay for reading thousands of hits it will not use;
   * - SQLite, a common term: walk the newest rows of the survey testing search_text, within a
   *   window so a term common elsewhere but rare here cannot turn into a full scan; when the window
   *   does not fill the page, every trigram hit is scoped instead (exact, slower);
   * - SQLite, any length: the survey's own rows from the gram index (a 1-2 character term's gram,
   *   or a longer term's pairs of characters) when they are few, so a term rare in this survey costs
   *   little however common it is elsewhere or however short it is; a short term with many rows
   *   walks the newest rows (its matches are dense);
   * - PostgreSQL: the window walk, then the gram index when the survey has few candidates, then
   *   the walk unbounded (PostgreSQL picks its pg_trgm GIN index when the term is rare): listPostgres.
   * With a search, totalCount is capped at tuning.countCap.
   * With `after` (the previous page's last row) every plan starts there instead of skipping
   * `page.offset` rows or matches, so page 500 costs what page 1 does; `page` then only says which
   * page the caller is on (for totalCount and hasPreviousPage).
   */
  async listResponses(scope: RowScope, search: string, page: Page, after: Key | null = null): Promise<ResponsePage> {
    const term = search.toLowerCase();
    // A status filter has no index of its own (one would cost every ingested row an entry): it
    // walks the survey's newest rows like a search, with the search's capped count.
    if (term === '') return scope.status || scope.flagged !== undefined ? this.listMatching(scope, term, page, null, after) : this.listAll(scope, page, after);
    if (this.db.engine !== 'sqlite') return this.listPostgres(scope, term, page, after);
    const short = [...term].length < 3;
    if (!short) {
      const probe = await this.trigramHits(term, this.tuning.probeHits + 1);
      if (probe.length <= this.tuning.probeHits) return this.listAmong(scope, term, inRowids(rowidList(probe)), page, after);
      if (await this.likelyRare(probe)) {
        const hits = await this.trigramHits(term, this.tuning.rareTermHits + 1);
        if (hits.length <= this.tuning.rareTermHits) return this.listAmong(scope, term, inRowids(rowidList(hits)), page, after);
      }
    }
    const ours = await this.gramHits(scope.surveyId, term, this.tuning.gramHits + 1);
    if (ours.length <= this.tuning.gramHits) return this.listAmong(scope, term, inRowids(rowidList(ours)), page, after);
    if (short) return this.listMatching(scope, term, page, null, after);
    return (await this.windowWalk(scope, term, page, after)) ?? this.listAmong(scope, term, inRowids(gramMatches(scope.surveyId, term)), page, after);
  }

  /**
   * A search for a reader kept from personal answers: the scope's rows whose search_text contains
   * the term, newest first, VISIBLE_BATCH at a time, each kept only when `visible` finds the term
   * outside its personal answers (search-text.ts visibleMatch). The walk stops once the page and
   * tuning.countCap matches are found, so the count is capped as any search's is; a term found in
   * many rows but only in their personal answers walks every one of them (a slow answer, never a leak).
   */
  async listVisible(scope: RowScope, search: string, page: Page, after: Key | null, visible: (row: ListedResponse) => boolean): Promise<ResponsePage> {
    const term = search.toLowerCase();
    const skipped = after ? 0 : page.offset;
    const wanted = skipped + page.limit + 1;
    const cap = Math.max(this.tuning.countCap, wanted);
    const kept: ListedResponse[] = [];
    let found = 0;
    let from = after;
    for (;;) {
      const rows = await this.rows(scope)
        .where((eb) => this.matches(eb as unknown as Eb, term))
        .$if(from !== null, (q) => q.where(before(from!)))
        .limit(VISIBLE_BATCH)
        .execute();
      for (const row of rows) {
        if (!visible(row)) continue;
        found++;
        if (kept.length < wanted) kept.push(row);
      }
      const last = rows.at(-1);
      if (!last || rows.length < VISIBLE_BATCH || found >= cap) break;
      from = { created_at: Number(last.created_at), id: last.id };
    }
    const shown = kept.slice(skipped, skipped + page.limit);
    const hasNextPage = kept.length > skipped + page.limit;
    const proven = shown.length > 0 ? page.offset + shown.length + (hasNextPage ? 1 : 0) : 0;
    return { rows: shown, totalCount: Math.max(after ? page.offset + found : found, proven), hasNextPage };
  }

  // The cards read response_counts (one row per member and shard, kept by triggers), not responses.
  /**
   * The survey's responses whose change_seq is after `after` (by (change_seq, id)), oldest change
   * first. On PostgreSQL only changes of transactions that have ended (ids below PG_SETTLED) are
   * read, so one still committing cannot land behind a cursor (migration response_change_seq).
   */
  async changedSince(surveyId: string, after: { seq: string; id: string } | null, limit: number): Promise<ChangedRow[]> {
    const settled = this.db.engine === 'postgres' ? sql`and r.change_seq < (${PG_SETTLED})` : sql``;
    const from = after === null ? sql`` : sql`and (r.change_seq > cast(${after.seq} as bigint) or (r.change_seq = cast(${after.seq} as bigint) and r.id > ${after.id}))`;
    const { rows } = await sql<ChangedRow>`${CHANGED_ROW} where r.survey_id = ${surveyId} ${from} ${settled}
      order by r.change_seq, r.id limit ${limit}`.execute(this.db.kysely);
    return rows;
  }

  /** One response as the changes feed gives it (a webhook's payload). */
  /** A survey's latest questions (JSON); '[]' when it is gone. */
  async surveyQuestions(surveyId: string): Promise<string> {
    const row = await this.k.selectFrom('surveys').select('questions').where('id', '=', surveyId).executeTakeFirst();
    return row?.questions ?? '[]';
  }

  async changedOne(responseId: string): Promise<ChangedRow | undefined> {
    const { rows } = await sql<ChangedRow>`${CHANGED_ROW} where r.id = ${responseId}`.execute(this.db.kysely);
    return rows[0];
  }

  async topPerformer(scope: RowScope): Promise<{ fullName: string; count: number } | undefined> {
    const row = await this.fieldUsers(scope)
      .innerJoin('response_counts as c', (j) => j.onRef('c.survey_id', '=', 'm.survey_id').onRef('c.member_id', '=', 'm.id'))
      .select((eb) => ['m.full_name', eb.fn.sum<number>('c.responses').as('n')])
      .groupBy(['m.id', 'm.full_name'])
      .orderBy('n', 'desc')
      .orderBy('m.full_name')
      .orderBy('m.id')
      .executeTakeFirst();
    return row && Number(row.n) > 0 ? { fullName: row.full_name, count: Number(row.n) } : undefined;
  }

  /** Field users in scope with at least one response received at or after `since`. */
  async activeFieldUsers(scope: RowScope, since: number): Promise<number> {
    const row = await this.fieldUsers(scope)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('response_counts as c').select('c.member_id').whereRef('c.survey_id', '=', 'm.survey_id').whereRef('c.member_id', '=', 'm.id').where('c.last_created_at', '>=', since)),
      )
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countResponses(scope: RowScope): Promise<number> {
    const row = await this.k
      .selectFrom('response_counts as c')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('c.responses'), eb.lit(0)).as('n'))
      .where('c.survey_id', '=', scope.surveyId)
      .$if(scope.supervisorMemberId !== null, (q) => q.where('c.member_id', 'in', this.fieldUsers(scope).select('m.id')))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Responses and naira per 24-hour slot from `start` (slot = floor((created_at - start) / 1 day)). */
  /** amount: naira of the day's responses; only approved ones when the survey pays after review. */
  async totalsByDay(surveyId: string, start: number, end: number): Promise<DayTotals[]> {
    // better-sqlite3 binds JS numbers as REAL, so the cast is what makes the division whole.
    const { rows } = await sql<DayTotals>`
      select cast((created_at - ${start}) / 86400000 as integer) as day, count(*) as value,
        coalesce(sum(case when status = 'approved' or (select pay_after_review from surveys where id = ${surveyId}) = 0 then rate else 0 end), 0) as amount
      from responses
      where survey_id = ${surveyId} and created_at >= ${start} and created_at < ${end}
      group by 1`.execute(this.k);
    return rows.map((r) => ({ day: Number(r.day), value: Number(r.value), amount: Number(r.amount) }));
  }

  private async listAll(scope: RowScope, page: Page, after: Key | null): Promise<ResponsePage> {
    const totalCount = await this.countResponses(scope);
    if (after) {
      const rows = await this.rows(scope).where(before(after)).limit(page.limit + 1).execute();
      return { rows: rows.slice(0, page.limit), totalCount, hasNextPage: rows.length > page.limit };
    }
    if (page.offset >= totalCount) return { rows: [], totalCount, hasNextPage: false };
    let first: Key | undefined;
    if (page.offset > 0) {
      // Only (created_at, id) is read while skipping, so the OFFSET walks the index, not the rows.
      first = await this.k
        .selectFrom('responses as r')
        .select(['r.created_at', 'r.id'])
        .where((eb) => this.inScope(eb, scope))
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(1)
        .offset(page.offset)
        .executeTakeFirst();
      if (!first) return { rows: [], totalCount, hasNextPage: false };
    }
    const rows = await this.rows(scope)
      .$if(first !== undefined, (q) => q.where(sql<SqlBool>`(r.created_at, r.id) <= (${first!.created_at}, ${first!.id})`))
      .limit(page.limit)
      .execute();
    return { rows, totalCount, hasNextPage: page.offset + page.limit < totalCount };
  }

  /**
   * PostgreSQL, any length: first the newest rows (the window walk, as SQLite's), which fills a page
   * of a common term at once; then the survey's rows in the gram index when they are few, so a term
   * rare here (short, digits, or common only in other surveys) costs a few index pages; then the
   * LIKE walk unbounded, for which PostgreSQL picks its pg_trgm index when the term is rare.
   */
  private async listPostgres(scope: RowScope, term: string, page: Page, after: Key | null): Promise<ResponsePage> {
    const walked = await this.windowWalk(scope, term, page, after);
    if (walked) return walked;
    const { rows } = await sql<{ id: string }>`select id from responses
      where response_grams(survey_id, search_text) @> ${pgGramCodes(scope.surveyId, term)}::int8[] limit ${this.tuning.gramHits + 1}`.execute(this.k);
    if (rows.length <= this.tuning.gramHits) return this.listAmong(scope, term, sql<SqlBool>`r.id = any(${rows.map((r) => r.id)}::text[])`, page, after);
    return this.listMatching(scope, term, page, null, after, [...term].length >= 3);
  }

  /**
   * The walk over the survey's newest rows (tuning.scanWindow plus 20 for every row up to the
   * page's end): the page when the window fills it, or the whole walk when the survey is smaller
   * than the window; null when the caller needs an exact plan.
   */
  private async windowWalk(scope: RowScope, term: string, page: Page, after: Key | null): Promise<ResponsePage | null> {
    const skipped = after ? 0 : page.offset;
    const within = await this.windowStart(scope, this.tuning.scanWindow + page.limit * (skipped + page.limit + 1), after);
    const found = await this.listMatching(scope, term, page, within, after);
    return !within || found.hasNextPage ? found : null;
  }

  /** Candidate rows (index hits, any survey), narrowed to the scope, re-checked and sorted. */
  private async listAmong(scope: RowScope, term: string, candidates: RawBuilder<SqlBool>, page: Page, after: Key | null): Promise<ResponsePage> {
    const keys = await this.k
      .selectFrom('responses as r')
      .select(['r.id', 'r.created_at'])
      .where(candidates)
      .where((eb) => this.inScope(eb, scope))
      .where((eb) => this.matches(eb, term))
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .execute();
    // Every match's key is at hand, so the cursor's place among them is found here.
    const start = after ? keys.findIndex((k) => newerFirst(k, after) > 0) : page.offset;
    const from = start < 0 ? keys.length : start;
    const ids = keys.slice(from, from + page.limit).map((k) => k.id);
    const rows = ids.length === 0 ? [] : await this.rows(scope).where('r.id', 'in', ids).execute();
    return { rows, totalCount: keys.length, hasNextPage: from + page.limit < keys.length };
  }

  /**
   * Walks the scope newest first testing search_text; with `within`, only rows at or after that
   * key; with `after`, only rows past it. The count stops at tuning.countCap (and is never less
   * than what the pages prove).
   */
  private async listMatching(scope: RowScope, term: string, page: Page, within: Key | null, after: Key | null, trigrams = false): Promise<ResponsePage> {
    const windowed = (eb: Eb) => (within ? eb.and([this.matches(eb, term, trigrams), sql<SqlBool>`(r.created_at, r.id) >= (${within.created_at}, ${within.id})`]) : this.matches(eb, term, trigrams));
    const rows = await this.rows(scope)
      .where((eb) => windowed(eb as unknown as Eb))
      .$if(after !== null, (q) => q.where(before(after!)))
      .limit(page.limit + 1)
      .offset(after ? 0 : page.offset)
      .execute();
    const hasNextPage = rows.length > page.limit;
    // A window that does not fill the page is set aside by both callers for an exact plan: no count.
    if (within && !hasNextPage) return { rows, totalCount: rows.length, hasNextPage };
    const counted = await this.k
      .selectFrom((eb) => eb.selectFrom('responses as r').select('r.id').where((e) => this.inScope(e, scope)).where(windowed).limit(this.tuning.countCap).as('hits'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const shown = rows.slice(0, page.limit);
    const proven = shown.length > 0 ? page.offset + shown.length + (hasNextPage ? 1 : 0) : 0;
    return { rows: shown, totalCount: Math.max(Number(counted.n), proven), hasNextPage };
  }

  /** The key of the `size`-th newest response in scope (past `after`; index-only), or null when there are fewer. */
  private async windowStart(scope: RowScope, size: number, after: Key | null): Promise<Key | null> {
    const row = await this.k
      .selectFrom('responses as r')
      .select(['r.created_at', 'r.id'])
      .where((eb) => this.inScope(eb, scope))
      .$if(after !== null, (q) => q.where(before(after!)))
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(1)
      .offset(size - 1)
      .executeTakeFirst();
    return row ?? null;
  }

  /**
   * Whether a term whose probe filled up still has at most tuning.rareTermHits hits, assuming its
   * hits spread evenly over the rowids: the index gives hits in rowid order, so the probe covered
   * rowids up to its highest one. A wrong guess only costs time; every plan gives the same rows.
   */
  private async likelyRare(probe: number[]): Promise<boolean> {
    const { rows } = await sql<{ top: number | null }>`select max(rowid) as top from responses`.execute(this.k);
    const reached = Math.max(...probe);
    return (probe.length * Number(rows[0]?.top ?? reached)) / reached <= this.tuning.rareTermHits;
  }

  private async gramHits(surveyId: string, term: string, limit: number): Promise<number[]> {
    const { rows } = await sql<{ rowid: number }>`${gramMatches(surveyId, term)} limit ${limit}`.execute(this.k);
    return rows.map((r) => r.rowid);
  }

  private async trigramHits(term: string, limit: number): Promise<number[]> {
    const { rows } = await sql<{ rowid: number }>`${trigramMatches(term)} limit ${limit}`.execute(this.k);
    return rows.map((r) => r.rowid);
  }

  /** Responses in scope with their member row, newest first. */
  private rows(scope: RowScope) {
    return this.k
      .selectFrom('responses as r')
      .innerJoin('members as m', 'm.id', 'r.member_id')
      .select(['r.id', 'r.survey_id', 'r.organization_id', 'r.answers', 'r.created_at', 'r.captured_at', 'r.version', 'r.status', 'r.encrypted', 'm.full_name', 'm.email'])
      .where((eb) => this.inScope(eb as unknown as Eb, scope))
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc');
  }

  private fieldUsers(scope: RowScope) {
    return this.k
      .selectFrom('members as m')
      .where('m.survey_id', '=', scope.surveyId)
      .where('m.role', '=', Role.fieldUser)
      .$if(scope.supervisorMemberId !== null, (q) => q.where('m.supervisor_id', '=', scope.supervisorMemberId!));
  }

  private inScope(eb: Eb, scope: RowScope): Expression<SqlBool> {
    let survey = scope.status ? eb.and([eb('r.survey_id', '=', scope.surveyId), eb('r.status', '=', scope.status)]) : eb('r.survey_id', '=', scope.surveyId);
    if (scope.flagged !== undefined) {
      const open = eb.exists(eb.selectFrom('response_flags as f').select('f.response_id').whereRef('f.response_id', '=', 'r.id').where('f.dismissed_at', 'is', null));
      survey = eb.and([survey, scope.flagged ? open : eb.not(open)]);
    }
    if (scope.supervisorMemberId === null) return survey;
    const theirs = eb
      .selectFrom('members as fu')
      .select('fu.id')
      .where('fu.survey_id', '=', scope.surveyId)
      .where('fu.role', '=', Role.fieldUser)
      .where('fu.supervisor_id', '=', scope.supervisorMemberId);
    // PostgreSQL guesses `in (subquery)` yields one member and reads each member's rows whole to sort them
    // (the supervisor's page 1: 400-800 ms at 100k); as an array it walks the survey's index newest first.
    if (this.db.engine === 'postgres') return eb.and([survey, sql<SqlBool>`${eb.ref('r.member_id')} = any(array(${theirs}))`]);
    return eb.and([survey, eb('r.member_id', 'in', theirs)]);
  }

  /**
   * search_text is lower-cased at ingest; the term is matched literally ('%' and '_' included).
   * PostgreSQL: LIKE only where its pg_trgm index may serve the walk (`trigrams`); elsewhere strpos,
   * which no index serves, so the planner walks the survey's newest rows as asked: with LIKE it
   * read pg_trgm's 683,698 hits for '#4' (the trigram of a lone '4') to find 4 rows in a window.
   */
  private matches(eb: Eb, term: string, trigrams = false): Expression<SqlBool> {
    if (term === '') return sql<SqlBool>`1 = 1`;
    if (this.db.engine === 'sqlite') return sql<SqlBool>`instr(${eb.ref('r.search_text')}, ${term}) > 0`;
    if (!trigrams) return sql<SqlBool>`strpos(${eb.ref('r.search_text')}, ${term}) > 0`;
    return sql<SqlBool>`${eb.ref('r.search_text')} like ${likePattern(term)} escape '\\'`;
  }
}

/**
 * Rowids whose search_text contains the term: the trigram index, plus the few rows stored since the
 * indexer's last batch (search-indexer.ts), scanned directly so a new response is found at once.
 */
function trigramMatches(term: string): RawBuilder<unknown> {
  return sql`select rowid from responses_fts where responses_fts match ${phrase(term)}
    union all select rowid from responses where rowid > (select last_rowid from search_index_state where id = 1) and instr(search_text, ${term}) > 0`;
}

/** Rows past `key` in the newest-first order. */
function before(key: Key) {
  return sql<SqlBool>`(r.created_at, r.id) < (${key.created_at}, ${key.id})`;
}

/** Positive when `a` comes after `b` in the newest-first order. */
function newerFirst(a: Key, b: Key): number {
  return Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * Rowids of the survey's rows that may contain the term by the gram index (search-grams.ts), plus
 * those it has not indexed yet: rows above its mark (scanned) and rows whose text changed since.
 * `+survey_id` keeps SQLite on the rowid range: by the survey's index it read all its rows.
 */
function gramMatches(surveyId: string, term: string): RawBuilder<unknown> {
  return sql`select rowid from responses_grams where responses_grams match ${gramQuery(surveyId, term)}
    union all select rowid from search_grams_stale
    union all select rowid from responses where rowid > (select grams_rowid from search_index_state where id = 1) and +survey_id = ${surveyId} and instr(search_text, ${term}) > 0`;
}

function inRowids(rowids: RawBuilder<unknown>): RawBuilder<SqlBool> {
  return sql<SqlBool>`r.rowid in (${rowids})`;
}

function rowidList(rowids: number[]): RawBuilder<unknown> {
  return sql`select value from json_each(${JSON.stringify(rowids)})`;
}

/** An FTS5 phrase: the trigram tokenizer then matches it as a literal substring. */
function phrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}
