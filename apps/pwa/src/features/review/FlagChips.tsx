import type { ResponseFlag } from '@survey-bird/contracts';
import { flagLabel, flagSummary } from './flag-labels';
import { useT } from '../../lib/i18n';
import './review.css';

/** A response's open quality flags as chips (the reason on hover), "Checking" until they are set. */
export function FlagChips({ row }: { row: { checking: boolean; flags: ResponseFlag[] } }) {
  const t = useT();
  const s = flagSummary(row);
  if (s.checking) return <span className="flag-chip flag-chip--checking" title={t('office.flags.checkingTitle')}>{t('office.flags.checking')}</span>;
  if (s.open.length === 0) return <span className="resp-na" title={s.dismissed ? t('office.flags.dismissedCount', { count: s.dismissed }) : undefined}>{s.dismissed ? t('office.flags.dismissed') : t('office.flags.none')}</span>;
  return (
    <span className="flag-chips">
      {s.open.map((f) => <span key={f.flag} className="flag-chip" title={f.reason}>{flagLabel(f.flag)}</span>)}
    </span>
  );
}
