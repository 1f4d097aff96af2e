import { dismissToast, toasts } from './toast-store';
import { useStore } from './store';

const ICON = { error: '!', success: '✓', warning: '!' } as const;

/** Mounted once at the root; shows the toasts raised through `toast.*`. */
export function Toaster() {
  const list = useStore(toasts);
  return (
    <div className="toasts" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={`toast toast--${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <span className="toast__icon" aria-hidden="true">{ICON[t.kind]}</span>
          <span className="toast__text">{t.text}</span>
          <button type="button" className="toast__close" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>×</button>
        </div>
      ))}
    </div>
  );
}
