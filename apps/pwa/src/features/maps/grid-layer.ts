import L from 'leaflet';

/** Degrees between grid lines at each zoom: about four lines across a 256-pixel tile. */
export function gridStep(zoom: number): number {
  const span = 360 / 2 ** zoom;
  const steps = [45, 30, 15, 10, 5, 2, 1, 0.5, 0.25, 0.1, 0.05, 0.025, 0.01, 0.005, 0.0025, 0.001, 0.0005, 0.00025, 0.0001];
  return steps.find((s) => span / s >= 2) ?? steps[steps.length - 1]!;
}

/** A coordinate as the grid labels it: 6.45°N, 3.39°E. */
export function coordLabel(value: number, axis: 'lat' | 'lng', step: number): string {
  const digits = (String(step).split('.')[1] ?? '').length;
  const hemisphere = axis === 'lat' ? (value >= 0 ? 'N' : 'S') : value >= 0 ? 'E' : 'W';
  return `${Math.abs(value).toFixed(digits)}°${hemisphere}`;
}

/**
 * The map without any basemap: a plain grid of latitude and longitude lines, labelled, drawn on
 * canvas tiles in the browser (nothing is fetched), so points still read as places.
 */
export function gridLayer(): L.GridLayer {
  const Grid = L.GridLayer.extend({
    createTile(this: L.GridLayer, coords: L.Coords) {
      const tile = document.createElement('canvas');
      const size = this.getTileSize();
      tile.width = size.x;
      tile.height = size.y;
      const ctx = tile.getContext('2d');
      if (!ctx) return tile;
      ctx.fillStyle = '#f8fafc';
      ctx.fillRect(0, 0, size.x, size.y);
      const map = (this as unknown as { _map: L.Map })._map;
      const nw = map.unproject([coords.x * size.x, coords.y * size.y], coords.z);
      const se = map.unproject([(coords.x + 1) * size.x, (coords.y + 1) * size.y], coords.z);
      const step = gridStep(coords.z);
      ctx.strokeStyle = '#cbd5e1';
      ctx.fillStyle = '#64748b';
      ctx.font = '10px system-ui, sans-serif';
      ctx.lineWidth = 1;
      const toPoint = (lat: number, lng: number) => map.project([lat, lng], coords.z).subtract([coords.x * size.x, coords.y * size.y]);
      for (let lng = Math.ceil(nw.lng / step) * step; lng <= se.lng; lng += step) {
        const x = Math.round(toPoint(nw.lat, lng).x) + 0.5;
        ctx.beginPath();
        ctx.moveTo(x, 0);
        ctx.lineTo(x, size.y);
        ctx.stroke();
        // Labels on every other tile row and column: enough to read a place, not a wall of numbers.
        if (coords.y % 2 === 0) ctx.fillText(coordLabel(lng, 'lng', step), x + 3, size.y - 4);
      }
      for (let lat = Math.ceil(se.lat / step) * step; lat <= nw.lat; lat += step) {
        const y = Math.round(toPoint(lat, nw.lng).y) + 0.5;
        ctx.beginPath();
        ctx.moveTo(0, y);
        ctx.lineTo(size.x, y);
        ctx.stroke();
        if (coords.x % 2 === 0) ctx.fillText(coordLabel(lat, 'lat', step), 3, y - 3);
      }
      return tile;
    },
  });
  return new (Grid as unknown as new (o: L.GridLayerOptions) => L.GridLayer)({ attribution: 'No basemap: grid of coordinates' });
}
