import type { ReactNode } from 'react';
import { InboxIcon } from './icons';

/** The dashboard of an account without any survey yet. */
export function NoSurvey({ children }: { children: ReactNode }) {
  return (
    <div className="insight-panel insight-empty">
      <span className="stat-card__icon stat-card__icon--brand"><InboxIcon /></span>
      {children}
    </div>
  );
}
