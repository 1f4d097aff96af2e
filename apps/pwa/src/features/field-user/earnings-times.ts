import type { EarningsLine } from '../../offline';
import { formatResponseDate } from '../../ui/format';

const DECISION: Record<'approved' | 'returned' | 'rejected' | 'pending', string> = { approved: 'Approved', returned: 'Returned', rejected: 'Rejected', pending: 'Reviewed' };

/** Each time for what it is: captured or submitted, the office's decision, a fix received, paid. */
export function timesText(l: EarningsLine): string {
  if (l.status === 'sending') return `Captured ${formatResponseDate(l.capturedAt)}, not sent yet`;
  const parts = [l.submittedAt ? `Submitted ${formatResponseDate(l.submittedAt)}` : l.capturedAt ? `Captured ${formatResponseDate(l.capturedAt)}` : null];
  if (l.reviewedAt) parts.push(`${DECISION[l.status]} ${formatResponseDate(l.reviewedAt)}`);
  if (l.fixedAt) parts.push(`Fix received ${formatResponseDate(l.fixedAt)}`);
  if (l.paidAt) parts.push(`Paid ${formatResponseDate(l.paidAt)}`);
  return parts.filter(Boolean).join(' · ');
}
