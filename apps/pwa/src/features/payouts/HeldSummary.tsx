import { HoldReasonText, type HeldBucket } from '@survey-bird/contracts';
import { countOf, formatNaira } from '../../ui/format';

/** What a payout leaves out for verification, per reason: how many responses and how much (the survey's pay gate). */
export function HeldSummary({ held, title }: { held: HeldBucket[]; title: string }) {
  if (held.length === 0) return null;
  const total = held.reduce((sum, h) => sum + h.amount, 0);
  return (
    <section className="payout-held" aria-label={title}>
      <h3>{title}: {formatNaira(total)}</h3>
      <ul>
        {held.map((h) => <li key={h.reason}><strong>{countOf(h.count, 'response')}, {formatNaira(h.amount)}</strong>: {HoldReasonText[h.reason]}</li>)}
      </ul>
    </section>
  );
}
