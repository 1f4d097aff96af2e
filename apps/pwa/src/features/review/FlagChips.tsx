import type { ResponseFlag } from '@survey-bird/contracts';
import { FLAG_LABEL, flagSummary } from './flag-labels';
import './review.css';

/** A response's open quality flags as chips (the reason on hover), "Checking" until they are set. */
export function FlagChips({ row }: { row: { checking: boolean; flags: ResponseFlag[] } }) {
  const s = flagSummary(row);
  if (s.checking) return <span className="flag-chip flag-chip--checking" title="The server is still checking this response">Checking…</span>;
  if (s.open.length === 0) return <span className="resp-na" title={s.dismissed ? `${s.dismissed} dismissed` : undefined}>{s.dismissed ? 'Dismissed' : 'None'}</span>;
  return (
    <span className="flag-chips">
      {s.open.map((f) => <span key={f.flag} className="flag-chip" title={f.reason}>{FLAG_LABEL[f.flag]}</span>)}
    </span>
  );
}
