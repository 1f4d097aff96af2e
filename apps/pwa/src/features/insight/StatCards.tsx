import { Limits, type TopPerformerReply } from '@survey-bird/contracts';
import type { ReactNode } from 'react';
import { flaggedShare } from '../review/flag-labels';
import { FlagIcon, InboxIcon, PulseIcon, TrophyIcon } from './icons';
import { formatNumber } from '../../ui/format';
import { useT } from '../../lib/i18n';

interface StatCardsProps {
  cards: TopPerformerReply | null;
  loading: boolean;
  /** The survey's target, shown under the total when it has one. */
  expected?: number | null;
  /** Whose responses the cards count: 'survey' (organization) or 'team' (a supervisor's field users). */
  scope?: 'survey' | 'team';
}

/** Total responses, Flagged, Active field users, Top performer (spec screens 1 and 9). */
export function StatCards({ cards, loading, expected, scope = 'survey' }: StatCardsProps) {
  const t = useT();
  const show = !loading && cards;
  const team = scope === 'team';
  return (
    <ul className="stat-cards" aria-busy={loading}>
      <StatCard icon={<InboxIcon />} title={t('office.cards.total')} tone="brand" caption={team ? t('office.cards.fromYourFieldUsers') : expected ? t('office.cards.target', { count: expected }) : t('office.cards.allResponses')}>
        {show ? formatNumber(cards.totalResponses) : null}
      </StatCard>
      <StatCard icon={<FlagIcon />} title={t('office.flagFilter.flagged')} tone="rose" caption={show ? flaggedShare(cards.flaggedResponses, cards.totalResponses) : t('office.cards.withOpenFlag')}>
        {show ? formatNumber(cards.flaggedResponses) : null}
      </StatCard>
      <StatCard icon={<PulseIcon />} title={t('office.cards.active')} tone="sky" caption={t('office.cards.activeCaption', { days: Limits.activeFieldUserDays })}>
        {show ? formatNumber(cards.activeFieldUsers) : null}
      </StatCard>
      <StatCard icon={<TrophyIcon />} title={t('office.cards.top')} tone="amber" caption={team ? t('office.cards.topTeam') : t('office.cards.topSurvey')}>
        {show ? (cards.topPerformer ?? <span className="stat-card__none">{t('office.cards.noResponses')}</span>) : null}
      </StatCard>
    </ul>
  );
}

function StatCard({ icon, title, caption, tone, children }: { icon: ReactNode; title: string; caption: string; tone: string; children: ReactNode }) {
  const t = useT();
  return (
    <li className="stat-card">
      <span className={`stat-card__icon stat-card__icon--${tone}`}>{icon}</span>
      <div className="stat-card__body">
        <h2 className="stat-card__title">{title}</h2>
        <p className="stat-card__value">{children ?? <><span className="insight-skeleton insight-skeleton--value" aria-hidden="true" /><span className="insight-sr">{t('office.cards.loading')}</span></>}</p>
        <p className="stat-card__caption">{caption}</p>
      </div>
    </li>
  );
}
