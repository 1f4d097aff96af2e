import { useId, useState } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';

/**
 * Erase a response's personal data: a reason (kept in the audit log) and a deliberate confirmation,
 * since the answers, photos and files cannot be brought back. Other answers and the money stay.
 */
export function EraseForm({ responseId, onErased, onCancel }: { responseId: string; onErased: () => void; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  const [sure, setSure] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function erase() {
    setBusy(true);
    try {
      const done = await api.call('eraseResponse', { params: { id: responseId }, body: { reason } });
      toast.success(`${done.msg}: ${done.erasedQuestions.length} answer${done.erasedQuestions.length === 1 ? '' : 's'}, ${done.erasedFiles} file${done.erasedFiles === 1 ? '' : 's'}`);
      onErased();
    } catch {
      // Toasted by the API client.
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="erase-form" onSubmit={(e) => { e.preventDefault(); void erase(); }}>
      <p className="erase-form__warning">
        This removes the personal answers, photos and files of this response for good, from the database and the file store.
        The other answers stay, and so does the money: paid work stays paid.
      </p>
      <label htmlFor={`${id}-reason`}>Reason (kept in the audit log)</label>
      <textarea id={`${id}-reason`} rows={2} maxLength={1000} value={reason} required minLength={3} placeholder="e.g. The respondent asked by phone on 3 March" onChange={(e) => setReason(e.target.value)} />
      <label className="erase-form__confirm"><input type="checkbox" checked={sure} onChange={(e) => setSure(e.target.checked)} /> I understand this cannot be undone</label>
      <div className="erase-form__actions">
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={busy}>Cancel</button>
        <button type="submit" className="btn btn--danger" disabled={busy || !sure || reason.trim().length < 3}>{busy ? 'Erasing…' : 'Erase personal data'}</button>
      </div>
    </form>
  );
}
