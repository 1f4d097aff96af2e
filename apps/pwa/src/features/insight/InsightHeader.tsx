import type { ReactNode } from 'react';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useT } from '../../lib/i18n';

/**
 * 'Good morning, {name}!' ('Good morning!' when the name cannot load) with the active survey under it and the survey picker beside it. The
 * 'Insight' eyebrow is part of the heading so the screen's title reads 'Insight: Good morning, …'.
 */
export function InsightHeader({ greeting, name, sub }: { greeting: string; name: string | null | undefined; sub: ReactNode }) {
  const t = useT();
  return (
    <header className="insight-head">
      <div className="insight-head__text">
        <h1 className="insight-head__title">
          <span className="insight-head__eyebrow">{t('nav.insight')}</span>
          <span className="insight-sr">: </span>
          {greeting}
          {name === undefined ? <>, <span className="insight-skeleton insight-skeleton--name" aria-hidden="true" /></> : name ? `, ${name}` : null}!
        </h1>
        <p className="insight-head__sub">{sub}</p>
      </div>
      <ActiveSurveyButton className="insight-head__picker" />
    </header>
  );
}
