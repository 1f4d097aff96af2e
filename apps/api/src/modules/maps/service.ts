import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiMsg, MapLimits, Role, routes, type MapBasemap, type MapFeature, type MapReply, type ResponseStatus, type TeamMapReply } from '@survey-bird/contracts';
import { notFound } from '../../http/errors.js';
import type { FieldUserActor, OfficeActor, SupervisorActor } from '../../plugins/auth.js';
import type { FileStores } from '../files/store/index.js';
import { BasemapBytes, type StoredBasemap } from './basemap-store.js';
import { BasemapsRepository } from './basemaps-repository.js';
import { hidesPersonal } from '../privacy/personal-keys.js';
import { MapsRepository, type GridCell, type MapFilter, type MapScope } from './repository.js';

const DAY_MS = 86_400_000;
const basemapUrl = (id: string) => routes.getBasemap.path.replace(':id', id);

export interface MapQueryParsed {
  status?: ResponseStatus;
  flag?: string;
  from?: string;
  to?: string;
  fieldUserId?: string;
  bbox?: { west: number; south: number; east: number; north: number };
  zoom: number;
}

/**
 * The side of a cluster cell in degrees: MapLimits.clusterCellPx screen pixels at `zoom` (a
 * 256-pixel tile spans 360 / 2^zoom degrees), widened so the bbox holds at most
 * MapLimits.maxCells cells (a whole-world box at street zoom would otherwise group into millions).
 */
export function cellDegrees(zoom: number, bbox: MapQueryParsed['bbox']): number {
  const cell = (360 / 2 ** zoom) * (MapLimits.clusterCellPx / 256);
  const width = bbox ? bbox.east - bbox.west : 360;
  const height = bbox ? bbox.north - bbox.south : 180;
  return Math.max(cell, Math.sqrt((width * height) / MapLimits.maxCells));
}

/**
 * The cell side for a reader kept from respondents' locations: MapLimits.hiddenCellDegrees times
 * the least power of two that is at least `wanted`, so every cell at every zoom is a union of whole
 * base cells and overlaying two views never narrows a response below a base cell.
 */
export function hiddenCellDegrees(wanted: number): number {
  const base = MapLimits.hiddenCellDegrees;
  return wanted <= base ? base : base * 2 ** Math.ceil(Math.log2(wanted / base));
}

/** The box widened outward to whole base cells: a narrow box cannot count the responses of part of a cell. */
export function wholeCells(bbox: NonNullable<MapQueryParsed['bbox']>): NonNullable<MapQueryParsed['bbox']> {
  const base = MapLimits.hiddenCellDegrees;
  const down = (v: number, origin: number) => origin + Math.floor((v - origin) / base) * base;
  const up = (v: number, origin: number) => origin + Math.ceil((v - origin) / base) * base;
  return { west: Math.max(-180, down(bbox.west, -180)), south: Math.max(-90, down(bbox.south, -90)), east: Math.min(180, up(bbox.east, -180)), north: Math.min(90, up(bbox.north, -90)) };
}

/**
 * The centre of the base cell (MapLimits.hiddenCellDegrees, the grid of wholeCells) holding a point:
 * where a reader kept from respondents' locations sees a field user whose last position is a response's.
 */
export function baseCellCentre(lat: number, lng: number): { lat: number; lng: number } {
  const base = MapLimits.hiddenCellDegrees;
  const centre = (v: number, origin: number) => Number((origin + (Math.floor((v - origin) / base) + 0.5) * base).toFixed(6));
  return { lat: centre(lat, -90), lng: centre(lng, -180) };
}

export class MapsService {
  private readonly repo: MapsRepository;
  private readonly basemaps: BasemapsRepository;
  readonly bytes: BasemapBytes;

  constructor(
    private readonly app: FastifyInstance,
    stores: FileStores,
  ) {
    this.repo = new MapsRepository(app.db);
    this.basemaps = new BasemapsRepository(app.db.kysely);
    this.bytes = new BasemapBytes(app.db, app.config.dataDir, stores);
  }

