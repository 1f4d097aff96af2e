import { Limits, type TopPerformerReply } from '@survey-bird/contracts';
import type { ReactNode } from 'react';
import { flaggedShare } from '../review/flag-labels';
import { FlagIcon, InboxIcon, PulseIcon, TrophyIcon } from './icons';
import { countOf } from '../../ui/format';

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
  const show = !loading && cards;
  const team = scope === 'team';
  return (
    <ul className="stat-cards" aria-busy={loading}>
      <StatCard icon={<InboxIcon />} title="Total responses" tone="brand" caption={team ? 'From your field users' : expected ? `Target: ${countOf(expected, 'response')}` : 'All responses to this survey'}>
        {show ? cards.totalResponses.toLocaleString('en-NG') : null}
      </StatCard>
      <StatCard icon={<FlagIcon />} title="Flagged" tone="rose" caption={show ? flaggedShare(cards.flaggedResponses, cards.totalResponses) : 'Responses with an open flag'}>
        {show ? cards.flaggedResponses.toLocaleString('en-NG') : null}
      </StatCard>
      <StatCard icon={<PulseIcon />} title="Active field users" tone="sky" caption={`Submitted in the last ${Limits.activeFieldUserDays} days`}>
        {show ? cards.activeFieldUsers.toLocaleString('en-NG') : null}
      </StatCard>
      <StatCard icon={<TrophyIcon />} title="Top performer" tone="amber" caption={team ? 'Most responses in your team' : 'Most responses on this survey'}>
        {show ? (cards.topPerformer ?? <span className="stat-card__none">No responses yet</span>) : null}
      </StatCard>
    </ul>
  );
}

function StatCard({ icon, title, caption, tone, children }: { icon: ReactNode; title: string; caption: string; tone: string; children: ReactNode }) {
  return (
    <li className="stat-card">
      <span className={`stat-card__icon stat-card__icon--${tone}`}>{icon}</span>
      <div className="stat-card__body">
        <h2 className="stat-card__title">{title}</h2>
        <p className="stat-card__value">{children ?? <><span className="insight-skeleton insight-skeleton--value" aria-hidden="true" /><span className="insight-sr">Loading</span></>}</p>
        <p className="stat-card__caption">{caption}</p>
      </div>
    </li>
  );
}
