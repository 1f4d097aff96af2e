import { closedRing, formatMeasure, geoProblem, isChoiceList, parseGeoPoints, QuestionType, shapeArea, traceLength, type Answer, type GeoPoint } from '@survey-bird/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Cell } from '../insight/cells';
import { saveBlob } from '../insight/download';
import { fetchSessionFile } from './SessionPhoto';
import '../maps/maps.css';

// Leaflet comes only when a reader opens a line's or an area's map: most responses have none.
const LazyMap = lazy(() => import('../maps/LeafletMap').then((m) => ({ default: m.LeafletMap })));

/** The answer types the detail view shows as more than their stored text. */
const GEO = new Set<string>([QuestionType.geotrace, QuestionType.geoshape]);
const MEDIA = new Set<string>([QuestionType.audio, QuestionType.video, QuestionType.file]);

/** Whether `AnswerValue` has its own view of this answer (else the cell's text or link shows). */
export function hasOwnView(type: string | undefined, answer: Answer | undefined, cell: Cell): boolean {
  if (type === undefined || answer === undefined) return false;
  if (GEO.has(type)) return typeof answer === 'string' && geoProblem(answer, type === QuestionType.geoshape) === null;
  if (type === QuestionType.rank) return isChoiceList(answer) && answer.length > 0;
  return MEDIA.has(type) && cell.kind === 'link';
}

/**
 * A line, an area, a ranking or a stored file as a reader takes it in: points and length or area
 * (the phone's own measures) with a map on request and a link to OpenStreetMap; the ranking as an
 * ordered list of its choices' labels; a recording or a video in a player, and each file as a
 * download. Files load from the stored file's address, which the service worker sends with the
 * session (offline/sw-photos.ts), as the photos do; a download is that file fetched by the typed
 * client with the session and saved (an anchor's own download skips the worker: the server's 410).
 */
export function AnswerValue({ type, answer, cell, question }: { type: string; answer: Answer; cell: Cell; question: string }) {
  if (GEO.has(type)) return <GeoAnswer text={answer as string} shape={type === QuestionType.geoshape} question={question} />;
  if (type === QuestionType.rank) {
    return (
      <ol className="answer-rank" aria-label={`Ranking: ${question}`}>
        {(answer as string[]).map((label, i) => <li key={`${i}-${label}`}>{label}</li>)}
      </ol>
    );
  }
  if (cell.kind !== 'link') return null;
  return (
    <div className="answer-media">
      {(type === QuestionType.audio || type === QuestionType.video) && <Player href={cell.href} video={type === QuestionType.video} question={question} />}
      <FileDownload href={cell.href} type={type} question={question} />
    </div>
  );
}


/**
 * A recording or a video streamed from its address. A page the service worker does not control yet
 * (its first load) sends no session and gets the server's 410: the file is then fetched once by the
 * typed client and played from memory (at most the type's cap, media.ts UploadCaps).
 */
function Player({ href, video, question }: { href: string; video: boolean; question: string }) {
  const [src, setSrc] = useState(href);
  useEffect(() => () => { if (src.startsWith('blob:')) URL.revokeObjectURL(src); }, [src]);
  const fallBack = () => {
    if (src !== href) return;
    fetchSessionFile(href).then((file) => setSrc(URL.createObjectURL(file)), () => undefined);
  };
  const props = { className: 'answer-media__player', controls: true, preload: 'metadata', src, onError: fallBack };
  return video ? <video {...props} aria-label={`Video: ${question}`} /> : <audio {...props} aria-label={`Recording: ${question}`} />;
}

/** A saved file's extension by the type the server sniffed (apps/api media-sniff); `bin` for another. */
const EXTENSION: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf', 'text/plain': 'txt', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp',
  'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/mp4': 'm4a', 'audio/mpeg': 'mp3', 'audio/wav': 'wav', 'audio/amr': 'amr', 'audio/aac': 'aac',
  'video/mp4': 'mp4', 'video/webm': 'webm', 'video/3gpp': '3gp', 'video/quicktime': 'mov',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt', 'application/vnd.oasis.opendocument.spreadsheet': 'ods',
};

function FileDownload({ href, type, question }: { href: string; type: string; question: string }) {
  const [busy, setBusy] = useState(false);
  async function save() {
    setBusy(true);
    try {
      const file = await fetchSessionFile(href);
      // eslint-disable-next-line no-control-regex
      const name = question.replace(/[\u0000-\u001f\u007f\\/:*?"<>|]/g, '_').trim().slice(0, 80) || 'answer';
      saveBlob(file, `${name}.${EXTENSION[file.type.split(';')[0]!.trim()] ?? 'bin'}`);
    } catch {
      // The API client showed the reason.
    } finally {
      setBusy(false);
    }
  }
  const noun = type === QuestionType.audio ? 'recording' : type === QuestionType.video ? 'video' : 'file';
  return <button type="button" className="btn btn--ghost btn--sm" disabled={busy} onClick={() => void save()}>{busy ? 'Downloading…' : `Download ${noun}`}</button>;
}

function GeoAnswer({ text, shape, question }: { text: string; shape: boolean; question: string }) {
  const [map, setMap] = useState(false);
  const parsed = parseGeoPoints(text) as GeoPoint[];
  // An area's closing point repeats its first: not a point of its own to count.
  const points = shape && parsed.length > 3 && parsed[0]!.lat === parsed[parsed.length - 1]!.lat && parsed[0]!.lng === parsed[parsed.length - 1]!.lng ? parsed.slice(0, -1) : parsed;
  const measure = shape ? `area ${formatMeasure(shapeArea(points), true)}, perimeter ${formatMeasure(traceLength(closedRing(points)), false)}` : `length ${formatMeasure(traceLength(points), false)}`;
  const lat = points.reduce((s, p) => s + p.lat, 0) / points.length;
  const lng = points.reduce((s, p) => s + p.lng, 0) / points.length;
  const osm = `https://www.openstreetmap.org/?mlat=${lat.toFixed(6)}&mlon=${lng.toFixed(6)}#map=16/${lat.toFixed(6)}/${lng.toFixed(6)}`;
  return (
    <div className="answer-geo">
      <span className="answer-geo__summary">{points.length} points, {measure}</span>
      <span className="answer-geo__links">
        <button type="button" className="btn btn--ghost btn--sm" aria-expanded={map} onClick={() => setMap((m) => !m)}>{map ? 'Hide map' : 'Show on map'}</button>
        <a href={osm} target="_blank" rel="noopener noreferrer">Open in OpenStreetMap</a>
      </span>
      {map && (
        <div className="map-frame answer-geo__map">
          <Suspense fallback={<div className="q__loading">Loading the map…</div>}>
            <LazyMap
              basemap={null}
              markers={points.map((p, i) => ({ id: `p${i}`, lat: p.lat, lng: p.lng, colour: '#0f766e', title: `Point ${i + 1}` }))}
              line={{ points: points.map((p) => [p.lat, p.lng]), closed: shape }}
              fitKey="points"
              label={`Map of ${question}`}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
}
