import { MapLimits, type MapQuery, type Survey } from '@survey-bird/contracts';
import { useEffect, useMemo, useState } from 'react';
import { myMapSnapshot, saveMyMap, type MyMapSnapshot } from '../../offline/maps';
import { formatAgo } from '../../ui/format';
import { useActiveSurvey } from '../surveys/active-survey';
import { useAccount } from '../sync/use-sync';
import { KeepAreaToggle } from './KeepAreaToggle';
import { LazyMap as LeafletMap } from './LazyMap';
import { Legend } from './Legend';
import { markersOf, type MapView } from './markers';
import { useSurveyMap } from './use-map';
import './maps.css';
import { useT } from '../../lib/i18n';

const DAY_MS = 86_400_000;

/** The field user's own map: their responses with a location from the last seven days. */
export function MyMapPage() {
  const t = useT();
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <section className="map-page map-page--own">
        <h1 className="map-own__title">{t('nav.myMap')}</h1>
        <p>{loading ? t('map.loadingSurveys') : t('map.noSurvey')}</p>
      </section>
    );
  }
  return <MyMap key={survey._id} survey={survey} />;
}

function MyMap({ survey }: { survey: Survey }) {
  const t = useT();
  const account = useAccount();
  const [view, setView] = useState<MapView | null>(null);
  // Fixed for the screen's life: a new visit asks for the new seven days.
  const [from] = useState(() => new Date(Date.now() - MapLimits.ownDays * DAY_MS).toISOString());
  // The whole seven days first (fitted into view), then what is in view at each zoom.
  const [fitted, setFitted] = useState(false);
  const query = useMemo((): MapQuery | null => (view ? { zoom: view.zoom, from, ...(fitted && view.bbox ? { bbox: view.bbox } : {}) } : null), [view, from, fitted]);
  const map = useSurveyMap(survey._id, query);
  const fresh = map.answered === JSON.stringify(query);
  const whole = fresh && !query?.bbox ? map.data : null;
  useEffect(() => {
    if (!fitted && fresh) setFitted(true);
  }, [fitted, fresh]);
  // The whole seven days are kept on the phone, so the map still shows them without a signal.
  useEffect(() => {
    if (account && whole) void saveMyMap(account.key, survey._id, whole, Date.now());
  }, [account, whole, survey._id]);
  const [saved, setSaved] = useState<MyMapSnapshot | null>(null);
  const offline = map.failed && !map.data;
  useEffect(() => {
    if (account && offline) void myMapSnapshot(account.key, survey._id).then(setSaved);
  }, [account, offline, survey._id]);
  const shown = map.data ?? (offline ? saved?.reply ?? null : null);
  const markers = useMemo(() => markersOf(shown?.features ?? [], 'status'), [shown]);
  const total = shown?.total ?? 0;
  const counted = t('map.count', { count: total });
  const status = map.loading && !shown
    ? t('map.loading')
    : offline && saved
      ? t('map.offlineSaved', { counted, ago: formatAgo(new Date(saved.at).toISOString()) })
      : offline
        ? t('map.needsConnection')
        : counted;
  const pmtilesUrl = shown?.basemap.pmtilesUrl ?? null;
  return (
    <section className="map-page map-page--own">
      <h1 className="map-own__title">{t('nav.myMap')}</h1>
      <p className="map-own__sub">{t('map.sub', { survey: survey.title, days: MapLimits.ownDays })}</p>
      <div className="map-frame">
        <LeafletMap basemap={shown?.basemap ?? null} markers={markers} bounds={shown?.bounds ?? null} onView={setView} fitKey={!fitted && fresh ? 'own' : offline && saved ? 'saved' : null} label={t('map.label')} />
        <div className="map-frame__bar">
          <span role="status" aria-live="polite">{status}</span>
          <Legend colourBy="status" />
        </div>
      </div>
      {pmtilesUrl && <KeepAreaToggle path={pmtilesUrl} />}
    </section>
  );
}
