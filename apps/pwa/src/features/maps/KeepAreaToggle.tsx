import { MapLimits } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { forgetBasemap, keepBasemap, keptBasemaps, type KeepOutcome } from '../../offline/maps';
import { formatBytes } from '../sync/use-sync';
import { t, useT } from '../../lib/i18n';

function refusal(outcome: Extract<KeepOutcome, { ok: false }>): string {
  const size = outcome.bytes ? formatBytes(outcome.bytes) : t('map.sizeUnknown');
  switch (outcome.reason) {
    case 'too-large': return t('map.tooLarge', { size, max: formatBytes(MapLimits.keptBasemapBytes) });
    case 'no-space': return t('map.noSpace', { size });
    case 'offline': return t('map.keepOffline');
    case 'unsupported': return t('map.keepUnsupported');
  }
}

/**
 * "Keep the map of my area on this phone": the organization's basemap archive downloaded whole
 * into the phone's cache, so the map draws its tiles with no signal; off removes it.
 */
export function KeepAreaToggle({ path }: { path: string }) {
  useT();
  // The kept copy's bytes; null when not kept; undefined while checking.
  const [kept, setKept] = useState<number | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');
  useEffect(() => {
    void keptBasemaps().then((list) => setKept(list.find((k) => k.path === path)?.bytes ?? null), () => setKept(null));
  }, [path]);

  const toggle = async (on: boolean) => {
    setBusy(true);
    setNote('');
    try {
      if (!on) {
        await forgetBasemap(path);
        setKept(null);
        return;
      }
      const outcome = await keepBasemap(path);
      if (outcome.ok) setKept(outcome.bytes);
      else setNote(refusal(outcome));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="map-keep">
      <label className="map-keep__toggle">
        <input type="checkbox" checked={kept != null} disabled={busy || kept === undefined} onChange={(e) => void toggle(e.target.checked)} />
        {t('map.keepArea')}
      </label>
      <span className="map-keep__note" role="status" aria-live="polite">
        {busy ? 'Downloading the map…' : kept != null ? `Kept on this phone (${formatBytes(kept)}): the map shows without a signal.` : note}
      </span>
    </div>
  );
}
