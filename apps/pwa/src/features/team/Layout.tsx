import { useState, type ReactNode } from 'react';
import { api } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { toast } from '../../lib/toast-store';
import { PageLoading } from '../../ui/Spinner';
import { RefreshIcon, TrashIcon } from './icons';
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
  return (
    <button type="button" className="btn btn--ghost" onClick={onClick} disabled={busy}>
      <RefreshIcon /> Refresh
    </button>
  );
}

/** The Access column's delete icon where the spec gives it no visible effect (master admin): it only takes focus. */
export function AccessButton({ name }: { name: string }) {
  return (
    <button type="button" className="icon-btn access-btn" aria-label={`Access of ${name}`} title="Access">
      <TrashIcon />
    </button>
  );
}

/**
 * The Access delete icon of a survey's field users and supervisors: after a confirmation, withdraws the person from this survey
 * (their responses and money owed stay with the organization), then `onWithdrawn` refreshes the list.
 */
export function WithdrawButton({ name, surveyId, surveyTitle, memberId, onWithdrawn }: { name: string; surveyId: string; surveyTitle: string; memberId: string; onWithdrawn: () => void }) {
  const [busy, setBusy] = useState(false);
  async function withdraw() {
    if (busy) return;
    const yes = await confirmDialog({
      title: 'Remove access?',
      body: `${name} will no longer have access to ${surveyTitle}. Their responses and the money they are owed stay in your records.`,
      action: 'Remove access',
      cancel: 'Cancel',
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
    <button type="button" className="icon-btn access-btn" aria-label={`Remove access of ${name}`} title="Remove access" disabled={busy} onClick={() => void withdraw()}>
      <TrashIcon />
    </button>
  );
}
