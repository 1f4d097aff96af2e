import { PayoutMsg, type HeldBucket, type PayoutDetail, type SkippedFieldUser } from '@survey-bird/contracts';
import { HeldSummary } from './HeldSummary';
import { useEffect, useId, useState } from 'react';
import { api } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { formatNaira, formatResponseDate } from '../../ui/format';
import { serverText, useT } from '../../lib/i18n';
import { Modal } from '../../ui/Modal';
import { PageLoading } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { downloadPayout, PAYOUT_STATUS_LABEL, type PayoutFile } from './payout-calls';
import { PayoutLines } from './PayoutLines';

interface PayoutDialogProps {
  id: string;
  surveyTitle: string;
  readOnly: boolean;
  /** Just created: what it will pay and who was skipped; the person confirms it or cancels it. */
  created?: { payout: PayoutDetail; skipped: SkippedFieldUser[]; held: HeldBucket[] };
  onClose: () => void;
  onChanged: () => void;
}

/** One payout: its lines, and for the organization download, mark paid (with the transfer reference) and cancel. */
export function PayoutDialog({ id, surveyTitle, readOnly, created, onClose, onChanged }: PayoutDialogProps) {
  const t = useT();
  const [payout, setPayout] = useState<PayoutDetail | null>(created?.payout ?? null);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [reference, setReference] = useState('');
  const refId = useId();
  const noFileId = useId();
  useEffect(() => {
    if (created) return;
    const controller = new AbortController();
    api.call('payout', { params: { id }, signal: controller.signal }).then(setPayout, () => undefined);
    return () => controller.abort();
  }, [id, created]);

  async function act(run: () => Promise<PayoutDetail | void>) {
    setBusy(true);
    try {
      const next = await run();
      if (next) setPayout(next);
      onChanged();
    } catch {
      // toasted by the API client
    } finally {
      setBusy(false);
    }
  }
  const download = (format: PayoutFile) => act(() => downloadPayout(payout!, surveyTitle, format));
  const markPaid = () => act(async () => {
    const reply = await api.call('markPayoutPaid', { params: { id }, body: { reference: reference.trim() } });
    toast.success(reply.msg);
    setAsking(false);
    return reply.payout;
  });
  const cancel = async () => {
    const yes = await confirmDialog({ title: t('office.payout.cancelTitle'), body: t('office.payout.cancelBody'), action: t('office.payout.cancel'), cancel: t('office.payout.keep'), tone: 'danger' });
    if (!yes) return;
    await act(async () => {
      const reply = await api.call('cancelPayout', { params: { id } });
      toast.success(reply.msg);
      if (created) onClose();
      return reply.payout;
    });
  };

  const draft = payout?.status === 'draft';
  // A cancelled payout's responses are released (maybe into a newer payout): the server refuses its file.
  const cancelled = payout?.status === 'cancelled';
  return (
    <Modal open title={created ? t('office.payout.check') : t('office.payout.title')} onClose={onClose} className="payout-dialog">
      {!payout ? <PageLoading /> : (
        <div className="payout-dialog__body">
          <div className="payout-dialog__summary">
            <span className={`payout-chip payout-chip--${payout.status}`}>{t(PAYOUT_STATUS_LABEL[payout.status])}</span>
            <strong>{formatNaira(payout.total)}</strong>
            <span>{t('office.weekly.responsesCount', { count: payout.responseCount })}, {t('office.payout.fieldUsers', { count: payout.fieldUserCount })}</span>
            <span>{t('office.payout.createdAt', { when: formatResponseDate(payout.createdAt) })}</span>
            {payout.paidAt && <span>{t('office.payout.paidAt', { when: formatResponseDate(payout.paidAt), reference: payout.reference })}</span>}
            {payout.cancelledAt && <span>{t('office.payout.cancelledAt', { when: formatResponseDate(payout.cancelledAt) })}</span>}
          </div>
          {created && <p className="form__hint">{t('office.payout.draftHint')}</p>}
          <PayoutLines lines={payout.lines} />
          {created && created.skipped.length > 0 && (
            <section>
              <h3>{t('office.payout.notIncluded', { n: created.skipped.length })}</h3>
              <ul className="payout-skipped">
                {created.skipped.map((s) => <li key={s.fieldUserId}><strong>{s.fullName}</strong>, {formatNaira(s.amount)}: {s.reason}</li>)}
              </ul>
            </section>
          )}
          {created && <HeldSummary held={created.held} title={t('office.payout.heldNotIncluded')} />}
          {!readOnly && cancelled && <p id={noFileId} className="payout-no-file" role="note">{serverText(PayoutMsg.cancelledNoDownload, 'payout.cancelledNoDownload')}</p>}
          {!readOnly && (
            <div className="payout-dialog__buttons">
              <button type="button" className="btn btn--ghost btn--sm" disabled={busy || cancelled} aria-describedby={cancelled ? noFileId : undefined} onClick={() => void download('csv')}>{t('office.payout.downloadCsv')}</button>
              <button type="button" className="btn btn--ghost btn--sm" disabled={busy || cancelled} aria-describedby={cancelled ? noFileId : undefined} onClick={() => void download('xlsx')}>{t('office.payout.downloadExcel')}</button>
              {draft && <button type="button" className="btn btn--danger-outline btn--sm" disabled={busy} onClick={() => void cancel()}>{t('office.payout.cancel')}</button>}
              {draft && <button type="button" className="btn btn--primary btn--sm" disabled={busy} onClick={() => setAsking(true)}>{t('office.payout.markPaid')}</button>}
              {created && draft && <button type="button" className="btn btn--primary btn--sm" onClick={onClose}>{t('office.payout.confirm')}</button>}
            </div>
          )}
        </div>
      )}
      <Modal open={asking} title={t('office.payout.markPaid')} onClose={() => setAsking(false)} className="comment-dialog">
        <form className="form" onSubmit={(e) => { e.preventDefault(); if (reference.trim()) void markPaid(); }}>
          <div className="field">
            <label htmlFor={refId}>{t('office.payout.reference')}</label>
            <input id={refId} value={reference} maxLength={200} required autoFocus onChange={(e) => setReference(e.target.value)} />
          </div>
          <p className="form__hint">{t('office.payout.mailHint')}</p>
          <div className="payout-dialog__buttons">
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setAsking(false)}>{t('common.cancel')}</button>
            <button type="submit" className="btn btn--primary btn--sm" disabled={busy || !reference.trim()}>{t('office.payout.markPaid')}</button>
          </div>
        </form>
      </Modal>
    </Modal>
  );
}
