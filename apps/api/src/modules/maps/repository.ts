import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { Role, type Bbox, type ResponseStatus } from '@survey-bird/contracts';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** Whose responses a caller may see on a map: the responses table's scope, or a field user's own. */
export interface MapScope {
  surveyId: string;
  /** The supervisor's member row: only their field users. */
  supervisorMemberId: string | null;
  /** A field user's own member row: only their responses. */
  ownMemberId: string | null;
  /** The caller does not see respondents' locations (an analyst): cells only, never a point (MapsService.map). */
  locationsHidden: boolean;
}

export interface MapFilter {
  status?: ResponseStatus;
  /** 'any' | 'none' | a flag name. */
  flag?: string;
  /** Epoch ms, captured at or after. */
  from?: number;
  /** Epoch ms, captured before. */
  to?: number;
  fieldUserId?: string;
  bbox?: Bbox;
}

/** [west, south, east, north]. */
export type Bounds = [number, number, number, number];

export interface GridCell {
  /** The cell's column and row, counted from -180 and -90 in cells of the asked side. */
  gx: number;
  gy: number;
  n: number;
  bounds: Bounds;
  lat: number;
  lng: number;
  id: string;
  status: string;
  fullName: string;
  capturedAt: number;
  statuses: Record<ResponseStatus, number>;
  flagged: number;
}

export interface MapPoint {
  id: string;
  lat: number;
  lng: number;
  status: string;
  fullName: string;
  capturedAt: number;
  flagged: boolean;
}

export interface LastPosition {
  memberId: string;
  fullName: string;
  position: { lat: number; lng: number; at: number; responseId: string } | null;
}

/**
 * Above this many checks in view, SQLite reads the survey's responses in stored order rather than
 * the box's checks through the index (located): a keyed lookup in random order cost about 20 µs,
 * one in stored order about 3 µs, so the walk of the whole survey wins from about a sixth of it in view.
 */
const SEQUENTIAL_ABOVE = 10_000;

type Eb = ExpressionBuilder<Database & { r: Database['responses']; c: Database['response_checks'] }, 'r' | 'c'>;

/**
 * Reads for the maps. Positions are the flag worker's `response_checks` (the location answer,
 * parsed once, with the capture time): a response shows on the map once it is checked,
 * milliseconds after it is stored. Every query starts from the survey and the caller's scope.
 */
export class MapsRepository {
  constructor(private readonly db: Db) {}

  private get k() {
    return this.db.kysely;
  }

  /** The member row of a field user invited to (and not withdrawn from) the survey. */
  async ownMember(surveyId: string, userId: string): Promise<string | undefined> {
    const row = await this.k.selectFrom('members').select('id').where('survey_id', '=', surveyId).where('user_id', '=', userId).where('role', '=', Role.fieldUser).where('withdrawn_at', 'is', null).executeTakeFirst();
    return row?.id;
  }

  async surveyOrganization(surveyId: string): Promise<{ organizationId: string; staleSyncDays: number } | undefined> {
    const row = await this.k.selectFrom('surveys as v').innerJoin('organizations as o', 'o.id', 'v.organization_id').select(['o.id', 'o.stale_sync_days']).where('v.id', '=', surveyId).executeTakeFirst();
    return row && { organizationId: row.id, staleSyncDays: Number(row.stale_sync_days) };
  }

  /**
   * Responses with a position. Two plans (SQLite): by default the survey's checks in the box, from
   * the index response_checks_survey_position alone, each joined to its response by key; with
   * `sequential`, the survey's responses in stored order, each joined to its check (the index kept
   * out of reach with a unary +). Keyed lookups in longitude order land on random pages: 100,000 of
   * them took 1,950 ms where the stored order took 256 ms; for a few thousand the index wins.
   */
  private located(scope: MapScope, filter: MapFilter, sequential = false) {
    return this.k
      .selectFrom('response_checks as c')
      .innerJoin('responses as r', 'r.id', 'c.response_id')
      .where('r.survey_id', '=', scope.surveyId)
      .where((eb) => this.matching(eb as unknown as Eb, scope, filter, sequential));
  }

