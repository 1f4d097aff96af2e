import { MapLimits } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { forgetBasemap, keptBasemaps } from '../../offline/maps';
import { formatBytes } from '../sync/use-sync';
import { useT } from '../../lib/i18n';

/** Settings' line: the maps kept on this phone, their size against the cap, and a way to free the space. */
export function KeptMapsSetting() {
  const t = useT();
  const [kept, setKept] = useState<{ path: string; bytes: number }[] | null>(null);
  useEffect(() => {
    void keptBasemaps().then(setKept, () => setKept([]));
  }, []);
  if (kept === null) return <>{t('settings.mapsChecking')}</>;
  const bytes = kept.reduce((sum, k) => sum + k.bytes, 0);
  if (kept.length === 0) return <>{t('settings.mapsNone', { max: formatBytes(MapLimits.keptBasemapBytes), keep: t('map.keepArea') })}</>;
  const removeAll = async () => {
    for (const k of kept) await forgetBasemap(k.path);
    setKept([]);
  };
  return (
    <span className="settings__inline">
      {t('settings.mapsSize', { size: formatBytes(bytes), max: formatBytes(MapLimits.keptBasemapBytes) })}
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => void removeAll()}>{t('settings.mapsRemove')}</button>
    </span>
  );
}
