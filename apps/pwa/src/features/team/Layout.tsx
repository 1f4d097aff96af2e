import { useState, type ReactNode } from 'react';
import { api } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { toast } from '../../lib/toast-store';
import { PageLoading } from '../../ui/Spinner';
import { RefreshIcon, TrashIcon } from './icons';
import { useT } from '../../lib/i18n';
import './team.css';

/** Title row of a management screen: heading, optional sub-text, actions on the right (wrapping on phones). */
export function MgmtHead({ title, sub, actions }: { title: string; sub?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mgmt__head">
      <div>
        <h1 className="mgmt__title">{title}</h1>
        {sub && <p className="mgmt__sub">{sub}</p>}
      </div>
      {actions && <div className="mgmt__actions">{actions}</div>}
    </div>
  );
}

/** Shown instead of a survey's team while the surveys load, or when the account has none. */
export function NoActiveSurvey({ heading, loading, children }: { heading: string; loading: boolean; children: ReactNode }) {
  return (
    <section className="mgmt">
      <MgmtHead title={heading} />
      {loading ? <PageLoading /> : <div className="mgmt-panel empty-note">{children}</div>}
    </section>
  );
}

export function RefreshButton({ onClick, busy }: { onClick: () => void; busy: boolean }) {
  const t = useT();
  return (
    <button type="button" className="btn btn--ghost" onClick={onClick} disabled={busy}>
      <RefreshIcon /> {t('office.responses.refresh')}
    </button>
  );
}

/** The Access column's delete icon where the spec gives it no visible effect (master admin): it only takes focus. */
export function AccessButton({ name }: { name: string }) {
  const t = useT();
  return (
    <button type="button" className="icon-btn access-btn" aria-label={t('office.team.accessOf', { name })} title={t('office.team.access')}>
      <TrashIcon />
    </button>
  );
}

/**
 * The Access delete icon of a survey's field users and supervisors: after a confirmation, withdraws the person from this survey
 * (their responses and money owed stay with the organization), then `onWithdrawn` refreshes the list.
 */
export function WithdrawButton({ name, surveyId, surveyTitle, memberId, onWithdrawn }: { name: string; surveyId: string; surveyTitle: string; memberId: string; onWithdrawn: () => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  async function withdraw() {
    if (busy) return;
    const yes = await confirmDialog({
      title: t('office.team.removeAccessTitle'),
      body: t('office.team.removeAccessBody', { name, survey: surveyTitle }),
      action: t('office.team.removeAccess'),
      cancel: t('common.cancel'),
      tone: 'danger',
    });
    if (!yes) return;
    setBusy(true);
    try {
      const reply = await api.call('withdrawMember', { params: { surveyId, memberId } });
      toast.success(reply.msg);
      onWithdrawn();
    } catch {
      // toasted by the API client
    } finally {
      setBusy(false);
    }
  }
  return (
    <button type="button" className="icon-btn access-btn" aria-label={t('office.team.removeAccessOf', { name })} title={t('office.team.removeAccess')} disabled={busy} onClick={() => void withdraw()}>
      <TrashIcon />
    </button>
  );
}
