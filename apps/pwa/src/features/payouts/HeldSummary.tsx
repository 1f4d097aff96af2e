import type { HeldBucket } from '@survey-bird/contracts';
import { formatNaira } from '../../ui/format';
import { useT } from '../../lib/i18n';
import { holdReasonText } from '../review/hold-reasons';

/** What a payout leaves out for verification, per reason: how many responses and how much (the survey's pay gate). */
export function HeldSummary({ held, title }: { held: HeldBucket[]; title: string }) {
  const t = useT();
  if (held.length === 0) return null;
  const total = held.reduce((sum, h) => sum + h.amount, 0);
  return (
    <section className="payout-held" aria-label={title}>
      <h3>{title}: {formatNaira(total)}</h3>
      <ul>
        {held.map((h) => <li key={h.reason}><strong>{t('office.weekly.responsesCount', { count: h.count })}, {formatNaira(h.amount)}</strong>: {holdReasonText(h.reason)}</li>)}
      </ul>
    </section>
  );
}
