import { applyUpdate, updateReady } from '../offline/service-worker';
import { useStore } from '../lib/store';
import { useT } from '../lib/i18n';

export function UpdatePrompt() {
  const ready = useStore(updateReady);
  const t = useT();
  if (!ready) return null;
  return (
    <div className="update-prompt" role="status">
      <span>{t('update.available')}</span>
      <button type="button" className="btn btn--primary btn--sm" onClick={applyUpdate}>{t('update.reload')}</button>
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => updateReady.set(false)}>{t('update.later')}</button>
    </div>
  );
}
