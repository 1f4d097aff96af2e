import { useEffect, useState } from 'react';
import { api } from '../../api';
import { Spinner } from '../../ui/Spinner';
import { exportFileName, formatBytes } from './cells';
import { fetchExport, saveBlob, type ExportRoute } from './download';
import { DownloadIcon } from './icons';
import type { ListFilters } from './use-insight';

/**
 * Export: the survey's responses (matching the current search and filters) as '{title}_responses.xlsx'. It
 * shows its place in line while the server's export queue holds it (asked every 2 s), then the
 * bytes received while the file streams, and ignores clicks until it is done; a failure is toasted
 * by the failure handler.
 */
export function ExportButton({ route, surveyId, title, searchQuery, filters }: { route: ExportRoute; surveyId: string; title: string; searchQuery: string; filters: ListFilters }) {
  const [busy, setBusy] = useState(false);
  const [received, setReceived] = useState(0);
  const position = useQueuePosition(busy && received === 0);

  async function run() {
    if (busy) return;
    setBusy(true);
    setReceived(0);
    try {
      const blob = await fetchExport({ route, surveyId, searchQuery, filters, onProgress: setReceived });
      saveBlob(blob, exportFileName(title));
    } catch {
      // Toasted by fetchExport's failure handler.
    } finally {
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      className="btn btn--primary btn--sm export-btn"
      onClick={() => void run()}
      disabled={busy}
      aria-busy={busy}
      title="Download the responses as an Excel file"
    >
      {busy ? <Spinner label="Exporting" /> : <DownloadIcon size={18} />}
      <span aria-live="polite">{busy ? (received > 0 ? `Exporting… ${formatBytes(received)}` : position ? `Waiting: ${ordinal(position)} in line` : 'Exporting…') : 'Export'}</span>
    </button>
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
