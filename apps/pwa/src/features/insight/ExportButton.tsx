import { useEffect, useState } from 'react';
import type { ExportFormat } from '@survey-bird/contracts';
import { api } from '../../api';
import { Spinner } from '../../ui/Spinner';
import { exportFileName, formatBytes } from './cells';
import { fetchExport, saveBlob, type ExportRoute } from './download';
import { DownloadIcon } from './icons';
import type { ListFilters } from './use-insight';

/** The formats offered, with the file extension each downloads as (the server's content-disposition says the same). */
const FORMATS: { value: ExportFormat; label: string; extension: string }[] = [
  { value: 'xlsx', label: 'Excel (.xlsx)', extension: 'xlsx' },
  { value: 'csv', label: 'CSV', extension: 'csv' },
  { value: 'stata', label: 'Stata (.do + CSV)', extension: 'stata.zip' },
  { value: 'spss', label: 'SPSS (.sps + CSV)', extension: 'spss.zip' },
  { value: 'geojson', label: 'GeoJSON (map)', extension: 'geojson' },
  { value: 'kml', label: 'KML (Google Earth)', extension: 'kml' },
];

/**
 * Export: the survey's responses (matching the current search and filters) as '{title}_responses.xlsx'. It
 * shows its place in line while the server's export queue holds it (asked every 2 s), then the
 * bytes received while the file streams, and ignores clicks until it is done; a failure is toasted
 * by the failure handler.
 */
export function ExportButton({ route, surveyId, title, searchQuery, filters }: { route: ExportRoute; surveyId: string; title: string; searchQuery: string; filters: ListFilters }) {
  const [busy, setBusy] = useState(false);
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  const [withoutPersonal, setWithoutPersonal] = useState(false);
  const [received, setReceived] = useState(0);
  const position = useQueuePosition(busy && received === 0);

  async function run() {
    if (busy) return;
    setBusy(true);
    setReceived(0);
    try {
      const blob = await fetchExport({ route, surveyId, searchQuery, filters, format, withoutPersonal, onProgress: setReceived });
      // A CSV of a survey with repeats comes as a zip of one CSV per table (the server says so by its type).
      const extension = format === 'csv' && blob.type === 'application/zip' ? 'csv.zip' : FORMATS.find((f) => f.value === format)?.extension;
      saveBlob(blob, exportFileName(title, extension));
    } catch {
      // Toasted by fetchExport's failure handler.
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="export-group">
      <select className="responses__status-filter export-format" aria-label="Export format" value={format} disabled={busy} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
        {FORMATS.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
      </select>
      <label className="export-personal" title="Personal answers (names, phone numbers, photos, locations) read &quot;hidden: personal&quot;">
        <input type="checkbox" checked={withoutPersonal} disabled={busy} onChange={(e) => setWithoutPersonal(e.target.checked)} /> Without personal data
      </label>
      <button
        type="button"
        className="btn btn--primary btn--sm export-btn"
        onClick={() => void run()}
        disabled={busy}
        aria-busy={busy}
        title="Download the responses in the chosen format"
      >
        {busy ? <Spinner label="Exporting" /> : <DownloadIcon size={18} />}
        <span aria-live="polite">{busy ? (received > 0 ? `Exporting… ${formatBytes(received)}` : position ? `Waiting: ${ordinal(position)} in line` : 'Exporting…') : 'Export'}</span>
      </button>
    </span>
  );
}

/** The caller's place in the export queue while `waiting`, or null when running or unknown. */
function useQueuePosition(waiting: boolean): number | null {
  const [position, setPosition] = useState<number | null>(null);
  useEffect(() => {
    if (!waiting) {
      setPosition(null);
      return;
    }
    const controller = new AbortController();
    const ask = () =>
      api
        .call('exportQueue', { signal: controller.signal, handleErrors: false })
        .then((place) => setPosition(place.state === 'waiting' ? place.position : null))
        .catch(() => undefined);
    const timer = setInterval(() => void ask(), 2000);
    void ask();
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [waiting]);
  return position;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}
