import { z } from 'zod';
import { QUALITY_FLAGS, RESPONSE_STATUSES } from '../review-constants.js';
import { Id, IsoDate, Paging } from './common.js';
import { MapLimits } from '../map-limits.js';

export { MapLimits } from '../map-limits.js';

export const MapMsg = {
  badBbox: 'bbox must be west,south,east,north in degrees (west < east, south < north)',
  badZoom: `zoom must be a whole number from 0 to ${MapLimits.maxZoom}`,
  badRange: 'from must be before to',
  basemapMissing: 'Attach a PMTiles file (field "file")',
  basemapTooLarge: `The basemap is too large (max ${MapLimits.maxBasemapBytes / (1024 * 1024)} MB)`,
  notPmtiles: 'This file is not a PMTiles archive (version 3)',
  basemapNotFound: 'Basemap not found',
  basemapSaved: 'Basemap saved',
  rangeNotSatisfiable: 'The requested range is outside the file',
} as const;

const BBOX_PATTERN = /^-?\d{1,3}(\.\d{1,12})?,-?\d{1,2}(\.\d{1,12})?,-?\d{1,3}(\.\d{1,12})?,-?\d{1,2}(\.\d{1,12})?$/;
export type Bbox = { west: number; south: number; east: number; north: number };

/** `west,south,east,north` in degrees; a box across the antimeridian is refused (ask for two). */
export const BboxQuery = z
  .string({ error: MapMsg.badBbox })
  .regex(BBOX_PATTERN, MapMsg.badBbox)
  .transform((v, ctx): Bbox => {
    const [west, south, east, north] = v.split(',').map(Number) as [number, number, number, number];
    if (west < -180 || east > 180 || south < -90 || north > 90 || west >= east || south >= north) {
      ctx.addIssue({ code: 'custom', message: MapMsg.badBbox });
      return z.NEVER;
    }
    return { west, south, east, north };
  });

/** `any`: an open (not dismissed) flag of any kind; `none`: no open flag; else that flag open. */
export const MAP_FLAG_FILTERS = ['any', 'none', ...QUALITY_FLAGS] as const;

export const MapQuery = z
  .object({
    status: z.enum(RESPONSE_STATUSES, { error: 'status must be approved, pending, returned or rejected' }).optional(),
    flag: z.enum(MAP_FLAG_FILTERS, { error: `flag must be one of ${MAP_FLAG_FILTERS.join(', ')}` }).optional(),
    /** Captured at or after (the phone's submit time; the arrival when it sent none). */
    from: IsoDate.optional(),
    /** Captured before. */
    to: IsoDate.optional(),
    /** A field user's member id (the `_id` of the field-user lists). */
    fieldUserId: Id.optional(),
    bbox: BboxQuery.optional(),
    zoom: z.coerce.number({ error: MapMsg.badZoom }).int(MapMsg.badZoom).min(0, MapMsg.badZoom).max(MapLimits.maxZoom, MapMsg.badZoom).default(2),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), { message: MapMsg.badRange, path: ['from'] });
export type MapQuery = z.input<typeof MapQuery>;

const Point = z.object({ type: z.literal('Point'), coordinates: z.tuple([z.number(), z.number()]) });

export const StatusCounts = z.object(Object.fromEntries(RESPONSE_STATUSES.map((s) => [s, z.number().int()])) as Record<(typeof RESPONSE_STATUSES)[number], z.ZodNumber>);
export type StatusCounts = z.infer<typeof StatusCounts>;

export const MapClusterProps = z.object({
  kind: z.literal('cluster'),
  count: z.number().int(),
  /** Of the cluster's responses, how many are in each review status. */
  statuses: StatusCounts,
  /** Of the cluster's responses, how many have an open flag. */
  flagged: z.number().int(),
});
export const MapPointProps = z.object({
  kind: z.literal('response'),
  /** The response's id: the detail view's address. */
  id: z.string(),
  status: z.enum(RESPONSE_STATUSES),
  flagged: z.boolean(),
  fieldUser: z.string(),
  capturedAt: z.string(),
});
export const MapFeature = z.object({
  type: z.literal('Feature'),
  geometry: Point,
  properties: z.discriminatedUnion('kind', [MapClusterProps, MapPointProps]),
});
export type MapFeature = z.infer<typeof MapFeature>;

/** The tiles behind the points: the organization's uploaded archive, else the configured tile URL, else none (a plain grid). */
export const MapBasemap = z.object({
  /** `/api/v1/basemap/<id>`: a PMTiles archive read with range requests; null when none was uploaded. */
  pmtilesUrl: z.string().nullable(),
  /** An XYZ raster template (`{z}/{x}/{y}`) from MAP_TILE_URL; null when not configured. */
  tileUrl: z.string().nullable(),
  attribution: z.string().nullable(),
});
export type MapBasemap = z.infer<typeof MapBasemap>;

/** A GeoJSON FeatureCollection with the answer's facts as foreign members. */
export const MapReply = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(MapFeature),
  /** True when the features are grid clusters (zoom below MapLimits.pointsZoom). */
  clustered: z.boolean(),
  /** Responses matched (in the bbox, with the filters). */
  total: z.number().int(),
  /** More points matched than MapLimits.maxPoints: zoom in or narrow the filters. */
  truncated: z.boolean(),
  /** The side of a cluster cell in degrees (0 when not clustered). */
  cellDegrees: z.number(),
  /** [west, south, east, north] of every matched response (not only those shown): what a map fits into view; null when none. */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  basemap: MapBasemap,
  /**
   * True when the caller's role does not see respondents' locations (an analyst): every feature is
   * a cluster at the centre of its grid cell (MapLimits.hiddenCellDegrees or a power-of-two multiple,
   * at every zoom), and `bounds` is the union of those cells.
   */
  locationsHidden: z.boolean(),
});
export type MapReply = z.infer<typeof MapReply>;

export const TeamMapQuery = z.object({
  page: z.coerce.number({ error: 'page must be a positive whole number' }).int('page must be a positive whole number').min(1, 'page must be a positive whole number').max(1_000_000).default(1),
});

export const TeamPosition = z.object({
  /** The field user's member id. */
  _id: z.string(),
  fullName: z.string(),
  /** Their last known position: null before any response with a location. */
  position: z
    .object({
      lat: z.number(),
      lng: z.number(),
      at: z.string(),
      /** The response it came from. */
      responseId: z.string(),
    })
    .nullable(),
  /** The position is older than the organization's staleSyncDays (shown grey). */
  stale: z.boolean(),
});
export type TeamPosition = z.infer<typeof TeamPosition>;

export const TeamMapReply = z.object({ fieldUsers: z.array(TeamPosition), staleSyncDays: z.number().int(), basemap: MapBasemap, ...Paging });
export type TeamMapReply = z.infer<typeof TeamMapReply>;

export const BasemapParams = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/, MapMsg.basemapNotFound) });
export const BasemapReply = z.object({ msg: z.string(), id: z.string(), url: z.string(), size: z.number().int(), name: z.string() });
export type BasemapReply = z.infer<typeof BasemapReply>;
