import { dismissToast, toasts } from '../lib/toast-store';
import { useStore } from '../lib/store';
import { useT } from '../lib/i18n';

const ICON = { error: '!', success: '✓', warning: '!' } as const;

/** Mounted once at the root; shows the toasts raised through `toast.*`. */
export function Toaster() {
  const t = useT();
  const list = useStore(toasts);
  return (
    <div className="toasts" aria-live="polite">
      {list.map((item) => (
        <div key={item.id} className={`toast toast--${item.kind}`} role={item.kind === 'error' ? 'alert' : 'status'}>
          <span className="toast__icon" aria-hidden="true">{ICON[item.kind]}</span>
          <span className="toast__text">{item.text}</span>
          <button type="button" className="toast__close" aria-label={t('common.dismiss')} onClick={() => dismissToast(item.id)}>×</button>
        </div>
      ))}
    </div>
  );
}
