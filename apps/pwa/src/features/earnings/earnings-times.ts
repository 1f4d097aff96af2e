import type { EarningsLine } from '../../offline';
import { formatResponseDate } from '../../ui/format';
import { msgId, t } from '../../lib/i18n';

const DECISION: Record<'approved' | 'returned' | 'rejected' | 'pending', string> = {
  approved: msgId('times.approved'),
  returned: msgId('times.returned'),
  rejected: msgId('times.rejected'),
  pending: msgId('times.reviewed'),
};

/** Each time for what it is: captured or submitted, the office's decision, a fix received, paid. */
export function timesText(l: EarningsLine): string {
  if (l.status === 'sending') return t('times.capturedNotSent', { when: formatResponseDate(l.capturedAt) });
  const parts = [l.submittedAt ? t('responses.submitted', { when: formatResponseDate(l.submittedAt) }) : l.capturedAt ? t('times.captured', { when: formatResponseDate(l.capturedAt) }) : null];
  if (l.reviewedAt) parts.push(t(DECISION[l.status], { when: formatResponseDate(l.reviewedAt) }));
  if (l.fixedAt) parts.push(t('times.fixReceived', { when: formatResponseDate(l.fixedAt) }));
  if (l.paidAt) parts.push(t('times.paid', { when: formatResponseDate(l.paidAt) }));
  return parts.filter(Boolean).join(' · ');
}
