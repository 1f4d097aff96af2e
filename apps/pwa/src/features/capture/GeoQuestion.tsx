import { closedRing, formatGeoPoints, formatMeasure, MAX_GEO_POINTS, parseGeoPoints, shapeArea, traceLength, type GeoPoint } from '@survey-bird/contracts';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import '../maps/maps.css';
import { t, useT } from '../../lib/i18n';
import './more-types.css';

// Leaflet comes only when the person opens the map: the question itself is small.
const LazyMap = lazy(() => import('../maps/LeafletMap').then((m) => ({ default: m.LeafletMap })));

/** A point walked is kept only this far from the last (metres): GPS jitter while standing is not a line. */
const WALK_STEP_M = 5;

interface Props {
  id: string;
  /** An area (geoshape) or a line (geotrace). */
  shape: boolean;
  value: string;
  readOnly: boolean;
  onAnswer: (text: string) => void;
}

const geolocation = (): Geolocation | undefined => (typeof navigator !== 'undefined' && 'geolocation' in navigator ? navigator.geolocation : undefined);

/** The points of the stored answer; an area's closing point (the first, repeated) is not one to edit. */
function pointsOf(value: string, shape: boolean): GeoPoint[] {
  if (value.trim() === '') return [];
  const parsed = parseGeoPoints(value);
  if (typeof parsed === 'string') return [];
  const last = parsed[parsed.length - 1];
  return shape && parsed.length > 3 && last && last.lat === parsed[0]!.lat && last.lng === parsed[0]!.lng ? parsed.slice(0, -1) : parsed;
}

/** The answer for these points: ODK's text, an area closed once it has three points. */
const answerOf = (points: GeoPoint[], shape: boolean): string => (points.length === 0 ? '' : formatGeoPoints(shape && points.length >= 3 ? closedRing(points) : points));

/**
 * A line (geotrace) or an area (geoshape), entered point by point: each point from the phone's GPS
 * or typed, or walked (a point every few metres while the person walks), and shown on the map on
 * request, where a tap adds a point. The length or area shows as the points come.
 */
