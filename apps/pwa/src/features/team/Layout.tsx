import type { ReactNode } from 'react';
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

/** The Access column's delete icon: the spec gives it no visible effect, so it only takes focus. */
export function AccessButton({ name }: { name: string }) {
  return (
    <button type="button" className="icon-btn access-btn" aria-label={`Access of ${name}`} title="Access">
      <TrashIcon />
    </button>
  );
}
