import { useState } from 'react';
import { Spinner } from '../../ui/Spinner';
import { exportFileName, formatBytes } from './cells';
import { fetchExport, saveBlob, type ExportRoute } from './download';
import { DownloadIcon } from './icons';

/**
 * Export: the survey's responses (matching the current search) as '{title}_responses.xlsx'. It
 * shows the bytes received while the server streams the file and ignores clicks until it is done;
 * a failure is toasted by the failure handler.
 */
export function ExportButton({ route, surveyId, title, searchQuery }: { route: ExportRoute; surveyId: string; title: string; searchQuery: string }) {
  const [busy, setBusy] = useState(false);
  const [received, setReceived] = useState(0);

  async function run() {
    if (busy) return;
    setBusy(true);
    setReceived(0);
    try {
      const blob = await fetchExport({ route, surveyId, searchQuery, onProgress: setReceived });
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
      <span aria-live="polite">{busy ? (received > 0 ? `Exporting… ${formatBytes(received)}` : 'Exporting…') : 'Export'}</span>
    </button>
  );
}
