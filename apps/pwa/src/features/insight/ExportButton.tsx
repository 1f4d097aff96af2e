import { useEffect, useState } from 'react';
import type { ExportFormat } from '@survey-bird/contracts';
import { api } from '../../api';
import { Spinner } from '../../ui/Spinner';
import { exportFileName, formatBytes } from './cells';
import { fetchExport, saveBlob, type ExportRoute } from './download';
import { DownloadIcon } from './icons';
import type { ListFilters } from './use-insight';
import { msgId, useT } from '../../lib/i18n';

/** The formats offered, with the file extension each downloads as (the server's content-disposition says the same). */
const FORMATS: { value: ExportFormat; label: string; extension: string }[] = [
  { value: 'xlsx', label: 'Excel (.xlsx)', extension: 'xlsx' },
  { value: 'csv', label: 'CSV', extension: 'csv' },
  { value: 'stata', label: 'Stata (.do + CSV)', extension: 'stata.zip' },
  { value: 'spss', label: 'SPSS (.sps + CSV)', extension: 'spss.zip' },
  { value: 'geojson', label: msgId('office.export.geojson'), extension: 'geojson' },
  { value: 'kml', label: 'KML (Google Earth)', extension: 'kml' },
];

/**
 * Export: the survey's responses (matching the current search and filters) as '{title}_responses.xlsx'. It
 * shows its place in line while the server's export queue holds it (asked every 2 s), then the
 * bytes received while the file streams, and ignores clicks until it is done; a failure is toasted
 * by the failure handler.
 */
export function ExportButton({ route, surveyId, title, searchQuery, filters }: { route: ExportRoute; surveyId: string; title: string; searchQuery: string; filters: ListFilters }) {
  const t = useT();
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
      <select className="responses__status-filter export-format" aria-label={t('office.export.format')} value={format} disabled={busy} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
        {FORMATS.map((f) => <option key={f.value} value={f.value}>{f.label.startsWith('office.') ? t(f.label) : f.label}</option>)}
      </select>
      <label className="export-personal" title={t('office.export.personalHint')}>
        <input type="checkbox" checked={withoutPersonal} disabled={busy} onChange={(e) => setWithoutPersonal(e.target.checked)} /> {t('office.export.withoutPersonal')}
      </label>
      <button
        type="button"
        className="btn btn--primary btn--sm export-btn"
        onClick={() => void run()}
        disabled={busy}
        aria-busy={busy}
        title={t('office.export.title')}
      >
        {busy ? <Spinner label={t('office.export.exportingLabel')} /> : <DownloadIcon size={18} />}
        <span aria-live="polite">{busy ? (received > 0 ? t('office.export.exportingBytes', { bytes: formatBytes(received) }) : position ? t('office.export.waiting', { position }) : t('office.export.exporting')) : t('office.export.export')}</span>
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
