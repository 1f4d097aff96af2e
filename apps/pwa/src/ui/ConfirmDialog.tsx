import { closeDialog, dialog } from '../lib/dialog-store';
import { Modal } from './Modal';
import { useStore } from '../lib/store';

/** Mounted once at the root; shows the dialog opened through `confirmDialog()`. */
export function ConfirmDialog() {
  const open = useStore(dialog);
  if (!open) return null;
  return (
    <Modal open title={open.title} role="alertdialog" onClose={() => closeDialog(false)} className="modal--confirm">
      <p className="modal__body">{open.body}</p>
      <div className="modal__actions">
        {open.cancel !== undefined && (
          <button type="button" className="btn btn--ghost" onClick={() => closeDialog(false)}>{open.cancel}</button>
        )}
        <button
          type="button"
          className={`btn ${open.tone === 'danger' ? 'btn--danger' : 'btn--primary'}`}
          autoFocus
          onClick={() => closeDialog(true)}
        >
          {open.action}
        </button>
      </div>
    </Modal>
  );
}
