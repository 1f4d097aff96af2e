// Geotrace and geoshape answers: ODK's text form and what the server refuses; what they measure is
// in geo.ts. Zod-free and small: the form engine (phone and server) carries it.

/** One vertex: latitude and longitude in degrees, altitude and accuracy in metres (0 when unknown). */
export interface GeoPoint {
  lat: number;
  lng: number;
  alt: number;
  acc: number;
}

/**
 * Points of a trace or shape in one answer: what fits an answer's Limits.maxAnswerLength (10,000
 * characters) at 38 characters a point at most; walked at one point per 10 m, a 2.5 km boundary.
 */
export const MAX_GEO_POINTS = 250;

export const GeoMsg = {
  point: 'Each point needs a latitude and a longitude',
  range: 'A latitude is between -90 and 90, a longitude between -180 and 180',
  tracePoints: 'A line needs at least 2 points',
  shapePoints: 'An area needs at least 3 points',
  shapeClosed: 'An area must end where it starts',
  tooMany: `At most ${MAX_GEO_POINTS} points`,
} as const;

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)$/;

/**
 * The points of `lat lng [alt [acc]]` separated by `;` (ODK Collect and Enketo write it so; a
 * trailing `;` is allowed), or the first problem. Coordinates out of range are refused.
 */
export function parseGeoPoints(text: string): GeoPoint[] | string {
  const parts = text.split(';').map((p) => p.trim());
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length > MAX_GEO_POINTS) return GeoMsg.tooMany;
  const points: GeoPoint[] = [];
  for (const part of parts) {
    const nums = part.split(/\s+/);
    if (nums.length < 2 || nums.length > 4 || !nums.every((n) => NUMBER.test(n))) return GeoMsg.point;
    const [lat, lng, alt = 0, acc = 0] = nums.map(Number) as [number, number, number?, number?];
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return GeoMsg.range;
    points.push({ lat, lng, alt, acc });
  }
  return points;
}

export const samePoint = (a: GeoPoint, b: GeoPoint) => a.lat === b.lat && a.lng === b.lng;

/** What is wrong with a geotrace (`shape` false) or geoshape answer, or null. */
export function geoProblem(text: string, shape: boolean): string | null {
  const points = parseGeoPoints(text);
  if (typeof points === 'string') return points;
  if (!shape) return points.length < 2 ? GeoMsg.tracePoints : null;
  if (points.length < 4 || new Set(points.map((p) => `${p.lat} ${p.lng}`)).size < 3) return GeoMsg.shapePoints;
  return samePoint(points[0]!, points[points.length - 1]!) ? null : GeoMsg.shapeClosed;
}

