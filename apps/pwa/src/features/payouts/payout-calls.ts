import type { PayoutDetail } from '@survey-bird/contracts';
import { api } from '../../api';
import { saveBlob } from '../insight/download';
import { msgId } from '../../lib/i18n';

export type PayoutFile = 'xlsx' | 'csv';

/** The bank transfer file; the CSV is the transfers part (the xlsx also has the responses sheet). */
export async function downloadPayout(payout: PayoutDetail | { _id: string; createdAt: string }, surveyTitle: string, format: PayoutFile): Promise<void> {
  const blob = await api.call('payoutDownload', { params: { id: payout._id }, query: { format, part: 'transfers' } });
  saveBlob(blob, `${surveyTitle} payout ${payout.createdAt.slice(0, 10)}.${format}`);
}

/** A payout's status word (catalog ids: `t(PAYOUT_STATUS_LABEL[status])`). */
export const PAYOUT_STATUS_LABEL = { draft: msgId('office.payout.draft'), paid: msgId('office.payout.paid'), cancelled: msgId('office.payout.cancelled') } as const;
