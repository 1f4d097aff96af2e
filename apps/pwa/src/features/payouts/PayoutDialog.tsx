import { PayoutMsg, type HeldBucket, type PayoutDetail, type SkippedFieldUser } from '@survey-bird/contracts';
import { HeldSummary } from './HeldSummary';
import { useEffect, useId, useState } from 'react';
import { api } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { countOf, formatNaira, formatResponseDate } from '../../ui/format';
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
    const yes = await confirmDialog({ title: 'Cancel this payout?', body: 'Its responses go back to what is owed and can be paid in a new payout.', action: 'Cancel payout', cancel: 'Keep it', tone: 'danger' });
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
    <Modal open title={created ? 'Check this payout' : 'Payout'} onClose={onClose} className="payout-dialog">
      {!payout ? <PageLoading /> : (
        <div className="payout-dialog__body">
          <div className="payout-dialog__summary">
            <span className={`payout-chip payout-chip--${payout.status}`}>{PAYOUT_STATUS_LABEL[payout.status]}</span>
            <strong>{formatNaira(payout.total)}</strong>
            <span>{countOf(payout.responseCount, 'response')}, {countOf(payout.fieldUserCount, 'field user')}</span>
            <span>Created {formatResponseDate(payout.createdAt)}</span>
            {payout.paidAt && <span>Paid {formatResponseDate(payout.paidAt)}, reference {payout.reference}</span>}
            {payout.cancelledAt && <span>Cancelled {formatResponseDate(payout.cancelledAt)}</span>}
          </div>
          {created && <p className="form__hint">This draft holds these responses: download the bank file, make the transfer, then mark it paid. Cancel it to release them.</p>}
          <PayoutLines lines={payout.lines} />
          {created && created.skipped.length > 0 && (
            <section>
              <h3>Not included ({created.skipped.length})</h3>
              <ul className="payout-skipped">
                {created.skipped.map((s) => <li key={s.fieldUserId}><strong>{s.fullName}</strong>, {formatNaira(s.amount)}: {s.reason}</li>)}
              </ul>
            </section>
          )}
          {created && <HeldSummary held={created.held} title="Held for verification, not included" />}
          {!readOnly && cancelled && <p id={noFileId} className="payout-no-file" role="note">{PayoutMsg.cancelledNoDownload}</p>}
          {!readOnly && (
            <div className="payout-dialog__buttons">
              <button type="button" className="btn btn--ghost btn--sm" disabled={busy || cancelled} aria-describedby={cancelled ? noFileId : undefined} onClick={() => void download('csv')}>Download CSV</button>
              <button type="button" className="btn btn--ghost btn--sm" disabled={busy || cancelled} aria-describedby={cancelled ? noFileId : undefined} onClick={() => void download('xlsx')}>Download Excel</button>
              {draft && <button type="button" className="btn btn--danger-outline btn--sm" disabled={busy} onClick={() => void cancel()}>Cancel payout</button>}
              {draft && <button type="button" className="btn btn--primary btn--sm" disabled={busy} onClick={() => setAsking(true)}>Mark paid</button>}
              {created && draft && <button type="button" className="btn btn--primary btn--sm" onClick={onClose}>Confirm</button>}
            </div>
          )}
        </div>
      )}
      <Modal open={asking} title="Mark paid" onClose={() => setAsking(false)} className="comment-dialog">
        <form className="form" onSubmit={(e) => { e.preventDefault(); if (reference.trim()) void markPaid(); }}>
          <div className="field">
            <label htmlFor={refId}>Transfer reference</label>
            <input id={refId} value={reference} maxLength={200} required autoFocus onChange={(e) => setReference(e.target.value)} />
          </div>
          <p className="form__hint">Each field user in it gets an e-mail saying what they were paid.</p>
          <div className="payout-dialog__buttons">
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setAsking(false)}>Cancel</button>
            <button type="submit" className="btn btn--primary btn--sm" disabled={busy || !reference.trim()}>Mark paid</button>
          </div>
        </form>
      </Modal>
    </Modal>
  );
}