  /** The caller's scope on a survey, by role; a survey they have no business with is 404 alike. */
  async scope(actor: OfficeActor | SupervisorActor | FieldUserActor, surveyId: string): Promise<MapScope> {
    const { insight } = this.app.services;
    if (actor.role === Role.organization || actor.role === Role.supervisor) {
      const { scope } = await insight.survey(actor, surveyId);
      return { surveyId: scope.surveyId, supervisorMemberId: scope.supervisorMemberId, ownMemberId: null, locationsHidden: hidesPersonal(actor) };
    }
    const own = await this.repo.ownMember(surveyId, actor.userId);
    if (!own) throw notFound(ApiMsg.surveyNotFound);
    return { surveyId, supervisorMemberId: null, ownMemberId: own, locationsHidden: false };
  }

  async map(scope: MapScope, q: MapQueryParsed): Promise<MapReply> {
    const filter: MapFilter = {
      status: q.status,
      flag: q.flag,
      from: q.from ? Date.parse(q.from) : undefined,
      to: q.to ? Date.parse(q.to) : undefined,
      fieldUserId: q.fieldUserId,
      bbox: q.bbox,
    };
    const basemap = await this.basemapOfSurvey(scope.surveyId);
    if (scope.locationsHidden) return this.cellsMap(scope, filter, q, basemap);
    const pointOf = (p: { id: string; lat: number; lng: number; status: string; flagged: boolean; fullName: string; capturedAt: number }): MapFeature => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [p.lng, p.lat] },
      properties: { kind: 'response', id: p.id, status: p.status as ResponseStatus, flagged: p.flagged, fieldUser: p.fullName, capturedAt: new Date(p.capturedAt).toISOString() },
    });
    if (q.zoom >= MapLimits.pointsZoom) {
      const { points, total, bounds } = await this.repo.points(scope, filter, MapLimits.maxPoints);
      return { type: 'FeatureCollection', features: points.map(pointOf), clustered: false, total, truncated: total > points.length, cellDegrees: 0, bounds, basemap, locationsHidden: false };
    }
    const cell = cellDegrees(q.zoom, q.bbox);
    const cells = await this.repo.grid(scope, filter, cell);
    let total = 0;
    let bounds: [number, number, number, number] | null = null;
    const features = cells.map((c): MapFeature => {
      total += c.n;
      bounds = bounds ? [Math.min(bounds[0], c.bounds[0]), Math.min(bounds[1], c.bounds[1]), Math.max(bounds[2], c.bounds[2]), Math.max(bounds[3], c.bounds[3])] : c.bounds;
      if (c.n === 1) return pointOf({ id: c.id, lat: c.lat, lng: c.lng, status: c.status, flagged: c.flagged > 0, fullName: c.fullName, capturedAt: c.capturedAt });
      return { type: 'Feature', geometry: { type: 'Point', coordinates: [c.lng, c.lat] }, properties: { kind: 'cluster', count: c.n, statuses: c.statuses, flagged: c.flagged } };
    });
    return { type: 'FeatureCollection', features, clustered: true, total, truncated: false, cellDegrees: cell, bounds, basemap, locationsHidden: false };
  }

  /**
   * The map of a reader kept from respondents' locations (docs/decisions.md, "Personal data"): at
   * every zoom, counts per cell of hiddenCellDegrees placed at the cell's centre, the box and the
   * bounds widened to whole base cells; no response's coordinates, id or field user leave.
   */
  private async cellsMap(scope: MapScope, filter: MapFilter, q: MapQueryParsed, basemap: MapBasemap): Promise<MapReply> {
    const cell = hiddenCellDegrees(cellDegrees(q.zoom, q.bbox));
    const cells = await this.repo.grid(scope, { ...filter, bbox: filter.bbox && wholeCells(filter.bbox) }, cell);
    let total = 0;
    let extent: GridCell['bounds'] | null = null;
    const features = cells.map((c): MapFeature => {
      total += c.n;
      extent = extent ? [Math.min(extent[0], c.bounds[0]), Math.min(extent[1], c.bounds[1]), Math.max(extent[2], c.bounds[2]), Math.max(extent[3], c.bounds[3])] : c.bounds;
      const centre: [number, number] = [-180 + (c.gx + 0.5) * cell, -90 + (c.gy + 0.5) * cell];
      return { type: 'Feature', geometry: { type: 'Point', coordinates: centre }, properties: { kind: 'cluster', count: c.n, statuses: c.statuses, flagged: c.flagged } };
    });
    // What the map fits into view: the responses' extent widened to whole base cells (the finest this reader may know).
    const whole = extent === null ? null : wholeCells({ west: extent[0], south: extent[1], east: extent[2], north: extent[3] });
    const bounds: MapReply['bounds'] = whole && [whole.west, whole.south, whole.east, whole.north];
    return { type: 'FeatureCollection', features, clustered: true, total, truncated: false, cellDegrees: cell, bounds, basemap, locationsHidden: true };
  }

  async teamMap(scope: MapScope, page: number, now = Date.now()): Promise<TeamMapReply> {
    const org = await this.repo.surveyOrganization(scope.surveyId);
    if (!org) throw notFound(ApiMsg.surveyNotFound);
    const limit = MapLimits.teamPage;
    const { rows, total } = await this.repo.lastPositions(scope, (page - 1) * limit, limit);
    const staleBefore = now - org.staleSyncDays * DAY_MS;
    return {
      fieldUsers: rows.map((r) => ({
        _id: r.memberId,
        fullName: r.fullName,
        // A last position is the place of the field user's latest response: a respondent's, so cell-wide for an analyst.
        position: r.position && { ...(scope.locationsHidden ? baseCellCentre(r.position.lat, r.position.lng) : { lat: r.position.lat, lng: r.position.lng }), at: new Date(r.position.at).toISOString(), responseId: r.position.responseId },
        stale: r.position === null || r.position.at < staleBefore,
      })),
      staleSyncDays: org.staleSyncDays,
      basemap: await this.basemapOf(org.organizationId),
      page,
      totalCount: total,
      hasNextPage: page * limit < total,
      hasPreviousPage: page > 1,
    };
  }

  private async basemapOfSurvey(surveyId: string): Promise<MapBasemap> {
    const org = await this.repo.surveyOrganization(surveyId);
    return this.basemapOf(org?.organizationId ?? null);
  }

  async basemapOf(organizationId: string | null): Promise<MapBasemap> {
    const latest = organizationId ? await this.basemaps.latest(organizationId) : undefined;
    const tiles = this.app.config.mapTiles;
    return { pmtilesUrl: latest ? basemapUrl(latest.id) : null, tileUrl: tiles?.url ?? null, attribution: tiles?.attribution || null };
  }

  /** Keeps the checked archive as the organization's basemap; the one it replaces is removed. */
  async saveBasemap(organizationId: string, tempPath: string, name: string, size: number) {
    const id = randomBytes(16).toString('hex');
    const placed = await this.bytes.put(id, tempPath);
    const stored: StoredBasemap = { id, ...placed };
    const older = await this.basemaps.replace(organizationId, { id, name, size, store: placed.store, path: placed.path, created_at: Date.now() });
    for (const b of older) await this.bytes.remove(b).catch((err: unknown) => this.app.log.warn({ err, basemap: b.id }, 'a replaced basemap was not removed'));
    return { id: stored.id, url: basemapUrl(id), size, name };
  }

  async basemap(id: string): Promise<{ size: number; open(start: number, end: number): Promise<Readable | undefined> } | undefined> {
    const row = await this.basemaps.find(id);
    if (!row) return undefined;
    return { size: Number(row.size), open: (start, end) => this.bytes.read(row, start, end) };
  }
}
