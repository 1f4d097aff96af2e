import { BANK_PLACEHOLDER, NIGERIAN_BANKS, type MyBankRow } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { formatResponseDate } from '../../ui/format';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { Pager } from '../team/ListControls';
import { usePagedList } from '../team/usePagedList';
import { MyDataButton } from '../privacy/MyDataButton';
import './bank.css';
import { serverText, useT } from '../../lib/i18n';

/**
 * The field user's own bank details per survey, the account number masked but for its last four
 * digits, and a change request the office approves. Online only: nothing of it is kept on the phone.
 */
export function BankDetailsPage() {
  const t = useT();
  const list = usePagedList(({ page, signal }) => api.call('myBank', { query: { page }, signal }));
  const [changing, setChanging] = useState<MyBankRow | null>(null);
  const data = list.data;
  return (
    <section className="bank-page">
      <h1 className="bank-page__title">{t('bank.title')}</h1>
      <p className="bank-page__hint">{t('bank.hint')}</p>
      {list.loading && !data && <Spinner label={t('common.loading')} />}
      {data?.banks.length === 0 && <p className="bank-page__hint">{t('bank.noSurvey')}</p>}
      <ul className="bank-list">
        {data?.banks.map((b) => (
          <li key={b.survey_id} className="bank-card">
            <p className="bank-card__org">{b.organizationName} · {b.surveyTitle}</p>
            <dl className="bank-card__details">
              <dt>{t('bank.bank')}</dt><dd>{b.current.bank || '–'}</dd>
              <dt>{t('bank.accountNumber')}</dt><dd className="bank-card__number">{b.current.accountNumber || '–'}</dd>
              <dt>{t('bank.accountName')}</dt><dd>{b.current.accountName || '–'}</dd>
            </dl>
            {b.pending && (
              <p className="bank-card__pending" role="status">{t('bank.pending', { when: formatResponseDate(b.pending.requestedAt), bank: b.pending.bank, number: b.pending.accountNumber })}</p>
            )}
            {!b.pending && b.lastDecision?.status === 'rejected' && (
              <p className="bank-card__rejected" role="status">
                {b.lastDecision.reason
                  ? t('bank.rejectedBecause', { bank: b.lastDecision.bank, account: b.lastDecision.accountNumber, date: formatResponseDate(b.lastDecision.decidedAt), reason: b.lastDecision.reason })
                  : t('bank.rejected', { bank: b.lastDecision.bank, account: b.lastDecision.accountNumber, date: formatResponseDate(b.lastDecision.decidedAt) })}
              </p>
            )}
            {!b.pending && b.lastDecision?.status === 'approved' && (
              <p className="bank-card__approved" role="status">{t('bank.approved', { date: formatResponseDate(b.lastDecision.decidedAt) })}</p>
            )}
            <button type="button" className="btn btn--ghost" onClick={() => setChanging(b)}>{t('bank.requestChange')}</button>
          </li>
        ))}
      </ul>
      {data && data.totalCount > data.banks.length && (
        <Pager page={data.page} count={data.banks.length} total={data.totalCount} hasPreviousPage={data.hasPreviousPage} hasNextPage={data.hasNextPage} onPage={list.setPage} />
      )}
      {changing && <ChangeRequest row={changing} onClose={() => setChanging(null)} onSent={list.refresh} />}
      <p className="bank-page__hint">{t('bank.dataRight')}</p>
      <MyDataButton />
    </section>
  );
}

function ChangeRequest({ row, onClose, onSent }: { row: MyBankRow; onClose: () => void; onSent: () => void }) {
  const t = useT();
  const [form, setForm] = useState({ bank: row.current.bank, accountNumber: '', accountName: row.current.accountName });
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const reply = await api.call('requestBankChange', { body: { survey_id: row.survey_id, ...form } });
      toast.success(serverText(reply.msg, 'bankChangeRequested'));
      onSent();
      onClose();
    } catch {
      // toasted by the API client
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open title={t('bank.requestTitle')} onClose={onClose} className="modal--form">
      <form className="form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        <p className="form__hint">{t('bank.for', { survey: row.surveyTitle, organization: row.organizationName })}</p>
        <div className="field">
          <label htmlFor="bank-new">{t('bank.bank')}</label>
          <select id="bank-new" value={form.bank} onChange={set('bank')}>
            <option value="">{BANK_PLACEHOLDER}</option>
            {[...new Set([row.current.bank, ...NIGERIAN_BANKS])].filter(Boolean).map((b) => <option key={b} value={b}>{b}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="bank-number">{t('bank.newNumber')}</label>
          <input id="bank-number" inputMode="numeric" maxLength={10} value={form.accountNumber} onChange={set('accountNumber')} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="bank-name">{t('bank.accountName')}</label>
          <input id="bank-name" value={form.accountName} onChange={set('accountName')} autoComplete="off" />
        </div>
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
          <button type="submit" className="btn btn--primary" disabled={busy}>{busy && <Spinner label={t('common.sending')} />} {t('bank.send')}</button>
        </div>
      </form>
    </Modal>
  );
}
