import { MapLimits, type MapBasemap } from '@survey-bird/contracts';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { PMTiles, leafletRasterLayer } from 'pmtiles';
import { useEffect, useRef } from 'react';
import { gridLayer } from './grid-layer';
import type { MapMarker, MapView } from './markers';

/** Nigeria: where a map with nothing on it yet opens. */
const START: [number, number] = [9.05, 7.5];
const START_ZOOM = 5;
/**
 * The closest zoom: 19 (about 0.3 m a pixel), the deepest most tile sources draw and below the map
 * route's MapLimits.maxZoom. Without it Leaflet has no limit when no tile layer sets one (the plain
 * grid), and a few wheel turns asked the route for zoom 25, which it refuses.
 */
export const MAP_MAX_ZOOM = Math.min(19, MapLimits.maxZoom);

type Drawn = L.Marker;

/** A marker's identity and look: one that is the same in the next answer is kept as it is. */
function markerKey(marker: MapMarker): string {
  return [marker.id, marker.lat, marker.lng, marker.colour, marker.count ?? '', marker.grey ? 1 : 0, marker.title].join('|');
}

/** A focusable icon: a cluster with its count, or a point with its tooltip. */
function markerLayer(marker: MapMarker, onChoose: () => void): Drawn {
  const size = marker.count ? Math.round(26 + Math.min(24, Math.log10(marker.count) * 9)) : 16;
  const html = marker.count ? `<span style="background:${marker.colour}">${marker.count.toLocaleString('en')}</span>` : `<span style="background:${marker.colour}"></span>`;
  const icon = L.divIcon({ className: marker.count ? 'map-cluster' : `map-dot${marker.grey ? ' map-dot--grey' : ''}`, html, iconSize: [size, size] });
  const item = L.marker([marker.lat, marker.lng], { icon, title: marker.title, alt: marker.title, keyboard: true, riseOnHover: true });
  item.on('click', onChoose);
  if (marker.label) item.bindTooltip(marker.label, { direction: 'top', offset: [0, -8] });
  return item;
}

/**
 * A Leaflet map: the basemap (the organization's PMTiles archive read by range requests, else
 * MAP_TILE_URL, else a plain grid of coordinates), markers as focusable icons (a cluster zooms in
 * when chosen, a point calls `onMarker`), and the view reported after every move (`onView`).
 * `fitKey`: when it changes, the view fits `bounds` (or the markers) once: the first answer of a filter.
 */
export function LeafletMap({ basemap, markers, bounds, onView, onMarker, fitKey, label, line, onTap }: {
  basemap: MapBasemap | null;
  markers: MapMarker[];
  /** [west, south, east, north] to fit when `fitKey` changes; the markers' own extent when absent. */
  bounds?: [number, number, number, number] | null;
  onView?: (view: MapView) => void;
  onMarker?: (marker: MapMarker) => void;
  fitKey?: string | null;
  label: string;
  /** A line through the markers (a geotrace), closed into an area when `closed` (a geoshape). */
  line?: { points: [number, number][]; closed: boolean } | undefined;
  /** A tap on the map, where it fell: a geotrace or geoshape question adds a point there. */
  onTap?: ((lat: number, lng: number) => void) | undefined;
}) {
  const host = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const handlers = useRef({ onView, onMarker, onTap });
  handlers.current = { onView, onMarker, onTap };
  const drawn = useRef<L.Layer | null>(null);
  const drawnMarkers = useRef(new Map<string, Drawn>());
  const fitted = useRef<string | null>(null);

  useEffect(() => {
    const m = L.map(host.current!, { center: START, zoom: START_ZOOM, worldCopyJump: false, maxBounds: [[-90, -180], [90, 180]], maxBoundsViscosity: 1, minZoom: 2, maxZoom: MAP_MAX_ZOOM });
    map.current = m;
    layer.current = L.layerGroup().addTo(m);
    const report = () => {
      const b = m.getBounds();
      const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
      const west = clamp(b.getWest(), -180, 180);
      const east = clamp(b.getEast(), -180, 180);
      const south = clamp(b.getSouth(), -90, 90);
      const north = clamp(b.getNorth(), -90, 90);
      const bbox = west < east && south < north ? [west, south, east, north].map((v) => v.toFixed(6)).join(',') : undefined;
      handlers.current.onView?.({ zoom: m.getZoom(), bbox });
    };
    m.on('moveend', report);
    m.on('click', (e: L.LeafletMouseEvent) => handlers.current.onTap?.(e.latlng.lat, e.latlng.lng));
    report();
    return () => {
      m.remove();
      map.current = null;
    };
  }, []);

  // The basemap: replaced when the organization's archive or the configured tiles change.
  const pmtilesUrl = basemap?.pmtilesUrl ?? null;
  const tileUrl = basemap?.tileUrl ?? null;
  const attribution = basemap?.attribution ?? null;
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    let base: L.Layer | null = null;
    let cancelled = false;
    if (pmtilesUrl) {
      const archive = new PMTiles(pmtilesUrl);
      void archive.getHeader().then((h) => {
        if (cancelled) return;
        base = leafletRasterLayer(archive, { maxNativeZoom: h.maxZoom, minNativeZoom: h.minZoom, attribution: attribution ?? '' }) as L.Layer;
        base.addTo(m);
      }, () => undefined);
    } else if (tileUrl) {
      base = L.tileLayer(tileUrl, { attribution: attribution ?? '', maxZoom: MAP_MAX_ZOOM }).addTo(m);
    } else {
      base = gridLayer().addTo(m);
    }
    return () => {
      cancelled = true;
      if (base) m.removeLayer(base);
    };
  }, [pmtilesUrl, tileUrl, attribution]);

  useEffect(() => {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    // A marker that stays in view across a redraw is kept: a drag's end at street zoom used to
    // clear and rebuild every DOM icon (87-412 in view), single frames up to 967 ms.
    const next = new Map<string, Drawn>();
    for (const marker of markers) {
      const key = markerKey(marker);
      // Two answers at one spot with one look draw as one marker.
      if (next.has(key)) continue;
      const kept = drawnMarkers.current.get(key);
      if (kept) {
        drawnMarkers.current.delete(key);
        next.set(key, kept);
        continue;
      }
      const item = markerLayer(marker, () => {
        if (marker.count) m.setView([marker.lat, marker.lng], Math.min(m.getZoom() + 2, 18));
        else handlers.current.onMarker?.(marker);
      });
      group.addLayer(item);
      next.set(key, item);
    }
    for (const gone of drawnMarkers.current.values()) group.removeLayer(gone);
    drawnMarkers.current = next;
    if (fitKey && fitted.current !== fitKey && (bounds || markers.length > 0)) {
      fitted.current = fitKey;
      const box = bounds ? L.latLngBounds([bounds[1], bounds[0]], [bounds[3], bounds[2]]) : L.latLngBounds(markers.map((x) => [x.lat, x.lng] as [number, number]));
      m.fitBounds(box.pad(0.15), { maxZoom: 16 });
    }
  }, [markers, bounds, fitKey]);

  const shape = line ? JSON.stringify(line) : '';
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (drawn.current) m.removeLayer(drawn.current);
    drawn.current = null;
    if (!line || line.points.length < 2) return;
    const style = { color: '#0f766e', weight: 3 };
    drawn.current = (line.closed && line.points.length >= 3 ? L.polygon(line.points, { ...style, fillOpacity: 0.15 }) : L.polyline(line.points, style)).addTo(m);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the line is compared by value (shape)
  }, [shape]);

  return <div ref={host} className="map-canvas" role="region" aria-label={label} />;
}
