import { lazy, Suspense, type ComponentProps } from 'react';
import type { LeafletMap as LeafletMapType } from './LeafletMap';
import { useT } from '../../lib/i18n';

// Leaflet and the PMTiles reader (about 55 KB gzipped) arrive after the screen has painted, so the
// map routes keep their budgets (scripts/bench/budget.mjs) and no other route ever loads them.
const Loaded = lazy(() => import('./LeafletMap').then((m) => ({ default: m.LeafletMap })));

/** The Leaflet map, loaded on first use; its frame holds the space while it loads. */
export function LazyMap(props: ComponentProps<typeof LeafletMapType>) {
  const t = useT();
  return (
    <Suspense fallback={<div className="map-canvas map-canvas--loading" role="status">{t('map.loading')}</div>}>
      <Loaded {...props} />
    </Suspense>
  );
}
