import { Limits, type BankChangeRow } from '@survey-bird/contracts';
import { useId, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { formatResponseDate } from '../../ui/format';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { DataTable, EmailText, type Column } from './DataTable';
import { MgmtHead, RefreshButton } from './Layout';
import { Pager } from './ListControls';
import { serialNumber } from './paging';
import { usePagedList } from './usePagedList';

const details = (b: { bank: string; accountNumber: string; accountName: string }) => (
  <span className="bank-change__details"><strong>{b.accountNumber || '–'}</strong> {b.bank || 'No bank'}<br />{b.accountName || '–'}</span>
);

/**
 * Field users' requests to change their bank details, oldest first: approve (the details change,
 * audited, the person is mailed) or reject with a reason the person reads. Owner, admin, finance.
 */
export function BankChangesPage() {
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('bankChangeRequests', { query: { page, searchQuery }, signal }));
  const [rejecting, setRejecting] = useState<BankChangeRow | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const data = list.data;
  const page = data?.page ?? list.page;

  async function approve(r: BankChangeRow) {
    if (busy) return;
    setBusy(r._id);
    try {
      const reply = await api.call('approveBankChange', { params: { id: r._id } });
      toast.success(reply.msg);
      list.refresh();
    } catch {
      // Toasted by the API client (a request decided meanwhile).
    } finally {
      setBusy(null);
    }
  }

  const columns: Column<BankChangeRow>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Name', className: 'wrap', cell: (r) => r.fullName },
    { header: 'Email Address', className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: 'Survey', className: 'wrap', cell: (r) => r.surveyTitle },
    { header: 'Now', className: 'wrap', cell: (r) => details(r.current) },
    { header: 'Asked for', className: 'wrap', cell: (r) => details(r.requested) },
    { header: 'Asked', cell: (r) => formatResponseDate(r.requestedAt) },
    {
      header: 'Decision',
      className: 'shrink',
      cell: (r) => (
        <span className="bank-change__actions">
          <button type="button" className="btn btn--primary btn--sm" disabled={busy !== null} onClick={() => void approve(r)} aria-label={`Approve the change for ${r.fullName}`}>
            {busy === r._id && <Spinner label="Approving" />} Approve
          </button>
          <button type="button" className="btn btn--ghost btn--sm" disabled={busy !== null} onClick={() => setRejecting(r)} aria-label={`Reject the change for ${r.fullName}`}>Reject</button>
        </span>
      ),
    },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title="Bank changes"
        sub="Field users ask to be paid to new bank details. Check each with the person before approving: a payout made within 24 hours of a change flags that line."
        actions={<RefreshButton onClick={list.refresh} busy={list.loading} />}
      />
      <div className="mgmt-panel">
        <DataTable label="Bank change requests" columns={columns} rows={data?.requests} rowKey={(r) => r._id} loading={list.loading}
          empty={<div className="empty-note"><p className="empty-note__title">No request waiting</p><p>When a field user asks to change their bank details, it shows here.</p></div>} />
        <Pager page={page} count={data?.requests.length ?? 0} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage} />
      </div>
      {rejecting && <RejectModal row={rejecting} onClose={() => setRejecting(null)} onRejected={list.refresh} />}
    </section>
  );
}

function RejectModal({ row, onClose, onRejected }: { row: BankChangeRow; onClose: () => void; onRejected: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const reply = await api.call('rejectBankChange', { params: { id: row._id }, body: { reason } });
      toast.success(reply.msg);
      onRejected();
      onClose();
    } catch {
      // Toasted by the API client.
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal open title={`Reject the change for ${row.fullName}?`} onClose={onClose} className="modal--form">
      <form className="form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        <p className="form__hint">Their bank details stay as they are. They see your reason on their Bank details screen and by e-mail.</p>
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason (optional)</label>
          <textarea id={`${id}-reason`} rows={3} maxLength={Limits.maxBankRejectReason} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn--danger" disabled={busy}>{busy && <Spinner label="Rejecting" />} Reject request</button>
        </div>
      </form>
    </Modal>
  );
}