export function GeoQuestion({ id, shape, value, readOnly, onAnswer }: Props) {
  useT();
  const points = pointsOf(value, shape);
  const latest = useRef(points);
  latest.current = points;
  const [lat, setLat] = useState('');
  const [lng, setLng] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const [walking, setWalking] = useState<number | null>(null);
  const [map, setMap] = useState(false);

  const put = (next: GeoPoint[]) => {
    if (next.length > MAX_GEO_POINTS) return setError(t('geo.atMost', { max: MAX_GEO_POINTS }));
    setError(null);
    latest.current = next;
    onAnswer(answerOf(next, shape));
  };
  const add = (p: GeoPoint) => put([...latest.current, p]);

  useEffect(() => () => { if (walking !== null) geolocation()?.clearWatch(walking); }, [walking]);

  const fromGps = () => {
    const geo = geolocation();
    if (!geo) return setError(t('msg.geolocationUnsupported'));
    setLocating(true);
    geo.getCurrentPosition(
      (pos) => {
        setLocating(false);
        add({ lat: pos.coords.latitude, lng: pos.coords.longitude, alt: pos.coords.altitude ?? 0, acc: pos.coords.accuracy });
      },
      () => {
        setLocating(false);
        setError(t('geo.noPosition'));
      },
      { enableHighAccuracy: true, timeout: 30_000, maximumAge: 0 },
    );
  };

  const walk = () => {
    const geo = geolocation();
    if (!geo) return setError(t('msg.geolocationUnsupported'));
    if (walking !== null) {
      geo.clearWatch(walking);
      return setWalking(null);
    }
    setWalking(geo.watchPosition(
      (pos) => {
        const p = { lat: pos.coords.latitude, lng: pos.coords.longitude, alt: pos.coords.altitude ?? 0, acc: pos.coords.accuracy };
        const last = latest.current[latest.current.length - 1];
        if (!last || traceLength([last, p]) >= WALK_STEP_M) add(p);
      },
      () => setError(t('geo.walkLost')),
      { enableHighAccuracy: true, maximumAge: 0 },
    ));
  };

  const typed = () => {
    const a = Number(lat.trim());
    const b = Number(lng.trim());
    if (lat.trim() === '' || lng.trim() === '' || !Number.isFinite(a) || !Number.isFinite(b)) return setError(t('geo.typeBoth'));
    if (Math.abs(a) > 90 || Math.abs(b) > 180) return setError(t('geo.outOfRange'));
    add({ lat: a, lng: b, alt: 0, acc: 0 });
    setLat('');
    setLng('');
  };

  const enough = shape ? points.length >= 3 : points.length >= 2;
  const measure = !enough ? null : shape ? t('geo.area', { area: formatMeasure(shapeArea(points), true), perimeter: formatMeasure(traceLength(closedRing(points)), false) }) : t('geo.length', { length: formatMeasure(traceLength(points), false) });

  return (
    <div className="capture geo">
      <output id={id} className={`location${points.length > 0 ? ' location--set' : ''}`} aria-live="polite">
        {points.length === 0 ? t('geo.noPoints', { min: shape ? 3 : 2 }) : `${t('geo.points', { count: points.length })} · ${measure ?? t('geo.addMore', { count: (shape ? 3 : 2) - points.length })}`}
      </output>
      {points.length > 0 && (
        <ol className="geo__points" aria-label={shape ? t('geo.pointsOfArea') : t('geo.pointsOfLine')}>
          {points.map((p, i) => (
            <li key={`${i}-${p.lat}-${p.lng}`}>
              <span>{p.lat.toFixed(6)}, {p.lng.toFixed(6)}{p.acc > 0 ? ` (±${Math.round(p.acc)} m)` : ''}</span>
              {!readOnly && <button type="button" className="btn btn--ghost geo__remove" aria-label={t('geo.removePoint', { n: i + 1 })} onClick={() => put(points.filter((_, k) => k !== i))}>{t('geo.remove')}</button>}
            </li>
          ))}
        </ol>
      )}
      {!readOnly && (
        <>
          <div className="capture__row">
            <button type="button" className="btn btn--ghost capture__btn" onClick={fromGps} disabled={locating || walking !== null}>{locating ? t('geo.locating') : t('geo.addMine')}</button>
            <button type="button" className={`btn capture__btn ${walking !== null ? 'btn--primary' : 'btn--ghost'}`} onClick={walk} aria-pressed={walking !== null}>{walking !== null ? t('geo.stopWalking') : (shape ? t('geo.walkArea') : t('geo.walkLine'))}</button>
          </div>
          <fieldset className="geo__typed">
            <legend>{t('geo.typePoint')}</legend>
            <label>{t('geo.latitude')}<input className="q__control" inputMode="decimal" value={lat} onChange={(e) => setLat(e.currentTarget.value)} placeholder="9.0765" /></label>
            <label>{t('geo.longitude')}<input className="q__control" inputMode="decimal" value={lng} onChange={(e) => setLng(e.currentTarget.value)} placeholder="7.3986" /></label>
            <button type="button" className="btn btn--ghost capture__btn" onClick={typed}>{t('geo.addPoint')}</button>
          </fieldset>
        </>
      )}
      <button type="button" className="btn btn--ghost capture__btn" aria-expanded={map} onClick={() => setMap((m) => !m)}>{map ? t('geo.hideMap') : t('geo.showMap')}</button>
      {map && (
        <div className="map-frame geo__map">
          <Suspense fallback={<div className="q__loading">{t('geo.loadingMap')}</div>}>
            <LazyMap
              basemap={null}
              markers={points.map((p, i) => ({ id: `p${i}`, lat: p.lat, lng: p.lng, colour: '#0f766e', title: t('geo.point', { n: i + 1 }) }))}
              line={{ points: points.map((p) => [p.lat, p.lng]), closed: shape }}
              fitKey={points.length > 0 ? 'points' : null}
              label={readOnly ? (shape ? t('geo.mapOfArea') : t('geo.mapOfLine')) : (shape ? t('geo.mapOfAreaTap') : t('geo.mapOfLineTap'))}
              onTap={readOnly ? undefined : (a, b) => add({ lat: a, lng: b, alt: 0, acc: 0 })}
            />
          </Suspense>
        </div>
      )}
      {error && <p className="capture__error" role="alert">{error}</p>}
    </div>
  );
}

export default GeoQuestion;
