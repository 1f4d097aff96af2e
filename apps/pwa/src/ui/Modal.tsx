import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from '../lib/i18n';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** 'alert' for confirmations that need an answer. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
}

/** A native <dialog> shown modally: focus trapping, Escape and the backdrop come from the browser. */
export function Modal({ open, title, onClose, children, role = 'dialog', className = '' }: ModalProps) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal?.();
    if (!open && el.open) el.close?.();
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={`modal ${className}`}
      role={role}
      aria-labelledby={titleId}
      onCancel={(e) => {
        // A file input's cancel event (its chooser dismissed, or the same file chosen again) bubbles: only the dialog's own (Escape) closes it.
        if (e.target !== e.currentTarget) return;
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="modal__panel">
        <div className="modal__head">
          <h2 id={titleId} className="modal__title">{title}</h2>
          <button type="button" className="icon-btn" aria-label={t('common.close')} onClick={onClose}>×</button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
