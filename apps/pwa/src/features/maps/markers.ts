import type { MapFeature, ResponseStatus, StatusCounts } from '@survey-bird/contracts';
import { formatResponseDate } from '../../ui/format';

/** What the map draws: a point (a response, a field user) or a cluster with its count. */
export interface MapMarker {
  id: string;
  lat: number;
  lng: number;
  colour: string;
  title: string;
  label?: string;
  count?: number;
  grey?: boolean;
}

/** The map's view after a move: what the next request asks for. */
export interface MapView {
  zoom: number;
  bbox?: string;
}

export type ColourBy = 'status' | 'flag';

export const STATUS_COLOUR: Record<ResponseStatus, string> = { approved: '#15803d', pending: '#2563eb', returned: '#d97706', rejected: '#b91c1c' };
export const FLAG_COLOUR = { flagged: '#c2410c', clean: '#0f766e' } as const;
const STATUS_WORD: Record<ResponseStatus, string> = { approved: 'Approved', pending: 'Pending', returned: 'Returned', rejected: 'Rejected' };

/** The status most of a cluster's responses have (ties: the order of STATUS_COLOUR). */
export function mainStatus(statuses: StatusCounts): ResponseStatus {
  return (Object.keys(STATUS_COLOUR) as ResponseStatus[]).reduce((best, s) => (statuses[s] > statuses[best] ? s : best), 'approved');
}

/** The reply's features as markers, coloured by review status or by open flag. */
export function markersOf(features: MapFeature[], colourBy: ColourBy, now = new Date()): MapMarker[] {
  return features.map((f) => {
    const [lng, lat] = f.geometry.coordinates;
    const p = f.properties;
    if (p.kind === 'cluster') {
      const colour = colourBy === 'flag' ? (p.flagged * 2 >= p.count ? FLAG_COLOUR.flagged : FLAG_COLOUR.clean) : STATUS_COLOUR[mainStatus(p.statuses)];
      const title = `${p.count.toLocaleString('en')} responses (${p.flagged.toLocaleString('en')} flagged): zoom in`;
      return { id: `cluster-${lat}-${lng}`, lat, lng, colour, title, count: p.count };
    }
    const colour = colourBy === 'flag' ? (p.flagged ? FLAG_COLOUR.flagged : FLAG_COLOUR.clean) : STATUS_COLOUR[p.status];
    const title = `${p.fieldUser}, ${STATUS_WORD[p.status]}${p.flagged ? ', flagged' : ''}, ${formatResponseDate(p.capturedAt, now)}`;
    return { id: p.id, lat, lng, colour, title, label: title };
  });
}
