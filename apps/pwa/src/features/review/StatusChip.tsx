import type { ResponseStatus } from '@survey-bird/contracts';
import './review.css';

export const STATUS_LABEL: Record<ResponseStatus, string> = { approved: 'Approved', pending: 'Pending', returned: 'Returned', rejected: 'Rejected' };

/** A response's review status as a coloured chip (the word is always shown: colour is never the only sign). */
export function StatusChip({ status }: { status: ResponseStatus }) {
  return <span className={`status-chip status-chip--${status}`}>{STATUS_LABEL[status]}</span>;
}
