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
import { t, useT } from '../../lib/i18n';

const details = (b: { bank: string; accountNumber: string; accountName: string }) => (
  <span className="bank-change__details"><strong>{b.accountNumber || '–'}</strong> {b.bank || t('office.bank.noBank')}<br />{b.accountName || '–'}</span>
);

/**
 * Field users' requests to change their bank details, oldest first: approve (the details change,
 * audited, the person is mailed) or reject with a reason the person reads. Owner, admin, finance.
 */
export function BankChangesPage() {
  const t = useT();
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
    { header: t('office.bulk.name'), className: 'wrap', cell: (r) => r.fullName },
    { header: t('office.team.email'), className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: t('office.survey'), className: 'wrap', cell: (r) => r.surveyTitle },
    { header: t('office.bank.now'), className: 'wrap', cell: (r) => details(r.current) },
    { header: t('office.bank.askedFor'), className: 'wrap', cell: (r) => details(r.requested) },
    { header: t('office.bank.asked'), cell: (r) => formatResponseDate(r.requestedAt) },
    {
      header: t('office.bank.decision'),
      className: 'shrink',
      cell: (r) => (
        <span className="bank-change__actions">
          <button type="button" className="btn btn--primary btn--sm" disabled={busy !== null} onClick={() => void approve(r)} aria-label={t('office.bank.approveFor', { name: r.fullName })}>
            {busy === r._id && <Spinner label={t('office.bank.approving')} />} {t('office.review.approve')}
          </button>
          <button type="button" className="btn btn--ghost btn--sm" disabled={busy !== null} onClick={() => setRejecting(r)} aria-label={t('office.bank.rejectFor', { name: r.fullName })}>{t('office.review.reject')}</button>
        </span>
      ),
    },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title={t('nav.bankChanges')}
        sub={t('office.bank.sub')}
        actions={<RefreshButton onClick={list.refresh} busy={list.loading} />}
      />
      <div className="mgmt-panel">
        <DataTable label={t('office.bank.requests')} columns={columns} rows={data?.requests} rowKey={(r) => r._id} loading={list.loading}
          empty={<div className="empty-note"><p className="empty-note__title">{t('office.bank.none')}</p><p>{t('office.bank.noneBody')}</p></div>} />
        <Pager page={page} count={data?.requests.length ?? 0} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage} />
      </div>
      {rejecting && <RejectModal row={rejecting} onClose={() => setRejecting(null)} onRejected={list.refresh} />}
    </section>
  );
}

function RejectModal({ row, onClose, onRejected }: { row: BankChangeRow; onClose: () => void; onRejected: () => void }) {
  const t = useT();
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
    <Modal open title={t('office.bank.rejectTitle', { name: row.fullName })} onClose={onClose} className="modal--form">
      <form className="form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        <p className="form__hint">{t('office.bank.rejectHint')}</p>
        <div className="field">
          <label htmlFor={`${id}-reason`}>{t('office.bank.reason')}</label>
          <textarea id={`${id}-reason`} rows={3} maxLength={Limits.maxBankRejectReason} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn--danger" disabled={busy}>{busy && <Spinner label={t('office.bank.rejecting')} />} {t('office.bank.rejectRequest')}</button>
        </div>
      </form>
    </Modal>
  );
}
