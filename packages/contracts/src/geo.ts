// What lines and areas measure, and their text written back: the phone's inputs and the export.
import { geoProblem, parseGeoPoints, samePoint, type GeoPoint } from './geo-check.js';

export { GeoMsg, geoProblem, MAX_GEO_POINTS, parseGeoPoints, type GeoPoint } from './geo-check.js';

/** WGS 84's equatorial radius, as GeoJSON tools (turf) measure with. */
const EARTH_RADIUS_M = 6_378_137;

/** ODK's text of points: `lat lng alt acc` joined by `;`, 6 decimals (about 11 cm, finer than a phone's GPS). */
export function formatGeoPoints(points: readonly GeoPoint[]): string {
  const n = (x: number, digits: number) => String(Number(x.toFixed(digits)));
  return points.map((p) => `${n(p.lat, 6)} ${n(p.lng, 6)} ${n(p.alt, 1)} ${n(p.acc, 1)}`).join(';');
}

/** The ring closed: its first point repeated at the end when it is not there already. */
export function closedRing(points: readonly GeoPoint[]): GeoPoint[] {
  if (points.length === 0 || samePoint(points[0]!, points[points.length - 1]!)) return [...points];
  return [...points, points[0]!];
}

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle (haversine) length of the line through the points, in metres. */
export function traceLength(points: readonly GeoPoint[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
    total += 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
  }
  return total;
}

/**
 * The area inside a ring on the sphere, in square metres (Chamberlain and Duquette, "Some
 * algorithms for polygons on a sphere", 2007, as turf's `area` computes it): a 100 m square near the
 * equator is 10,000 m² to within 0.5%.
 */
export function shapeArea(points: readonly GeoPoint[]): number {
  const ring = closedRing(points);
  if (ring.length < 4) return 0;
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const lower = ring[i]!;
    const upper = ring[i + 1]!;
    const next = ring[(i + 2) % (ring.length - 1)]!;
    sum += (rad(next.lng) - rad(lower.lng)) * Math.sin(rad(upper.lat));
  }
  return Math.abs((sum * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** A trace's length or a shape's area of an answer's text, rounded to a tenth; undefined when the text is no valid answer. */
export function geoMeasure(text: string, shape: boolean): number | undefined {
  if (geoProblem(text, shape) !== null) return undefined;
  const points = parseGeoPoints(text) as GeoPoint[];
  return Math.round((shape ? shapeArea(points) : traceLength(points)) * 10) / 10;
}

/** `[lng, lat]` pairs as GeoJSON (RFC 7946) orders them. */
export const geoJsonCoordinates = (points: readonly GeoPoint[]): [number, number][] => points.map((p) => [p.lng, p.lat]);

/** A length in m or km, an area in m² or hectares, as the phone and the office show them. */
export function formatMeasure(value: number, area: boolean): string {
  if (area) return value >= 10_000 ? `${(value / 10_000).toLocaleString('en', { maximumFractionDigits: 2 })} ha` : `${Math.round(value).toLocaleString('en')} m²`;
  return value >= 1000 ? `${(value / 1000).toLocaleString('en', { maximumFractionDigits: 2 })} km` : `${Math.round(value).toLocaleString('en')} m`;
}
