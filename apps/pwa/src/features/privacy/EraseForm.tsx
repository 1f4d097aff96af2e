import { useId, useState } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { useT } from '../../lib/i18n';

/**
 * Erase a response's personal data: a reason (kept in the audit log) and a deliberate confirmation,
 * since the answers, photos and files cannot be brought back. Other answers and the money stay.
 */
export function EraseForm({ responseId, onErased, onCancel }: { responseId: string; onErased: () => void; onCancel: () => void }) {
  const t = useT();
  const [reason, setReason] = useState('');
  const [sure, setSure] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function erase() {
    setBusy(true);
    try {
      const done = await api.call('eraseResponse', { params: { id: responseId }, body: { reason } });
      toast.success(t('office.erase.done', { msg: done.msg, answers: done.erasedQuestions.length, files: done.erasedFiles }));
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
        {t('office.erase.warning')}
      </p>
      <label htmlFor={`${id}-reason`}>{t('office.erase.reason')}</label>
      <textarea id={`${id}-reason`} rows={2} maxLength={1000} value={reason} required minLength={3} placeholder={t('office.erase.example')} onChange={(e) => setReason(e.target.value)} />
      <label className="erase-form__confirm"><input type="checkbox" checked={sure} onChange={(e) => setSure(e.target.checked)} /> {t('office.erase.sure')}</label>
      <div className="erase-form__actions">
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={busy}>{t('common.cancel')}</button>
        <button type="submit" className="btn btn--danger" disabled={busy || !sure || reason.trim().length < 3}>{busy ? t('office.erase.erasing') : t('office.erase.erase')}</button>
      </div>
    </form>
  );
}
