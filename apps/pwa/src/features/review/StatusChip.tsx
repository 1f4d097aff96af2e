import type { ResponseStatus } from '@survey-bird/contracts';
import { msgId, useT } from '../../lib/i18n';
import './review.css';

/** A status's word (a catalog id: `t(STATUS_LABEL[status])`). */
export const STATUS_LABEL: Record<ResponseStatus, string> = {
  approved: msgId('office.status.approved'),
  pending: msgId('office.status.pending'),
  returned: msgId('office.status.returned'),
  rejected: msgId('office.status.rejected'),
};

/** A response's review status as a coloured chip (the word is always shown: colour is never the only sign). */
export function StatusChip({ status }: { status: ResponseStatus }) {
  const t = useT();
  return <span className={`status-chip status-chip--${status}`}>{t(STATUS_LABEL[status])}</span>;
}