  /** How many checks of the survey lie in the box and dates: an upper bound of the matches, from the index alone. */
  async inView(surveyId: string, filter: MapFilter): Promise<number> {
    const b = filter.bbox;
    const row = await this.k
      .selectFrom('response_checks as c')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('c.survey_id', '=', surveyId)
      .where('c.lat', 'is not', null)
      .$if(b !== undefined, (q) => q.where('c.lng', '>=', b!.west).where('c.lng', '<=', b!.east).where('c.lat', '>=', b!.south).where('c.lat', '<=', b!.north))
      .$if(filter.from !== undefined, (q) => q.where('c.captured_at', '>=', filter.from!))
      .$if(filter.to !== undefined, (q) => q.where('c.captured_at', '<', filter.to!))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The survey's responses with an open flag (of one kind, if given), as a set the engine builds
   * once per query: a correlated EXISTS per row cost 30 µs a row at 100,000 rows (3.8 s a map).
   */
  private openFlagged(eb: Eb, surveyId: string, flag?: string) {
    return eb
      .selectFrom('response_flags as f')
      .select('f.response_id')
      .where('f.survey_id', '=', surveyId)
      .where('f.dismissed_at', 'is', null)
      .$if(flag !== undefined, (q) => q.where('f.flag', '=', flag!));
  }

  private matching(eb: Eb, scope: MapScope, filter: MapFilter, sequential: boolean): Expression<SqlBool> {
    const survey = sequential ? sql<SqlBool>`+${eb.ref('c.survey_id')} = ${scope.surveyId}` : eb('c.survey_id', '=', scope.surveyId);
    const all: Expression<SqlBool>[] = [survey, eb('c.lat', 'is not', null)];
    if (scope.ownMemberId !== null) all.push(eb('r.member_id', '=', scope.ownMemberId));
    if (scope.supervisorMemberId !== null) {
      const theirs = eb.selectFrom('members as fu').select('fu.id').where('fu.survey_id', '=', scope.surveyId).where('fu.role', '=', Role.fieldUser).where('fu.supervisor_id', '=', scope.supervisorMemberId);
      all.push(this.db.engine === 'postgres' ? sql<SqlBool>`${eb.ref('r.member_id')} = any(array(${theirs}))` : eb('r.member_id', 'in', theirs));
    }
    if (filter.status) all.push(eb('r.status', '=', filter.status));
    if (filter.fieldUserId) all.push(eb('r.member_id', '=', filter.fieldUserId));
    if (filter.from !== undefined) all.push(eb('c.captured_at', '>=', filter.from));
    if (filter.to !== undefined) all.push(eb('c.captured_at', '<', filter.to));
    if (filter.bbox) {
      const b = filter.bbox;
      all.push(eb('c.lng', '>=', b.west), eb('c.lng', '<=', b.east), eb('c.lat', '>=', b.south), eb('c.lat', '<=', b.north));
    }
    if (filter.flag === 'any') all.push(eb('r.id', 'in', this.openFlagged(eb, scope.surveyId)));
    else if (filter.flag === 'none') all.push(eb('r.id', 'not in', this.openFlagged(eb, scope.surveyId)));
    else if (filter.flag) all.push(eb('r.id', 'in', this.openFlagged(eb, scope.surveyId, filter.flag)));
    return eb.and(all);
  }

  private flaggedCase(eb: Eb, surveyId: string) {
    return sql<number>`case when ${eb('r.id', 'in', this.openFlagged(eb, surveyId))} then 1 else 0 end`;
  }

  /** The field users' names of these responses (the few single points of a clustered answer). */
  private async names(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.k.selectFrom('responses as r').innerJoin('members as m', 'm.id', 'r.member_id').select(['r.id', 'm.full_name']).where('r.id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.full_name]));
  }

  /**
   * The matching responses grouped by a grid of `cell`-degree squares: one row per occupied cell.
   * Cells are counted from -180/-90, so the floor is of a non-negative number (SQLite's cast
   * truncates, which is the floor there; PostgreSQL's rounds, so it takes floor()).
   */
  async grid(scope: MapScope, filter: MapFilter, cell: number): Promise<GridCell[]> {
    const sequential = this.db.engine === 'sqlite' && (await this.inView(scope.surveyId, filter)) > SEQUENTIAL_ABOVE;
    const floor = (e: Expression<unknown>) => (this.db.engine === 'sqlite' ? sql<number>`cast(${e} as integer)` : sql<number>`floor(${e})`);
    const gx = floor(sql`(c.lng + 180) / ${cell}`);
    const gy = floor(sql`(c.lat + 90) / ${cell}`);
    const statusCount = (s: ResponseStatus) => sql<number>`sum(case when r.status = ${s} then 1 else 0 end)`;
    const rows = await this.located(scope, filter, sequential)
      .select((eb) => [
        gx.as('gx'),
        gy.as('gy'),
        eb.fn.countAll<number>().as('n'),
        eb.fn.avg<number>('c.lat').as('lat'),
        eb.fn.avg<number>('c.lng').as('lng'),
        eb.fn.min<number>('c.lng').as('west'),
        eb.fn.min<number>('c.lat').as('south'),
        eb.fn.max<number>('c.lng').as('east'),
        eb.fn.max<number>('c.lat').as('north'),
        eb.fn.min('r.id').as('id'),
        eb.fn.min('r.status').as('status'),
        eb.fn.max('c.captured_at').as('captured_at'),
        statusCount('approved').as('approved'),
        statusCount('pending').as('pending'),
        statusCount('returned').as('returned'),
        statusCount('rejected').as('rejected'),
        sql<number>`sum(${this.flaggedCase(eb as unknown as Eb, scope.surveyId)})`.as('flagged'),
      ])
      .groupBy([sql`1`, sql`2`])
      .execute();
    const names = await this.names(rows.filter((r) => Number(r.n) === 1).map((r) => r.id));
    return rows.map((r) => ({
      gx: Number(r.gx),
      gy: Number(r.gy),
      n: Number(r.n),
      bounds: [Number(r.west), Number(r.south), Number(r.east), Number(r.north)],
      lat: Number(r.lat),
      lng: Number(r.lng),
      id: r.id,
      status: r.status,
      fullName: names.get(r.id) ?? '',
      capturedAt: Number(r.captured_at),
      statuses: { approved: Number(r.approved), pending: Number(r.pending), returned: Number(r.returned), rejected: Number(r.rejected) },
      flagged: Number(r.flagged),
    }));
  }

  /** Up to `limit` matching responses, newest capture first, and how many match in all. */
  async points(scope: MapScope, filter: MapFilter, limit: number): Promise<{ points: MapPoint[]; total: number; bounds: Bounds | null }> {
    const [rows, count] = await Promise.all([
      this.located(scope, filter)
        .innerJoin('members as m', 'm.id', 'r.member_id')
        .select((eb) => ['r.id', 'c.lat', 'c.lng', 'r.status', 'm.full_name', 'c.captured_at', this.flaggedCase(eb as unknown as Eb, scope.surveyId).as('flagged')])
        .orderBy('c.captured_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(limit)
        .execute(),
      this.located(scope, filter)
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<number>('c.lng').as('west'), eb.fn.min<number>('c.lat').as('south'), eb.fn.max<number>('c.lng').as('east'), eb.fn.max<number>('c.lat').as('north')])
        .executeTakeFirstOrThrow(),
    ]);
    return {
      bounds: Number(count.n) > 0 ? [Number(count.west), Number(count.south), Number(count.east), Number(count.north)] : null,
      points: rows.map((r) => ({ id: r.id, lat: Number(r.lat), lng: Number(r.lng), status: r.status, fullName: r.full_name, capturedAt: Number(r.captured_at), flagged: Number(r.flagged) === 1 })),
      total: Number(count.n),
    };
  }

  /**
   * A page of the field users in scope (by name) with the position of their latest located
   * response to this survey: one index probe each (response_checks_user_captured).
   */
  async lastPositions(scope: Omit<MapScope, 'ownMemberId'>, offset: number, limit: number): Promise<{ rows: LastPosition[]; total: number }> {
    const members = this.k
      .selectFrom('members as m')
      .where('m.survey_id', '=', scope.surveyId)
      .where('m.role', '=', Role.fieldUser)
      .where('m.withdrawn_at', 'is', null)
      .$if(scope.supervisorMemberId !== null, (q) => q.where('m.supervisor_id', '=', scope.supervisorMemberId!));
    const [page, count] = await Promise.all([
      members
        .select((eb) => [
          'm.id',
          'm.full_name',
          eb
            .selectFrom('response_checks as c')
            .select('c.response_id')
            .whereRef('c.user_id', '=', 'm.user_id')
            .where('c.survey_id', '=', scope.surveyId)
            .where('c.lat', 'is not', null)
            .orderBy('c.captured_at', 'desc')
            .limit(1)
            .as('response_id'),
        ])
        .orderBy('m.full_name')
        .orderBy('m.id')
        .limit(limit)
        .offset(offset)
        .execute(),
      members.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const ids = page.flatMap((p) => (p.response_id ? [p.response_id] : []));
    const checks = ids.length === 0 ? [] : await this.k.selectFrom('response_checks').select(['response_id', 'lat', 'lng', 'captured_at']).where('response_id', 'in', ids).execute();
    const byId = new Map(checks.map((c) => [c.response_id, c]));
    return {
      rows: page.map((p) => {
        const c = p.response_id ? byId.get(p.response_id) : undefined;
        return { memberId: p.id, fullName: p.full_name, position: c && c.lat !== null && c.lng !== null ? { lat: Number(c.lat), lng: Number(c.lng), at: Number(c.captured_at), responseId: c.response_id } : null };
      }),
      total: Number(count.n),
    };
  }
}
